/**
 * The metric contract: what the evaluator emits (Powertools Metrics, CloudWatch EMF) and what
 * the dashboard and the alarms read. Emitters and the CDK stacks import these names.
 */

/** The CloudWatch namespace every custom metric is written to (`POWERTOOLS_METRICS_NAMESPACE`). */
export const METRICS_NAMESPACE = 'TrafficManager';

/** Powertools' service name (`POWERTOOLS_SERVICE_NAME`): the `service` of every log line and metric. */
export const SERVICE_NAME = 'traffic-manager';

export const MetricName = {
  /** Evaluator tick: probe regions whose heartbeat is stale (0 when all are fresh). Alarmed. */
  staleRegions: 'StaleRegions',
  /**
   * Evaluator tick, every minute while some profile has `staticFailover` (0 when none is frozen):
   * the profiles whose static path the stale probe regions hold (shared/static-failover/frozen.ts).
   * Alarmed.
   */
  staticFailoverFrozen: 'StaticFailoverFrozen',
  /**
   * Evaluator tick, every minute, per profile (dimension `Profile`): 1 while the profile monitor
   * status is Degraded, else 0. Alarmed. One custom metric per profile ($0.30/month each).
   */
  profileDegraded: 'ProfileDegraded',
  /**
   * Evaluator tick, every minute, per endpoint (dimensions `Profile`, `Endpoint`): 1 while the
   * endpoint monitor status is Degraded, else 0. One custom metric per endpoint ($0.30/month
   * each); off with the `endpointMetrics: false` construct prop.
   */
  endpointDegraded: 'EndpointDegraded',
  /** Profiles evaluated by one evaluation. */
  profilesEvaluated: 'ProfilesEvaluated',
  /** Milliseconds one evaluation took. */
  evaluationDuration: 'EvaluationDuration',
  /** Milliseconds from a status decision to the Route 53 change request that publishes it. */
  decisionToChangeRequest: 'DecisionToChangeRequest',
  /**
   * Probe round handler, every round (dimension `Region`): how late its latest probe started
   * against that probe's own due time (the round's due time + its place in the spread), in ms;
   * a round skipped for starting a whole period late reports how late it was. The maximum over
   * a region's shards is alarmed (`ProbeRoundsLate`): a late probe is a failover decided late.
   */
  probeStartLateness: 'ProbeStartLateness',
  /** Probe latency: each judge's median over the last heartbeat period, every minute (dimension `Region`). */
  probeLatency: 'ProbeLatency',
  /** Zones read back from Route 53 (first sight or after a rejected batch). */
  route53Reconciliations: 'Route53Reconciliations',
  /** Route 53 API calls (dimension `Operation`). */
  route53Calls: 'Route53Calls',
  /** Route 53 calls retried after throttling (dimension `Operation`). */
  route53Retries: 'Route53Retries',
  /** Record sets at owned names a reconcile found changed by someone else and put back (per zone reconciled; 0 when none). Alarmed. */
  driftRepaired: 'DriftRepaired',
  /** Names whose changes Route 53 refused in one publication (each isolated to its profile). */
  changesRejected: 'ChangesRejected',
  /**
   * Outbox entries left after a drain (waiting for Route 53 to be INSYNC, or for EventBridge to
   * accept them). Alarmed: it stays above 0 only while events cannot be delivered.
   */
  outboxPending: 'OutboxPending',
  /**
   * Evaluator tick, every minute, per HTTPS endpoint whose certificate a check saw (dimensions
   * `Profile`, `Endpoint`): the days left until its notAfter (fractional; the soonest over the
   * regions). Off with `endpointMetrics: false`, like EndpointDegraded.
   */
  certificateDaysLeft: 'CertificateDaysLeft',
  /**
   * Evaluator tick, every minute: the endpoints whose certificate has fewer days left than their
   * profile's certificateWarningDays (0 when none). Alarmed.
   */
  certificatesExpiring: 'CertificatesExpiring',
} as const;
export type MetricName = (typeof MetricName)[keyof typeof MetricName];

export const MetricDimension = {
  profile: 'Profile',
  endpoint: 'Endpoint',
  region: 'Region',
  operation: 'Operation',
} as const;
