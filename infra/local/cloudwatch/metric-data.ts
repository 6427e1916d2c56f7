/**
 * PutMetricData's input, checked as CloudWatch checks it, turned into datapoints
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_PutMetricData.html):
 * at most 1,000 metrics a request; a namespace not beginning with `AWS/`; per datum a metric
 * name, at most 30 dimensions, a `Value` within ±2^360 and not NaN or infinite (`StatisticValues`
 * and `Values` are not supported here), `StorageResolution` 1 or 60, and a timestamp from two
 * weeks before now to two hours after it (both durations multiplied by the time scale, as every
 * duration of the local stack).
 */
import { invalidParameter, invalidValue, missingParameter, unsupported } from './errors.js';
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

export interface Datapoint {
  readonly metric: MetricId;
  /** Epoch ms; standard-resolution data is stored at the start of its (scaled) minute. */
  readonly at: number;
  readonly value: number;
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
    value: valueOf(datum, path),
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

/**
 * The datum's Value. StatisticValues and Values (with Counts) are refused as not supported here:
 * nothing of ours sends them (the probe regions and the guard send one Value a datum).
 */
function valueOf(datum: JsonObject, path: string): number {
  for (const member of ['StatisticValues', 'Values', 'Counts'])
    if (datum[member] !== undefined && datum[member] !== null)
      throw unsupported(`${member} in PutMetricData`);
  const value = numberMember(datum, 'Value', `${path}.Value`, true) as number;
  if (!Number.isFinite(value) || Math.abs(value) > VALUE_LIMIT)
    throw invalidValue(
      `${path}.Value`,
      value,
      'Values must be in the range of -2^360 to 2^360; NaN and infinities are not supported.',
    );
  return value;
}
