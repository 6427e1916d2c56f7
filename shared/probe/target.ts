/**
 * A probe's identity, in two parts (docs/adr/0002-table-layout.md, "Probe identity"):
 * - **what is sent** (`ProbeRequest`: protocol, host, port, path, method, headers) — shared
 *   by every profile endpoint that sends exactly the same; probed once per round (SPEC §7);
 * - **how a result is judged** (`ProbeJudging`: timeout, expected status codes, the region
 *   rule, tolerated failures, the interval) — per profile; each distinct judging of a
 *   request is a `ProbeJudge` with its own rule state and its own verdict item.
 * Two profiles that send the same request with different judging share the probe and
 * keep separate verdicts; two that also judge alike share the verdict.
 */
import { fnv1a32 } from '../hash/fnv1a.js';
import type { ExternalEndpoint, Header, MonitorConfig, Profile, ProbeProtocol } from '../profile/types.js';
import { headerValueIdentity } from '../profile/secret-references.js';
import type { ProbeObservation } from './result.js';

/** What is sent. */
export interface ProbeRequest {
  /** Stable identity of what is sent (see `requestKeyOf`); shards are chosen by it. */
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
  /**
   * Keep the first 64 KiB of the body in the observation (some judge has an expectedBody).
   * How the answer is read, not what is sent: not part of the key. @default false
   */
  readonly keepsBody?: boolean;
}

/**
 * How one profile judges what a probe observed: its monitor settings (the expected codes empty
 * for TCP, `requiredSuccessesToRecover` absent for 1, Azure's), its timeout and its interval.
 */
export interface ProbeJudging extends Pick<
  MonitorConfig,
  | 'expectedStatusCodeRanges'
  | 'healthRule'
  | 'toleratedNumberOfFailures'
  | 'requiredSuccessesToRecover'
  | 'maxLatencyMs'
  | 'expectedBody'
> {
  /** The profile's timeout: an answer later than this is a failure for this judge. */
  readonly timeoutMs: number;
  /** The profile's interval: this judge counts one check per interval. */
  readonly intervalMs: number;
}

/** One judging of one request: the unit of rule state and of stored verdicts. */
export interface ProbeJudge extends ProbeJudging {
  /** Stable identity of the verdict (see `verdictKeyOf`): the DynamoDB key of its verdict items. */
  readonly key: string;
}

/** A judge as planned for a region: which profile endpoints its verdict serves. */
export interface PlannedJudge extends ProbeJudge {
  readonly servedEndpoints: readonly { readonly profile: string; readonly endpoint: string }[];
  /**
   * The latest (re-)enable of the endpoints served (epoch ms; shared/status/reenabled.ts): a
   * region's verdict decided before it does not count, so the region decides — and writes — anew.
   */
  readonly freshAfter?: number;
}

/** A request as planned for a region: probed every `intervalMs`, judged by each of `judges` at its own interval. */
export interface PlannedProbe extends ProbeRequest {
  /** The shortest interval among the judges: how often the request is sent. */
  readonly intervalMs: number;
  /**
   * Position in [0, longest judge interval): where in each round the request is sent
   * (`offsetMs % round period`) and in which rounds a slower judge takes its check.
   */
  readonly offsetMs: number;
  readonly judges: readonly PlannedJudge[];
}

/**
 * Sends one request and reports what happened; never throws, never runs past `timeoutMs`.
 * It does not judge: `judgeObservation` applies each profile's timeout and status codes.
 */
export type Prober = (request: ProbeRequest, timeoutMs: number) => Promise<ProbeObservation>;

/** Endpoint headers override profile headers of the same name (case-insensitive). */
function mergeHeaders(profileHeaders: readonly Header[], endpointHeaders: readonly Header[]): Header[] {
  if (profileHeaders.length === 0 && endpointHeaders.length === 0) return [];
  const merged = new Map<string, Header>();
  for (const header of [...profileHeaders, ...endpointHeaders]) merged.set(header.name.toLowerCase(), header);
  return [...merged.values()];
}

/** What an external, monitored endpoint of `profile` sends. */
export function probeRequestOf(profile: Profile, endpoint: ExternalEndpoint): ProbeRequest {
  const monitor = profile.monitorConfig;
  const spec = {
    protocol: monitor.protocol,
    host: endpoint.target,
    port: monitor.port,
    path: monitor.protocol === 'TCP' ? undefined : monitor.path,
    method: monitor.method,
    headers: monitor.protocol === 'TCP' ? [] : mergeHeaders(monitor.customHeaders, endpoint.customHeaders),
  };
  return { key: requestKeyOf(spec), ...spec };
}

