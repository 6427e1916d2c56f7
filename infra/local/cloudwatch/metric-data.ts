/**
 * PutMetricData's input, checked as CloudWatch checks it, turned into datapoints
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_PutMetricData.html):
 * at most 1,000 metrics a request; a namespace not beginning with `AWS/`; per datum a metric
 * name, at most 30 dimensions, exactly one of `Value`, `StatisticValues` or `Values` (with
 * `Counts` of the same length, at most 150 values), values within ±2^360 and not NaN or
 * infinite, `StorageResolution` 1 or 60, and a timestamp from two weeks before now to two hours
 * after it (both durations multiplied by the time scale, as every duration of the local stack).
 */
import {
  invalidCombination,
  invalidParameter,
  invalidValue,
  missingParameter,
  unsupported,
} from './errors.js';
import {
  enumMember,
  integerMember,
  listMember,
  numberMember,
  objectOf,
  type JsonObject,
} from './json-fields.js';
import { dimensionsOf, metricNameOf, namespaceOf, type MetricId } from './metric.js';

const MAX_METRIC_DATA = 1000;
const MAX_VALUES = 150;
const VALUE_LIMIT = 2 ** 360;
const TWO_WEEKS_MS = 14 * 24 * 3600_000;
const TWO_HOURS_MS = 2 * 3600_000;

// prettier-ignore
export const UNITS = [
  'Seconds', 'Microseconds', 'Milliseconds', 'Bytes', 'Kilobytes', 'Megabytes', 'Gigabytes', 'Terabytes', 'Bits',
  'Kilobits', 'Megabits', 'Gigabits', 'Terabits', 'Percent', 'Count', 'Bytes/Second', 'Kilobytes/Second',
  'Megabytes/Second', 'Gigabytes/Second', 'Terabytes/Second', 'Bits/Second', 'Kilobits/Second', 'Megabits/Second',
  'Gigabits/Second', 'Terabits/Second', 'Count/Second', 'None',
] as const;
export type Unit = (typeof UNITS)[number];

/** What one datum adds to a period: CloudWatch's statistic set. */
export interface StatisticSet {
  readonly sampleCount: number;
  readonly sum: number;
  readonly minimum: number;
  readonly maximum: number;
}

export interface Datapoint {
  readonly metric: MetricId;
  /** Epoch ms; standard-resolution data is stored at the start of its (scaled) minute. */
  readonly at: number;
  readonly values: StatisticSet;
  readonly unit: Unit | undefined;
}

export interface TimeContext {
  /** Epoch ms. */
  readonly now: number;
  readonly timeScale: number;
}

export function metricDataOf(input: JsonObject, time: TimeContext): Datapoint[] {
  if (input.EntityMetricData !== undefined) throw unsupported('EntityMetricData');
  const namespace = namespaceOf(input, 'Namespace', true) as string;
  const data = listMember(input, 'MetricData', 'MetricData', true) as unknown[];
  if (data.length === 0) throw missingParameter('MetricData');
  if (data.length > MAX_METRIC_DATA)
    throw invalidParameter(`The collection MetricData must not have a size greater than ${MAX_METRIC_DATA}.`);
  return data.map((item, index) => datapointOf(namespace, item, `MetricData.member.${index + 1}`, time));
}

function datapointOf(namespace: string, item: unknown, path: string, time: TimeContext): Datapoint {
  const datum = objectOf(item, path);
  const metricName = metricNameOf(datum, `${path}.MetricName`, true) as string;
  const dimensions = dimensionsOf(datum, `${path}.Dimensions`);
  const unit = enumMember(datum, 'Unit', `${path}.Unit`, UNITS);
  const resolution = integerMember(datum, 'StorageResolution', `${path}.StorageResolution`, { min: 0 }) ?? 60;
  if (resolution !== 1 && resolution !== 60)
    throw invalidValue(`${path}.StorageResolution`, resolution, 'Valid values are 1 and 60.');
  const minuteMs = 60_000 * time.timeScale;
  const at = timestampOf(datum, path, time);
  return {
    metric: { namespace, metricName, dimensions },
    at: resolution === 60 ? Math.floor(at / minuteMs) * minuteMs : at,
    values: valuesOf(datum, path),
    unit,
  };
}

