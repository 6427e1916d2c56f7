/**
 * Probe planning (SPEC §7): from every profile, the distinct requests one region sends.
 * Endpoints that send exactly the same request (same `probeRequestOf(...).key`) in
 * several profiles are probed once, at the shortest interval among them; each distinct
 * judging of that request (timeout, codes, rule, interval) is a judge with its own
 * verdict, which sees only the checks of its own cadence.
 */
import { fnv1a32 } from '../hash/fnv1a.js';
import type { ExternalEndpoint, Profile } from '../profile/types.js';
import { enabledAtOf, laterStamp } from '../status/reenabled.js';
import {
  judgingHashOf,
  probeJudgingOf,
  probeRequestOf,
  verdictKeyFrom,
  type PlannedJudge,
  type PlannedProbe,
  type ProbeRequest,
} from './target.js';

type MutableJudge = Omit<PlannedJudge, 'servedEndpoints' | 'freshAfter'> & {
  servedEndpoints: { profile: string; endpoint: string }[];
  freshAfter?: number;
};

interface Accumulated {
  readonly request: ProbeRequest;
  readonly judges: MutableJudge[];
}

/**
 * The probes `region` sends: external endpoints that are Enabled and not always-serve,
 * in Enabled profiles whose probe regions (`probeRegions` ?? the default) include the
 * region. Nested endpoints are never probed (their child's endpoints are).
 *
 * `offsetMs` spreads the probes deterministically from the request key, so a restart or
 * a config change does not reshuffle anyone.
 */
export function planProbes(
  profiles: readonly Profile[],
  region: string,
  defaultProbeRegions: readonly string[],
): PlannedProbe[] {
  const byKey = new Map<string, Accumulated>();
  // By verdict key, which begins with its request's key: one map, not one per request.
  const judgeByKey = new Map<string, MutableJudge>();
  for (const profile of profiles) {
    if (profile.profileStatus !== 'Enabled') continue;
    if (!(profile.probeRegions ?? defaultProbeRegions).includes(region)) continue;
    const judging = probeJudgingOf(profile);
    const judgingHash = judgingHashOf(judging);
    for (const endpoint of profile.endpoints) {
      if (!isProbed(endpoint)) continue;
      const request = probeRequestOf(profile, endpoint);
      let entry = byKey.get(request.key);
      if (entry === undefined) {
        entry = { request, judges: [] };
        byKey.set(request.key, entry);
      }
      const key = verdictKeyFrom(request.key, judgingHash);
      let judge = judgeByKey.get(key);
      if (judge === undefined) {
        judge = { key, ...judging, servedEndpoints: [] };
        judgeByKey.set(key, judge);
        entry.judges.push(judge);
      }
      judge.servedEndpoints.push({ profile: profile.name, endpoint: endpoint.name });
      // A (re-)enabled endpoint makes the judge's older verdict not count (shared/status/reenabled.ts).
      const freshAfter = laterStamp(judge.freshAfter, enabledAtOf(profile, endpoint));
      if (freshAfter !== undefined) judge.freshAfter = freshAfter;
    }
  }
  const planned: PlannedProbe[] = [];
  for (const { request, judges } of byKey.values()) planned.push(plannedProbeOf(request, judges));
  return planned.sort((a, b) => a.offsetMs - b.offsetMs || compare(a.key, b.key));
}

/**
 * The request as planned: sent at its judges' shortest interval, placed within their longest.
 * Spelled out rather than `{ ...request, intervalMs, … }`: on Node 20's V8 a spread followed
 * by more properties gives every object a hidden class of its own (1,000 probes, ~1,000
 * classes), which slows the plan and makes every later read of the probes megamorphic.
 */
function plannedProbeOf(request: ProbeRequest, judges: MutableJudge[]): PlannedProbe {
  judges.sort((a, b) => a.intervalMs - b.intervalMs || compare(a.key, b.key));
  const shortest = judges[0]!.intervalMs;
  const longest = judges[judges.length - 1]!.intervalMs;
  const { key, protocol, host, port, path, method, headers } = request;
  const offsetMs = spreadOffsetMs(key, longest);
  // The body is kept for the judges that match it; the others judge as before.
  return judges.some((judge) => judge.expectedBody !== undefined)
    ? {
        key,
        protocol,
        host,
        port,
        path,
        method,
        headers,
        keepsBody: true,
        intervalMs: shortest,
        offsetMs,
        judges,
      }
    : { key, protocol, host, port, path, method, headers, intervalMs: shortest, offsetMs, judges };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isProbed(endpoint: Profile['endpoints'][number]): endpoint is ExternalEndpoint {
  return endpoint.type === 'external' && endpoint.endpointStatus === 'Enabled' && !endpoint.alwaysServe;
}

/** A stable position in [0, intervalMs) from the key. */
export function spreadOffsetMs(key: string, intervalMs: number): number {
  return Math.floor((stableHash32(key) / 0x1_0000_0000) * intervalMs);
}

/** A well-spread unsigned 32-bit hash of `key` (FNV-1a, then a murmur3 finalizer). */
export function stableHash32(key: string, salt = 0): number {
  let hash = fnv1a32(key, salt);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b) >>> 0;
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35) >>> 0;
  hash ^= hash >>> 16;
  return hash >>> 0;
}
