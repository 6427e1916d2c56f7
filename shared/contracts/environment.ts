/**
 * The environment contract between the CDK stacks and the handlers they deploy: every
 * variable a function reads, by one name. The stacks set them and the handlers read them
 * through these constants. (The SDK's own variables — `AWS_REGION`,
 * `AWS_ENDPOINT_URL_<SERVICE>` — are AWS's contract, not ours.)
 */
export const EnvironmentVariable = {
  /** The traffic-manager table's name (every function). */
  tableName: 'TABLE_NAME',
  /** The table's region when it is not the function's (probe regions write to the home table). */
  tableRegion: 'TABLE_REGION',
  /** The region name a probe function reports as (default `AWS_REGION`). */
  probeRegion: 'PROBE_REGION',
  /** The deployment's default probe regions, a comma list (used when CONFIG items carry none). */
  probeRegions: 'PROBE_REGIONS',
  /** Static failover: the deployment name in the votes' dimensions and the health-check ids (probe functions and evaluator); unset = no votes. */
  staticFailoverDeployment: 'STATIC_FAILOVER_DEPLOYMENT',
  /** Probes in flight at once in one probe function. */
  probeConcurrency: 'PROBE_CONCURRENCY',
  /** How often a probe region writes its heartbeat, in ms. */
  heartbeatPeriodMs: 'HEARTBEAT_PERIOD_MS',
  /** The probe tick's round queues: one per shard, a comma list in shard order (its length caps the shards). */
  roundQueueUrl: 'ROUND_QUEUE_URL',
  /** The probe tick: the shard functions' memory size (MB), which sets how many requests a shard carries. */
  probeMemoryMb: 'PROBE_MEMORY_MB',
  /** The shard of its region a probe function is (0, 1, …; default 0). */
  probeShard: 'PROBE_SHARD',
  /** Evaluator tick: seconds between two reconciles of the zones with what was published. */
  reconcileIntervalSeconds: 'RECONCILE_INTERVAL_SECONDS',
  /** Evaluator tick: `false` leaves out the per-endpoint health gauges (`EndpointDegraded`). */
  endpointMetrics: 'ENDPOINT_METRICS',
  /** The status event bus (evaluator); unset: events are logged instead. */
  eventBusName: 'EVENT_BUS_NAME',
  /** Powertools: the `service` of logs and metrics. */
  powertoolsServiceName: 'POWERTOOLS_SERVICE_NAME',
  /** Powertools: the metric namespace. */
  powertoolsMetricsNamespace: 'POWERTOOLS_METRICS_NAMESPACE',
  /** Powertools: the log level (the stacks' `logLevel` prop). */
  powertoolsLogLevel: 'POWERTOOLS_LOG_LEVEL',
} as const;
export type EnvironmentVariable = (typeof EnvironmentVariable)[keyof typeof EnvironmentVariable];