function timestampOf(datum: JsonObject, path: string, { now, timeScale }: TimeContext): number {
  const seconds = numberMember(datum, 'Timestamp', `${path}.Timestamp`);
  if (seconds === undefined) return now;
  const at = seconds * 1000;
  if (!Number.isFinite(at)) throw invalidValue(`${path}.Timestamp`, seconds);
  if (at > now + TWO_HOURS_MS * timeScale)
    throw invalidParameter(
      `The parameter ${path}.Timestamp must specify a time no more than two hours in the future.`,
    );
  if (at < now - TWO_WEEKS_MS * timeScale)
    throw invalidParameter(
      `The parameter ${path}.Timestamp must specify a time no more than two weeks in the past.`,
    );
  return at;
}

/** Exactly one of Value, StatisticValues, Values (+ Counts). */
function valuesOf(datum: JsonObject, path: string): StatisticSet {
  const given = (['Value', 'StatisticValues', 'Values'] as const).filter(
    (m) => datum[m] !== undefined && datum[m] !== null,
  );
  if (given.length > 1)
    throw invalidCombination(
      `The parameters ${path}.${given[0]} and ${path}.${given[1]} are mutually exclusive and you have specified both.`,
    );
  if (given[0] === 'StatisticValues') return statisticValuesOf(datum, path);
  if (given[0] === 'Values') return valueListOf(datum, path);
  if (datum.Counts !== undefined && datum.Counts !== null)
    throw invalidCombination(`The parameter ${path}.Counts needs ${path}.Values.`);
  const value = checkedValue(numberMember(datum, 'Value', `${path}.Value`, true) as number, `${path}.Value`);
  return { sampleCount: 1, sum: value, minimum: value, maximum: value };
}

function checkedValue(value: number, path: string): number {
  if (!Number.isFinite(value) || Math.abs(value) > VALUE_LIMIT)
    throw invalidValue(
      path,
      value,
      'Values must be in the range of -2^360 to 2^360; NaN and infinities are not supported.',
    );
  return value;
}

function statisticValuesOf(datum: JsonObject, path: string): StatisticSet {
  const at = `${path}.StatisticValues`;
  const set = objectOf(datum.StatisticValues, at);
  const member = (name: string) =>
    checkedValue(numberMember(set, name, `${at}.${name}`, true) as number, `${at}.${name}`);
  const values = {
    sampleCount: member('SampleCount'),
    sum: member('Sum'),
    minimum: member('Minimum'),
    maximum: member('Maximum'),
  };
  if (values.sampleCount <= 0)
    throw invalidValue(`${at}.SampleCount`, values.sampleCount, 'It must be greater than 0.');
  if (values.minimum > values.maximum)
    throw invalidParameter(`The parameter ${at}.Minimum must not be greater than ${at}.Maximum.`);
  return values;
}

function valueListOf(datum: JsonObject, path: string): StatisticSet {
  const values = (listMember(datum, 'Values', `${path}.Values`) as unknown[]).map((value, i) =>
    checkedValue(
      numberMember({ v: value }, 'v', `${path}.Values.member.${i + 1}`, true) as number,
      `${path}.Values.member.${i + 1}`,
    ),
  );
  if (values.length === 0) throw missingParameter(`${path}.Values`);
  if (values.length > MAX_VALUES)
    throw invalidParameter(`The collection ${path}.Values must not have a size greater than ${MAX_VALUES}.`);
  const counts = (listMember(datum, 'Counts', `${path}.Counts`) ?? values.map(() => 1)).map((count, i) => {
    const n = numberMember({ c: count }, 'c', `${path}.Counts.member.${i + 1}`, true) as number;
    if (!Number.isFinite(n) || n < 0)
      throw invalidValue(`${path}.Counts.member.${i + 1}`, n, 'Counts must not be negative.');
    return n;
  });
  if (counts.length !== values.length)
    throw invalidParameter(`The parameters ${path}.Values and ${path}.Counts must be of the same size.`);
  const sampleCount = counts.reduce((a, b) => a + b, 0);
  if (sampleCount <= 0)
    throw invalidValue(`${path}.Counts`, counts, 'At least one count must be greater than 0.');
  const counted = values.filter((_, i) => (counts[i] as number) > 0);
  return {
    sampleCount,
    sum: values.reduce((sum, value, i) => sum + value * (counts[i] as number), 0),
    minimum: Math.min(...counted),
    maximum: Math.max(...counted),
  };
}
