export {
  startLocalRoute53,
  type Faults,
  type LocalRoute53,
  type LocalRoute53Options,
  type Route53Call,
} from './server.js';
export {
  LocalRoute53Store,
  type ChangeListener,
  type ChangeStatus,
  type ChangeView,
  type StoreOptions,
} from './store.js';
export * from './errors.js';
export type { ChangeInput, RecordSetInput } from './change-input.js';
