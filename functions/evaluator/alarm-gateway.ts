/**
 * CloudWatch in the probe regions for static failover (docs/adr/0011-static-failover.md): the
 * vote and guard alarms (read by name prefix, put, deleted) and the guard metric. One client per
 * region from the factory (`cloudWatchClient`, the SDK's standard retries); a call that still
 * fails throws, and the caller reports it.
 */
import {
  DeleteAlarmsCommand,
  DescribeAlarmsCommand,
  paginateDescribeAlarms,
  PutMetricAlarmCommand,
  PutMetricDataCommand,
  type CloudWatchClient,
  type MetricAlarm,
} from '@aws-sdk/client-cloudwatch';
import { chunked } from '../../shared/batches.js';
import { guardAlarmNameOf } from '../../shared/static-failover/identity.js';
import { alarmOverrideOf, describeAlarmOverride } from '../../shared/static-failover/override.js';
import type {
  AlarmSpec,
  ComparisonOperator,
  MetricSpec,
  TreatMissingData,
} from '../../shared/static-failover/types.js';
import { required } from '../shared/required.js';

/** DescribeAlarms: at most 100 a page; DeleteAlarms: at most 100 names a call. */
const PAGE = 100;

export class CloudWatchAlarmGateway {
  private readonly clients = new Map<string, CloudWatchClient>();

  constructor(private readonly clientFor: (region: string) => CloudWatchClient) {}

  /** The deployment's alarms in a region: names with its prefix that are exactly ours. */
  async describe(region: string, deployment: string): Promise<AlarmSpec[]> {
    const ours = ownAlarmName(deployment);
    const alarms: MetricAlarm[] = [];
    const pages = paginateDescribeAlarms(
      { client: this.client(region), pageSize: PAGE },
      { AlarmNamePrefix: `${deployment}-`, AlarmTypes: ['MetricAlarm'] },
    );
    for await (const page of pages) alarms.push(...(page.MetricAlarms ?? []));
    return alarms.filter((a) => ours(a.AlarmName ?? '')).map((a) => specOf(region, a));
  }

  /** One alarm by name in a region; undefined when there is none. */
  async describeOne(region: string, name: string): Promise<AlarmSpec | undefined> {
    const { MetricAlarms = [] } = await this.client(region).send(
      new DescribeAlarmsCommand({ AlarmNames: [name], AlarmTypes: ['MetricAlarm'] }),
    );
    const alarm = MetricAlarms.find((a) => a.AlarmName === name);
    return alarm === undefined ? undefined : specOf(region, alarm);
  }

  async put(alarm: AlarmSpec): Promise<void> {
    await this.client(alarm.region).send(
      new PutMetricAlarmCommand({
        AlarmName: alarm.name,
        AlarmDescription:
          alarm.override === undefined
            ? 'traffic-manager static failover (docs/adr/0011-static-failover.md)'
            : describeAlarmOverride(alarm.override),
        Namespace: alarm.namespace,
        MetricName: alarm.metricName,
        Dimensions: alarm.dimensions.map((d) => ({ Name: d.name, Value: d.value })),
        Statistic: alarm.statistic,
        Period: alarm.periodSeconds,
        EvaluationPeriods: alarm.evaluationPeriods,
        DatapointsToAlarm: alarm.datapointsToAlarm,
        Threshold: alarm.threshold,
        ComparisonOperator: alarm.comparisonOperator,
        TreatMissingData: alarm.treatMissingData,
      }),
    );
  }

  async delete(region: string, names: readonly string[]): Promise<void> {
    for (const batch of chunked(names, PAGE))
      await this.client(region).send(new DeleteAlarmsCommand({ AlarmNames: batch }));
  }

  /** Standard-resolution data of `metric` (in its region): `value`, once stamped at each of `at`. */
  async putMetric(metric: MetricSpec, value: number, at: readonly number[]): Promise<void> {
    await this.client(metric.region).send(
      new PutMetricDataCommand({
        Namespace: metric.namespace,
        MetricData: at.map((stamp) => ({
          MetricName: metric.metricName,
          Dimensions: metric.dimensions.map((d) => ({ Name: d.name, Value: d.value })),
          Value: value,
          Timestamp: new Date(stamp),
          StorageResolution: 60,
        })),
      }),
    );
  }

  destroy(): void {
    for (const client of this.clients.values()) client.destroy();
    this.clients.clear();
  }

  private client(region: string): CloudWatchClient {
    const client = this.clients.get(region) ?? this.clientFor(region);
    this.clients.set(region, client);
    return client;
  }
}

/** Our alarm names: the guard's and `<deployment>-vote-t-<16 hex>` (identity.ts), nothing else under the prefix. */
function ownAlarmName(deployment: string): (name: string) => boolean {
  const guard = guardAlarmNameOf(deployment);
  const vote = `${deployment}-vote-`;
  return (name) =>
    name === guard || (name.startsWith(vote) && /^t-[0-9a-f]{16}$/.test(name.slice(vote.length)));
}

function specOf(region: string, alarm: MetricAlarm): AlarmSpec {
  const evaluationPeriods = required(alarm.EvaluationPeriods, 'MetricAlarm.EvaluationPeriods');
  const override = alarmOverrideOf(alarm.AlarmDescription);
  return {
    region,
    name: required(alarm.AlarmName, 'MetricAlarm.AlarmName'),
    namespace: alarm.Namespace ?? '',
    metricName: alarm.MetricName ?? '',
    dimensions: (alarm.Dimensions ?? []).map((d) => ({ name: d.Name ?? '', value: d.Value ?? '' })),
    // Anything else than Minimum differs from every plan, so the diff puts the planned alarm back.
    statistic: alarm.Statistic as 'Minimum',
    periodSeconds: alarm.Period ?? 0,
    evaluationPeriods,
    datapointsToAlarm: alarm.DatapointsToAlarm ?? evaluationPeriods,
    threshold: alarm.Threshold ?? 0,
    comparisonOperator: alarm.ComparisonOperator as ComparisonOperator,
    treatMissingData: (alarm.TreatMissingData ?? 'missing') as TreatMissingData,
    ...(override === undefined ? {} : { override }),
  };
}
