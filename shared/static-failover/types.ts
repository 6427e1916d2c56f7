/**
 * The static-failover structure (docs/adr/0011-static-failover.md): what the data plane needs
 * to fail over without the home region or Route 53's control plane — vote metrics and their
 * alarms in each probe region, Route 53 health checks over the alarms, and the records that
 * reference them. Health checks are named by logical ids derived from content (identity.ts);
 * the publisher maps them to Route 53's HealthCheckIds, as it maps CIDR collection names to ids.
 */
import type { RecordSet } from '../zone/record-set.js';
import type { AlarmOverride } from './override.js';

export const STATIC_FAILOVER_NAMESPACE = 'TrafficManager/StaticFailover';
/** A probe region's verdict about a target: 1 up, 0 down. */
export const VOTE_METRIC = 'Vote';
/** The evaluator's heartbeat: 1 while its last Route 53 call succeeded and nothing waits. */
export const EVALUATOR_METRIC = 'EvaluatorPublishing';

export interface Dimension {
  readonly name: string;
  readonly value: string;
}

/** A custom metric in one region. */
export interface MetricSpec {
  readonly region: string;
  readonly namespace: string;
  readonly metricName: string;
  readonly dimensions: readonly Dimension[];
}

export type ComparisonOperator =
  | 'LessThanThreshold'
  | 'GreaterThanOrEqualToThreshold'
  | 'LessThanOrEqualToThreshold'
  | 'GreaterThanThreshold';

export type TreatMissingData = 'missing' | 'breaching' | 'notBreaching' | 'ignore';

/** A standard-resolution CloudWatch metric alarm (`PutMetricAlarm`) in one region. */
export interface AlarmSpec extends MetricSpec {
  readonly name: string;
  readonly statistic: 'Minimum';
  readonly periodSeconds: number;
  readonly evaluationPeriods: number;
  readonly datapointsToAlarm: number;
  readonly threshold: number;
  readonly comparisonOperator: ComparisonOperator;
  readonly treatMissingData: TreatMissingData;
  /** An operator's outage-time override fixed its state (override.ts); never in a plan. */
  readonly override?: AlarmOverride;
}

/** What a health check stands for, for `tm plan` and the Name tag. */
export const CheckRole = {
  /** One probe region's vote about a target. */
  Region: 'region',
  /** The cross-region rule over a target's region checks. */
  Target: 'target',
  /** An override Degraded: always unhealthy. */
  ForcedDown: 'forced-down',
  /** An override Online: always healthy. */
  ForcedUp: 'forced-up',
  /** One probe region's view of the evaluator's heartbeat. */
  GuardRegion: 'guard-region',
  /** "The evaluator is publishing": a majority of the guard's region checks. */
  Guard: 'guard',
} as const;
export type CheckRole = (typeof CheckRole)[keyof typeof CheckRole];

interface CheckBase {
  /** Logical id: stable, derived from content (identity.ts). */
  readonly id: string;
  readonly role: CheckRole;
  /** e.g. `vote of t-… in eu-west-1`. */
  readonly description: string;
}

export type HealthCheckSpec =
  | (CheckBase & {
      readonly type: 'CLOUDWATCH_METRIC';
      readonly alarm: { readonly region: string; readonly name: string };
      readonly insufficientDataHealthStatus: 'LastKnownStatus';
    })
  | (CheckBase & {
      readonly type: 'CALCULATED';
      /** Logical ids of the children. */
      readonly children: readonly string[];
      readonly healthThreshold: number;
    });

/** A record set of the structure; `healthCheckRef` is a logical id, resolved to a HealthCheckId on publishing. */
export interface StaticRecord extends RecordSet {
  readonly healthCheckRef?: string;
}

/** What one probe region publishes for one target: the wiring's contract with the probes. */
export interface VoteTarget {
  /** `t-…`: the `Target` dimension. */
  readonly id: string;
  /** The verdict key whose region verdict is the vote (shared/probe/target.ts). */
  readonly verdictKey: string;
  /** Sorted, distinct. */
  readonly regions: readonly string[];
}

export interface StaticStructure {
  readonly targets: readonly VoteTarget[];
  readonly metrics: readonly MetricSpec[];
  readonly alarms: readonly AlarmSpec[];
  /** Children before the calculated checks that use them. */
  readonly healthChecks: readonly HealthCheckSpec[];
  readonly records: readonly StaticRecord[];
}
