/**
 * Probe planning (SPEC §7): from every profile, the distinct checks one region runs.
 * Endpoints whose checks are identical (same `probeTargetOf(...).key`) in several
 * profiles are probed once, at the shortest interval among them, and the verdict
 * serves them all.
 */
import type { Random } from '../clock.js';
import type { ExternalEndpoint, Profile } from '../profile/types.js';
import { enabledAtOf } from '../status/reenabled.js';
import { probeTargetOf, type PlannedTarget, type ProbeTarget } from './target.js';

interface Accumulated {
  target: ProbeTarget;
  intervalMs: number;
  served: { profile: string; endpoint: string }[];
  freshAfter: number | undefined;
}

/**
 * The targets `region` probes: external endpoints that are Enabled and not always-serve,
 * in Enabled profiles whose probe regions (`probeRegions` ?? the default) include the
 * region. Nested endpoints are never probed (their child's endpoints are).
 *
 * `offsetMs` spreads the targets over the interval deterministically from the target
 * key, so a restart or a config change does not reshuffle anyone. `random`, when given,
 * only salts that spread (e.g. per deployment), it never changes between calls.
 */
export function planProbeTargets(
  profiles: readonly Profile[],
  region: string,
  defaultProbeRegions: readonly string[],
  random?: Random,
): PlannedTarget[] {
  const byKey = new Map<string, Accumulated>();
  for (const profile of profiles) {
    if (profile.profileStatus !== 'Enabled') continue;
    if (!(profile.probeRegions ?? defaultProbeRegions).includes(region)) continue;
    const intervalMs = profile.monitorConfig.intervalInSeconds * 1000;
    for (const endpoint of profile.endpoints) {
      if (!isProbed(endpoint)) continue;
      const target = probeTargetOf(profile, endpoint);
      const served = { profile: profile.name, endpoint: endpoint.name };
      const enabledAt = enabledAtOf(profile, endpoint);
      const existing = byKey.get(target.key);
      if (existing === undefined) {
        byKey.set(target.key, { target, intervalMs, served: [served], freshAfter: enabledAt });
      } else {
        existing.intervalMs = Math.min(existing.intervalMs, intervalMs);
        existing.served.push(served);
        existing.freshAfter = latest(existing.freshAfter, enabledAt);
      }
    }
  }
  const salt = random === undefined ? 0 : Math.floor(random() * 0x1_0000_0000) >>> 0;
  return [...byKey.values()]
    .map(({ target, intervalMs, served, freshAfter }) => ({
      ...target,
      intervalMs,
      offsetMs: spreadOffsetMs(target.key, intervalMs, salt),
      servedEndpoints: served,
      ...(freshAfter === undefined ? {} : { freshAfter }),
    }))
    .sort((a, b) => a.offsetMs - b.offsetMs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function latest(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

function isProbed(endpoint: Profile['endpoints'][number]): endpoint is ExternalEndpoint {
  return endpoint.type === 'external' && endpoint.endpointStatus === 'Enabled' && !endpoint.alwaysServe;
}

/** A stable position in [0, intervalMs) from the key (FNV-1a, then a murmur finalizer for spread). */
export function spreadOffsetMs(key: string, intervalMs: number, salt = 0): number {
  let hash = (0x811c9dc5 ^ salt) >>> 0;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b) >>> 0;
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35) >>> 0;
  hash ^= hash >>> 16;
  return Math.floor(((hash >>> 0) / 0x1_0000_0000) * intervalMs);
}
