/**
 * A probe target: one distinct check. Endpoints of different profiles whose checks
 * are identical share one target (SPEC §7), probed once per region at the shortest
 * interval among them; the verdict serves every endpoint that maps to it.
 */
import type {
  ExternalEndpoint,
  Header,
  HealthRule,
  Profile,
  ProbeProtocol,
  StatusCodeRange,
} from '../profile/types.js';
import type { ProbeResult } from './result.js';

export interface ProbeTarget {
  /** Stable identity of the check (see `targetKeyOf`); the DynamoDB key of its verdicts. */
  readonly key: string;
  readonly protocol: ProbeProtocol;
  /** Host name or IP literal. */
  readonly host: string;
  readonly port: number;
  /** HTTP/HTTPS only. */
  readonly path: string | undefined;
  readonly method: 'GET' | 'HEAD';
  /** Profile headers merged with endpoint headers (endpoint wins), names as written. */
  readonly headers: readonly Header[];
  readonly expectedStatusCodeRanges: readonly StatusCodeRange[];
  readonly timeoutMs: number;
  /** Rule inputs are part of the identity: two profiles with different rules get separate verdicts. */
  readonly healthRule: HealthRule;
  readonly toleratedNumberOfFailures: number;
}

/** What probe planning adds: cadence, and which profile endpoints the target serves. */
export interface PlannedTarget extends ProbeTarget {
  readonly intervalMs: number;
  /** Offset in [0, intervalMs) at which this target is probed within each round (spreading). */
  readonly offsetMs: number;
  readonly servedEndpoints: readonly { readonly profile: string; readonly endpoint: string }[];
  /**
   * The latest (re-)enable of the endpoints served (epoch ms; shared/status/reenabled.ts): a
   * region's verdict decided before it does not count, so the region decides — and writes — anew.
   */
  readonly freshAfter?: number;
}

/** Sends one check; never throws, never runs past `target.timeoutMs`. */
export type Prober = (target: ProbeTarget) => Promise<ProbeResult>;

/** Endpoint headers override profile headers of the same name (case-insensitive). */
export function mergeHeaders(
  profileHeaders: readonly Header[],
  endpointHeaders: readonly Header[],
): Header[] {
  const merged = new Map<string, Header>();
  for (const header of [...profileHeaders, ...endpointHeaders]) merged.set(header.name.toLowerCase(), header);
  return [...merged.values()];
}

/** The check an external, monitored endpoint of `profile` needs, without cadence. */
export function probeTargetOf(profile: Profile, endpoint: ExternalEndpoint): ProbeTarget {
  const monitor = profile.monitorConfig;
  const spec = {
    protocol: monitor.protocol,
    host: endpoint.target,
    port: monitor.port,
    path: monitor.protocol === 'TCP' ? undefined : monitor.path,
    method: monitor.method,
    headers: monitor.protocol === 'TCP' ? [] : mergeHeaders(monitor.customHeaders, endpoint.customHeaders),
    expectedStatusCodeRanges: monitor.protocol === 'TCP' ? [] : monitor.expectedStatusCodeRanges,
    timeoutMs: monitor.timeoutInSeconds * 1000,
    healthRule: monitor.healthRule,
    toleratedNumberOfFailures: monitor.toleratedNumberOfFailures,
  };
  return { key: targetKeyOf(spec), ...spec };
}

/**
 * A readable, stable key: `HTTPS:host:443/health#<hash of the rest>`. The hash covers
 * method, headers (sorted), expected codes, timeout and rule, so any difference in the
 * check gives a different key. FNV-1a keeps this free of node:crypto (pure core).
 */
export function targetKeyOf(spec: Omit<ProbeTarget, 'key'>): string {
  const headers = [...spec.headers]
    .map((h) => `${h.name.toLowerCase()}:${h.value}`)
    .sort()
    .join('\n');
  const rest = JSON.stringify([
    spec.method,
    headers,
    spec.expectedStatusCodeRanges.map((r) => `${r.min}-${r.max}`),
    spec.timeoutMs,
    spec.healthRule,
    spec.toleratedNumberOfFailures,
  ]);
  const host = spec.host.includes(':') ? `[${spec.host}]` : spec.host;
  return `${spec.protocol}:${host}:${spec.port}${spec.path ?? ''}#${fnv1a(rest)}`;
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
