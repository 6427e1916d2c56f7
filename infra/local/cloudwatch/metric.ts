/**
 * A metric's identity, as CloudWatch defines it: namespace, name and the set of dimensions
 * (a metric with a different set of dimensions is a different metric, whatever the order they
 * are given in).
 */
import { invalidParameter, invalidValue } from './errors.js';
import { listMember, objectOf, stringMember, type JsonObject } from './json-fields.js';
import { compareAscii } from '../route53/names.js';

export interface Dimension {
  readonly Name: string;
  readonly Value: string;
}

export interface MetricId {
  readonly namespace: string;
  readonly metricName: string;
  /** Sorted by name. */
  readonly dimensions: readonly Dimension[];
}

/** PutMetricData and PutMetricAlarm: at most 30 dimensions per metric. */
const MAX_DIMENSIONS = 30;
const NAMESPACE_MAX = 255;
const NAME_MAX = 255;
const DIMENSION_VALUE_MAX = 1024;

/** One key per metric, for the stores. */
export function metricKey(id: MetricId): string {
  return JSON.stringify([id.namespace, id.metricName, id.dimensions.map((d) => [d.Name, d.Value])]);
}

/**
 * A namespace: 1–255 printable ASCII characters, not starting with `:`. `publishing`: a caller
 * may not publish to `AWS/…` (alarms may watch those namespaces).
 */
export function namespaceOf(input: JsonObject, path: string, publishing: boolean): string | undefined {
  const namespace = stringMember(input, 'Namespace', path, { required: true, max: NAMESPACE_MAX });
  if (namespace === undefined) return undefined;
  if (publishing && namespace.startsWith('AWS/'))
    throw invalidValue(path, namespace, 'Namespaces that begin with "AWS/" are reserved for AWS services.');
  if (namespace.startsWith(':') || !/^[\x20-\x7e]+$/.test(namespace))
    throw invalidValue(path, namespace, 'A namespace is printable ASCII and does not begin with ":".');
  return namespace;
}

export function metricNameOf(input: JsonObject, path: string, required: boolean): string | undefined {
  return stringMember(input, 'MetricName', path, { required, max: NAME_MAX });
}

/** `Dimensions` of a datum or an alarm: at most 30, each with a Name and a Value, names unique. */
export function dimensionsOf(input: JsonObject, path: string): Dimension[] {
  const list = listMember(input, 'Dimensions', path) ?? [];
  if (list.length > MAX_DIMENSIONS)
    throw invalidValue(
      path,
      `${list.length} dimensions`,
      `The collection ${path} must not have a size greater than ${MAX_DIMENSIONS}.`,
    );
  const dimensions = list.map((item, index) => {
    const at = `${path}.member.${index + 1}`;
    const dimension = objectOf(item, at);
    return {
      Name: stringMember(dimension, 'Name', `${at}.Name`, { required: true, max: NAME_MAX }) as string,
      Value: stringMember(dimension, 'Value', `${at}.Value`, {
        required: true,
        max: DIMENSION_VALUE_MAX,
      }) as string,
    };
  });
  const names = new Set(dimensions.map((d) => d.Name));
  if (names.size !== dimensions.length)
    throw invalidParameter(`The dimension names of ${path} must be unique.`);
  return dimensions.sort((a, b) => compareAscii(a.Name, b.Name));
}