/** How `profile` judges the checks of its endpoints. */
export function probeJudgingOf(profile: Profile): ProbeJudging {
  const monitor = profile.monitorConfig;
  return {
    timeoutMs: monitor.timeoutInSeconds * 1000,
    expectedStatusCodeRanges: monitor.protocol === 'TCP' ? [] : monitor.expectedStatusCodeRanges,
    healthRule: monitor.healthRule,
    toleratedNumberOfFailures: monitor.toleratedNumberOfFailures,
    intervalMs: monitor.intervalInSeconds * 1000,
    ...((monitor.requiredSuccessesToRecover ?? 1) > 1
      ? { requiredSuccessesToRecover: monitor.requiredSuccessesToRecover }
      : {}),
    ...(monitor.maxLatencyMs === undefined ? {} : { maxLatencyMs: monitor.maxLatencyMs }),
    ...(monitor.expectedBody === undefined || monitor.protocol === 'TCP'
      ? {}
      : { expectedBody: monitor.expectedBody }),
  };
}

/** The key of the verdict items that decide `endpoint` of `profile` (what the evaluator reads). */
export function endpointVerdictKey(profile: Profile, endpoint: ExternalEndpoint): string {
  return verdictKeyOf(probeRequestOf(profile, endpoint).key, probeJudgingOf(profile));
}

/**
 * A readable, stable key: `HTTPS:host:443/health#<hash of method and headers>`. Headers
 * are hashed as written (sorted, names lower-cased), so any difference in what is sent
 * gives a different key. A header whose value is a secret counts by its reference,
 * never by the value it resolves to (which the planner never sees). FNV-1a keeps this free of node:crypto (pure core).
 */
export function requestKeyOf(spec: Omit<ProbeRequest, 'key'>): string {
  const host = spec.host.includes(':') ? `[${spec.host}]` : spec.host;
  return `${spec.protocol}:${host}:${spec.port}${spec.path ?? ''}#${sentHashOf(spec.method, spec.headers)}`;
}

/** The request key's hash part; most requests send no headers, whose hash is one per method. */
function sentHashOf(method: ProbeRequest['method'], headers: readonly Header[]): string {
  if (headers.length === 0) return HEADERLESS_HASHES[method];
  return hashOfSent(
    method,
    headers
      .map((h) => `${h.name.toLowerCase()}:${headerValueIdentity(h.value)}`)
      .sort()
      .join('\n'),
  );
}

function hashOfSent(method: ProbeRequest['method'], headers: string): string {
  return hashHex(JSON.stringify([method, headers]));
}

const HEADERLESS_HASHES: Readonly<Record<ProbeRequest['method'], string>> = {
  GET: hashOfSent('GET', ''),
  HEAD: hashOfSent('HEAD', ''),
};

/**
 * `<request key>|<hash of the judging>`: the hash covers every judging setting (interval,
 * timeout, expected codes, rule, tolerated, and the opt-in settings when set), so profiles
 * judging differently never share a verdict, and profiles judging alike do. An opt-in
 * setting at its default leaves the key as it was before the setting existed.
 */
export function verdictKeyOf(requestKey: string, judging: ProbeJudging): string {
  return verdictKeyFrom(requestKey, judgingHashOf(judging));
}

/** `verdictKeyOf` from the judging's hash (`judgingHashOf`): a planner hashes each profile's judging once. */
export function verdictKeyFrom(requestKey: string, judgingHash: string): string {
  return `${requestKey}|${judgingHash}`;
}

/** The verdict key's judging part. */
export function judgingHashOf(judging: ProbeJudging): string {
  const identity = JSON.stringify([
    judging.intervalMs,
    judging.timeoutMs,
    judging.expectedStatusCodeRanges.map((r) => `${r.min}-${r.max}`),
    judging.healthRule,
    judging.toleratedNumberOfFailures,
    ...optInIdentity(judging),
  ]);
  return hashHex(identity);
}

/** The opt-in judging settings that are set, as `name=value` (none: Azure's judging). */
function optInIdentity(judging: ProbeJudging): string[] {
  const parts: string[] = [];
  if (judging.requiredSuccessesToRecover !== undefined)
    parts.push(`requiredSuccessesToRecover=${judging.requiredSuccessesToRecover}`);
  if (judging.maxLatencyMs !== undefined) parts.push(`maxLatencyMs=${judging.maxLatencyMs}`);
  if (judging.expectedBody !== undefined) parts.push(`expectedBody=${JSON.stringify(judging.expectedBody)}`);
  return parts;
}

/** The key's hash part: FNV-1a as 8 hex digits. */
function hashHex(text: string): string {
  return fnv1a32(text).toString(16).padStart(8, '0');
}
