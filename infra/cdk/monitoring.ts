/** Home-region dashboard and alarms. */
import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TreatMissingData,
  type IAlarmAction,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import type { Evaluator } from './evaluator.js';
import { METRICS_NAMESPACE, MetricName } from '../../shared/contracts/metrics.js';
import { probeFunctionName, roundDeadLetterQueueName } from './probe-names.js';

export interface MonitoringProps {
  readonly deploymentName: string;
  readonly evaluator: Evaluator;
  readonly probeRegions: readonly string[];
  /** The shards (one probe function each) every probe region may split into. @default 1 */
  readonly maxProbeShards?: number;
  /** The shards of each probe region, by region, where they differ. @default - `maxProbeShards` for every region */
  readonly probeShards?: Readonly<Record<string, number>>;
  /** @default - alarms without actions */
  readonly alarmAction?: IAlarmAction;
  /** Some profile has `staticFailover`: alarm when its static path is frozen. @default false */
  readonly staticFailover?: boolean;
}

/**
 * Metrics Insights queries over the whole namespace: they do not depend on which
 * dimensions (e.g. Powertools' default `service`) the emitter adds next to `Profile`.
 */
function insights(metric: string, label: string, statistic: 'MAX' | 'MIN' | 'SUM' = 'MAX'): IMetric {
  return new MathExpression({
    expression: `SELECT ${statistic}(${metric}) FROM ${METRICS_NAMESPACE}`,
    label,
    period: Duration.minutes(1),
  });
}

/** The home-region metrics the alarms and the dashboard read. */
function homeMetrics(evaluator: Evaluator) {
  return {
    failures: evaluator.failureQueue.metricApproximateNumberOfMessagesVisible({
      period: Duration.minutes(1),
    }),
    staleRegions: insights(MetricName.staleRegions, 'stale probe regions'),
    frozen: insights(MetricName.staticFailoverFrozen, 'profiles whose static failover is frozen'),
    degraded: insights(MetricName.profileDegraded, 'profiles Degraded (max)'),
    rejected: insights(MetricName.changesRejected, 'changes Route 53 refused', 'SUM'),
    undelivered: insights(MetricName.outboxPending, 'events waiting in the outbox (max)'),
    drift: insights(MetricName.driftRepaired, 'record sets repaired by the reconcile', 'SUM'),
    expiring: insights(MetricName.certificatesExpiring, 'endpoints whose certificate expires soon'),
    daysLeft: insights(MetricName.certificateDaysLeft, 'certificate days left (soonest)', 'MIN'),
  };
}
type HomeMetrics = ReturnType<typeof homeMetrics>;

/** A probe region's widgets: its rounds (every shard's function) and its dead-lettered rounds. */
function probeRegionWidgets(props: MonitoringProps, region: string): GraphWidget[] {
  const count = props.probeShards?.[region] ?? props.maxProbeShards ?? 1;
  const shards = Array.from({ length: count }, (_, shard) => shard);
  // Every shard's function, summed (Invocations, Errors) or the slowest (Duration): one line
  // per region however many shards it splits into.
  const probe = (metricName: string, statistic: string, over: 'SUM' | 'MAX') => {
    // Metric ids are per graph: one name per metric and shard (e.g. errors2).
    const id = (shard: number) => `${metricName.toLowerCase()}${shard}`;
    return new MathExpression({
      expression: `${over}([${shards.map(id).join(', ')}])`,
      usingMetrics: Object.fromEntries(
        shards.map((shard) => [
          id(shard),
          new Metric({
            namespace: 'AWS/Lambda',
            metricName,
            dimensionsMap: { FunctionName: probeFunctionName(props.deploymentName, shard) },
            region,
            statistic,
          }),
        ]),
      ),
      period: Duration.minutes(1),
      label: `${region} ${metricName}${shards.length === 1 ? '' : ` (${over} of ${shards.length} shards)`}`,
    });
  };
  const deadLetters = new Metric({
    namespace: 'AWS/SQS',
    metricName: 'ApproximateNumberOfMessagesVisible',
    dimensionsMap: { QueueName: roundDeadLetterQueueName(props.deploymentName) },
    region,
    statistic: 'Maximum',
    period: Duration.minutes(1),
    label: `${region} dead-lettered rounds`,
  });
  return [
    new GraphWidget({
      title: `probe ${region}: rounds`,
      left: [probe('Invocations', 'Sum', 'SUM'), probe('Errors', 'Sum', 'SUM'), deadLetters],
      right: [probe('Duration', 'Maximum', 'MAX')],
      width: 12,
    }),
  ];
}

