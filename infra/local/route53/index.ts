export {
  startLocalRoute53,
  type Faults,
  type LocalRoute53,
  type LocalRoute53Options,
  type Route53Call,
} from './server.js';
export { LocalRoute53Store, type ChangeListener, type StoreOptions } from './store.js';
export type { ChangeStatus, ChangeView } from './change-log.js';
export * from './errors.js';
export type { ChangeInput, RecordSetInput } from './change-input.js';
export {
  DEFAULT_HEALTH_CHECK_QUOTA,
  HealthCheckStore,
  type HealthCheck,
  type HealthCheckConfig,
} from './health-checks.js';
export { HEALTH_STATUS, HealthEvaluator, type HealthStatus } from './health-status.js';
