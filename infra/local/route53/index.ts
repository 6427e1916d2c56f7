export {
  startLocalRoute53,
  type Faults,
  type LocalRoute53,
  type LocalRoute53Options,
  type Route53Call,
} from './server.js';
export { type ChangeListener, type StoreOptions } from './store.js';
export type { ChangeStatus, ChangeView } from './change-log.js';
export * from './errors.js';
export type { ChangeInput, RecordSetInput } from './change-input.js';
export { type HealthCheck, type HealthCheckConfig } from './health-checks.js';
export { type HealthStatus } from './health-status.js';