export class Monitoring extends Construct {
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const metrics = homeMetrics(props.evaluator);
    this.addAlarms(props, metrics);
    if (props.alarmAction) for (const alarm of this.alarms) alarm.addAlarmAction(props.alarmAction);
    this.addDashboard(props, metrics);
  }

  private addAlarms({ evaluator, staticFailover }: MonitoringProps, metrics: HomeMetrics): void {
    const { failures, staleRegions, degraded, rejected, undelivered, drift, expiring } = metrics;
    this.alarm('EvaluatorDeadLetters', {
      description: 'Stream batches the evaluator failed after every retry are in its on-failure queue.',
      metric: failures,
      // SQS stops sending the metric for an idle, empty queue: no data is an empty queue.
      missingData: TreatMissingData.NOT_BREACHING,
    });
    this.alarm('StaleProbeRegions', {
      description:
        'At least one probe region’s heartbeat is stale: its verdicts are frozen (fail static) — or the evaluator tick has stopped emitting (then nothing applies staleness or reports health).',
      metric: staleRegions,
      evaluationPeriods: 2,
      // The tick emits StaleRegions every minute, 0 when all is well: no data means the tick is not running.
      missingData: TreatMissingData.BREACHING,
    });
    this.alarm('EvaluatorErrors', {
      description: 'The evaluator stream handler failed (batch item failures are retried; errors are not).',
      metric: evaluator.function.metricErrors({ period: Duration.minutes(5) }),
      // Lambda sends Errors only for invocations: no data is no invocation, hence no error.
      missingData: TreatMissingData.NOT_BREACHING,
    });
    this.alarm('EvaluatorTickErrors', {
      description:
        'The evaluator tick failed: staleness is not being applied and the health gauges are not emitted.',
      metric: evaluator.tick.metricErrors({ period: Duration.minutes(5) }),
      // As above; a tick that is not invoked at all shows in StaleProbeRegions (missing = breaching).
      missingData: TreatMissingData.NOT_BREACHING,
    });
    this.alarm('ProfileDegraded', {
      description: 'A profile monitor status is Degraded (see the dashboard or `tm status` for which).',
      metric: degraded,
      // The tick emits the gauge for every profile every minute; a gap says nothing about health,
      // so the alarm keeps its state (the gap itself raises StaleProbeRegions).
      missingData: TreatMissingData.IGNORE,
    });
    this.alarm('DriftRepaired', {
      description:
        'Someone else changed or deleted a record at a name traffic-manager owns; the reconcile put it back (the DriftRepaired event says what was found and written).',
      metric: drift,
      // Emitted at every reconcile, 0 when the zones match; a minute without a reconcile is not drift
      // (reconciles come once per interval, and a stopped tick raises StaleProbeRegions).
      missingData: TreatMissingData.NOT_BREACHING,
    });
    this.alarm('ChangesRejected', {
      description:
        'Route 53 refused a profile’s change (InvalidChangeBatch); the rest of its zone was published. `tm status` shows the reason.',
      metric: rejected,
      // Emitted only when Route 53 refuses something: no data is nothing refused.
      missingData: TreatMissingData.NOT_BREACHING,
    });
    this.alarm('EventsUndelivered', {
      description:
        'Status events have waited in the outbox for 20 minutes: EventBridge refuses them (or Route 53 never reported INSYNC for 15 minutes and then EventBridge refused them). Nothing is lost; they are retried every minute.',
      metric: undelivered,
      // Entries normally wait for INSYNC for a minute or two; anything waiting longer than the
      // 15-minute INSYNC limit is waiting for EventBridge.
      evaluationPeriods: 20,
      // A drain emits it (every evaluation, and every minute while entries wait): no data is an empty outbox.
      missingData: TreatMissingData.NOT_BREACHING,
    });
    this.alarm('CertificateExpiring', {
      description:
        'An HTTPS endpoint presents a certificate with fewer days left than its profile’s certificateWarningDays (the CertificateExpiring event and `tm status` say which). A warning: checks do not validate certificates and still succeed.',
      metric: expiring,
      // The tick emits the count every minute, 0 when none: a gap says nothing about certificates
      // (a stopped tick raises StaleProbeRegions), so the alarm keeps its state.
      missingData: TreatMissingData.IGNORE,
    });
    if (staticFailover === true)
      this.alarm('StaticFailoverFrozen', {
        description:
          'Stale probe regions hold a profile’s static failover path: a silent region’s Route 53 health check keeps its last vote, so that path can no longer fail over or back (fail static). Today’s path still does while the evaluator publishes. The evaluator tick’s log names the profiles.',
        metric: metrics.frozen,
        evaluationPeriods: 2,
        // The tick emits it every minute (0 when none): a gap says nothing about the static path
        // (a stopped tick raises StaleProbeRegions), so the alarm keeps its state.
        missingData: TreatMissingData.IGNORE,
      });
  }

  private addDashboard(props: MonitoringProps, metrics: HomeMetrics): void {
    const { evaluator } = props;
    const { failures, staleRegions, degraded, rejected, drift, expiring, daysLeft } = metrics;
    new Dashboard(this, 'Dashboard', {
      dashboardName: props.deploymentName,
      widgets: [
        [
          new GraphWidget({ title: 'profiles Degraded', left: [degraded], width: 8 }),
          new GraphWidget({ title: 'stale probe regions', left: [staleRegions], width: 8 }),
          new GraphWidget({ title: 'evaluator failures', left: [failures], width: 8 }),
        ],
        [
          new GraphWidget({ title: 'drift repaired', left: [drift], width: 8 }),
          new GraphWidget({ title: 'changes Route 53 refused', left: [rejected], width: 8 }),
          new GraphWidget({ title: 'certificates', left: [daysLeft], right: [expiring], width: 8 }),
        ],
        [
          new GraphWidget({
            title: 'evaluator',
            left: [evaluator.function.metricInvocations(), evaluator.function.metricErrors()],
            right: [evaluator.function.metricDuration({ statistic: 'p99' })],
            width: 12,
          }),
          new GraphWidget({
            title: 'evaluator stream age',
            left: [evaluator.function.metric('IteratorAge', { statistic: 'Maximum' })],
            width: 12,
          }),
        ],
        props.probeRegions.flatMap((region) => probeRegionWidgets(props, region)),
      ],
    });
  }

  /** Every alarm says what a period without data means (`missingData`), on purpose. */
  private alarm(
    id: string,
    props: {
      description: string;
      metric: IMetric;
      missingData: TreatMissingData;
      evaluationPeriods?: number;
    },
  ): void {
    this.alarms.push(
      new Alarm(this, id, {
        metric: props.metric,
        alarmDescription: props.description,
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: props.evaluationPeriods ?? 1,
        treatMissingData: props.missingData,
      }),
    );
  }
}
