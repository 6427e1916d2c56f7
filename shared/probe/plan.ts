/**
 * Probe planning (SPEC §7): from every profile, the distinct requests one region sends.
 * Endpoints that send exactly the same request (same `probeRequestOf(...).key`) in
 * several profiles are probed once, at the shortest interval among them; each distinct
 * judging of that request (timeout, codes, rule, interval) is a judge with its own
 * verdict, which sees only the checks of its own cadence.
 */
import { fnv1a32 } from '../hash/fnv1a.js';
import type { ExternalEndpoint, Profile } from '../profile/types.js';
import { enabledAtOf } from '../status/reenabled.js';
import {
  probeJudgingOf,
  probeRequestOf,
  verdictKeyOf,
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
  readonly judges: Map<string, MutableJudge>;
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
  for (const profile of profiles) {
    if (profile.profileStatus !== 'Enabled') continue;
    if (!(profile.probeRegions ?? defaultProbeRegions).includes(region)) continue;
    const judging = probeJudgingOf(profile);
    for (const endpoint of profile.endpoints) {
      if (!isProbed(endpoint)) continue;
      const request = probeRequestOf(profile, endpoint);
      const entry = byKey.get(request.key) ?? { request, judges: new Map() };
      byKey.set(request.key, entry);
      const key = verdictKeyOf(request.key, judging);
      const judge: MutableJudge = entry.judges.get(key) ?? { key, ...judging, servedEndpoints: [] };
      entry.judges.set(key, judge);
      judge.servedEndpoints.push({ profile: profile.name, endpoint: endpoint.name });
      // A (re-)enabled endpoint makes the judge's older verdict not count (shared/status/reenabled.ts).
      const freshAfter = latest(judge.freshAfter, enabledAtOf(profile, endpoint));
      if (freshAfter !== undefined) judge.freshAfter = freshAfter;
    }
  }
  return [...byKey.values()]
    .map(({ request, judges }): PlannedProbe => {
      const list = [...judges.values()].sort((a, b) => a.intervalMs - b.intervalMs || compare(a.key, b.key));
      const intervals = list.map((j) => j.intervalMs);
      return {
        ...request,
        // The body is kept for the judges that match it; the others judge as before.
        ...(list.some((judge) => judge.expectedBody !== undefined) ? { keepsBody: true } : {}),
        intervalMs: Math.min(...intervals),
        offsetMs: spreadOffsetMs(request.key, Math.max(...intervals)),
        judges: list,
      };
    })
    .sort((a, b) => a.offsetMs - b.offsetMs || compare(a.key, b.key));
}

function latest(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
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
