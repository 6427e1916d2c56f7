/**
 * GetMetricStatistics, checked as CloudWatch checks it
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_GetMetricStatistics.html):
 * a namespace (`AWS/…` allowed: services publish there) and metric name, at most 30
 * dimensions, StartTime before EndTime, a Period of 1, 5, 10, 30 or a multiple of 60 seconds,
 * one to five of the simple statistics, and at most 1,440 datapoints in the answer. Periods are
 * multiplied by the time scale, as every duration of the local stack; timestamps are epoch
 * seconds, as AWS JSON 1.0 carries them. Percentiles (`ExtendedStatistics`) are refused as not
 * supported here. `tm status` reads Route 53's `HealthCheckStatus` this way.
 */
import { STATISTICS, type Statistic } from './alarm-input.js';
import { invalidCombination, invalidValue, missingParameter, unsupported } from './errors.js';
import { integerMember, listMember, numberMember, type JsonObject } from './json-fields.js';
import { dimensionsOf, metricNameOf, namespaceOf } from './metric.js';
import type { RegionStore } from './store.js';

const MAX_DATAPOINTS = 1440;
const SHORT_PERIODS = new Set([1, 5, 10, 30]);

export function metricStatistics(store: RegionStore, input: JsonObject, timeScale: number) {
  if ((listMember(input, 'ExtendedStatistics', 'ExtendedStatistics') ?? []).length > 0)
    throw unsupported('percentile statistics (ExtendedStatistics)');
  const metric = {
    namespace: namespaceOf(input, 'Namespace', false) as string,
    metricName: metricNameOf(input, 'MetricName', true) as string,
    dimensions: dimensionsOf(input, 'Dimensions'),
  };
  const start = timeOf(input, 'StartTime');
  const end = timeOf(input, 'EndTime');
  if (start >= end)
    throw invalidValue(
      'StartTime',
      start / 1000,
      'The parameter StartTime must be less than the parameter EndTime.',
    );
  const period = integerMember(input, 'Period', 'Period', { required: true, min: 1 }) as number;
  if (!SHORT_PERIODS.has(period) && period % 60 !== 0)
    throw invalidValue('Period', period, 'The parameter Period must be 1, 5, 10, 30 or a multiple of 60.');
  const statistics = (listMember(input, 'Statistics', 'Statistics') ?? []).map(String);
  if (statistics.length === 0) throw missingParameter('Statistics');
  if (
    statistics.length > STATISTICS.length ||
    statistics.some((s) => !(STATISTICS as readonly string[]).includes(s))
  )
    throw invalidValue('Statistics', statistics, `Each statistic is one of ${STATISTICS.join(', ')}.`);
  const periodMs = period * 1000 * timeScale;
  const count = Math.ceil((end - start) / periodMs);
  if (count > MAX_DATAPOINTS)
    throw invalidCombination(
      `You have requested up to ${count} datapoints, which exceeds the limit of ${MAX_DATAPOINTS}. You may reduce the datapoints requested by increasing Period, or decreasing the time range.`,
    );
  const datapoints = store.statistics(metric, start, end, periodMs, statistics as Statistic[]);
  return {
    Label: metric.metricName,
    Datapoints: datapoints.map(({ at, values }) => ({ Timestamp: at / 1000, ...values, Unit: 'None' })),
  };
}

function timeOf(input: JsonObject, member: 'StartTime' | 'EndTime'): number {
  const seconds = numberMember(input, member, member);
  if (seconds === undefined) throw missingParameter(member);
  return seconds * 1000;
}
