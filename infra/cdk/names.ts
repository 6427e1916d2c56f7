/**
 * Names and values shared between the stacks and the handlers they deploy: the
 * metric namespace the evaluator's Powertools EMF writes to, the service name,
 * and the environment contract of each function.
 */
export const SERVICE_NAME = 'traffic-manager';
export const METRICS_NAMESPACE = 'TrafficManager';

export const MetricName = {
  /** Emitted by the evaluator tick: probe regions whose heartbeat is stale (0 when all are fresh). */
  staleRegions: 'StaleRegions',
  /** Emitted by the evaluator per profile (dimension `Profile`): 1 while the profile monitor status is Degraded. */
  profileDegraded: 'ProfileDegraded',
} as const;

/**
 * Default deployment name: the physical name of the state table, the event bus and the
 * dashboard, and the prefix of the probe functions and queues. Fixed names let the probe
 * stacks in other regions address the table without cross-region references.
 */
export const DEFAULT_DEPLOYMENT_NAME = 'traffic-manager';
