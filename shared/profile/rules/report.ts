/** What every rule group shares: how a problem is reported, and how places and values are read. */
import { isRecord, type IssuePath } from '../issues.js';
import { isResourceName } from '../names.js';
import type { ProbeProtocol, RoutingMethod } from '../types.js';

export type Report = (path: IssuePath, rule: string, received: unknown, message: string) => void;

/** A profile's endpoint list, as the endpoint rule groups see it. */
export interface EndpointScope {
  readonly endpoints: readonly unknown[];
  /** Undefined when the method is invalid (the schema reports it). */
  readonly method: RoutingMethod | undefined;
  readonly protocol: ProbeProtocol | undefined;
  readonly report: Report;
  /** `endpoints[i] "name"`, for messages that point at another endpoint. */
  ref(index: number): string;
  /** The path of a field of endpoint `index`. */
  at(index: number, field: string | number, ...rest: (string | number)[]): IssuePath;
}

/** One group of endpoint rules: sees every endpoint in list order, then the whole list. */
export interface EndpointRules {
  endpoint(raw: Record<string, unknown>, index: number): void;
  finish?(): void;
}

export function endpointScope(
  endpoints: readonly unknown[],
  base: IssuePath,
  method: RoutingMethod | undefined,
  protocol: ProbeProtocol | undefined,
  report: Report,
): EndpointScope {
  return {
    endpoints,
    method,
    protocol,
    report,
    ref: (index) => refTo({ endpoints }, 'endpoints', index),
    at: (index, field, ...rest) => [...base, index, field, ...rest],
  };
}

export function refTo(container: unknown, list: string, index: number): string {
  const items = Array.isArray(container) ? container : isRecord(container) ? container[list] : undefined;
  const item = Array.isArray(items) ? items[index] : undefined;
  const name = isRecord(item) && typeof item.name === 'string' ? ` ${JSON.stringify(item.name)}` : '';
  return `${list}[${index}]${name}`;
}

export function validName(value: unknown): string | undefined {
  return typeof value === 'string' && isResourceName(value) ? value : undefined;
}

/** The value `seen` holds for `key`: `undefined` the first time, when `value` is recorded for it. */
export function seenBefore<K, V>(seen: Map<K, V>, key: K, value: V): V | undefined {
  const first = seen.get(key);
  if (first === undefined) seen.set(key, value);
  return first;
}

export function validInteger(value: unknown, min: number, max: number): number | undefined {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max
    ? (value as number)
    : undefined;
}
