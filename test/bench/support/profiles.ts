/** Bench profiles: Priority profiles in one zone, each with its own two targets. */
import { LIMITS, parseDefinitions } from '../../support/profile-api.js';
import { endpointVerdictKey } from '../../../shared/probe/target.js';
import type { Profile } from '../../../shared/profile/types.js';
import type { VerdictItem } from '../../../shared/state/items.js';
import { profileDefinition } from '../../support/profiles.js';

export const BENCH_ZONE_ID = 'Z00000000000000000001';

export interface PriorityProfilesOptions {
  readonly count: number;
  readonly prefix: string;
  /** Profile-level probe regions (default: the deployment's). */
  readonly probeRegions?: readonly string[];
}

/**
 * `count` Priority profiles `<prefix><i>` with endpoints `primary` (10.a.b.1) and `secondary` (10.a.b.2).
 * A definitions file holds at most LIMITS.profiles (200) profiles, so more are validated as
 * several definitions files of at most 200 each (as many deployments' worth): every profile
 * passes the same validation a deployment's do; the evaluator itself has no such cap.
 */
export function priorityProfiles(options: PriorityProfilesOptions): Profile[] {
  const definitions = Array.from({ length: options.count }, (_, i) => {
    const net = `10.${(i >> 8) & 255}.${i & 255}`;
    return profileDefinition({
      name: `${options.prefix}${i}`,
      dnsConfig: { hostedZoneId: BENCH_ZONE_ID, ttl: 30 },
      ...(options.probeRegions === undefined ? {} : { probeRegions: [...options.probeRegions] }),
      endpoints: [
        { name: 'primary', target: `${net}.1` },
        { name: 'secondary', target: `${net}.2` },
      ],
    });
  });
  const profiles: Profile[] = [];
  for (let start = 0; start < definitions.length; start += LIMITS.profiles) {
    const parsed = parseDefinitions(definitions.slice(start, start + LIMITS.profiles));
    if (!parsed.ok)
      throw new Error(`invalid bench definitions: ${JSON.stringify(parsed.issues).slice(0, 500)}`);
    profiles.push(...parsed.profiles);
  }
  return profiles;
}

export function targetKeyOf(profile: Profile, endpointName: string): string {
  const endpoint = profile.endpoints.find((e) => e.name === endpointName);
  if (endpoint === undefined || endpoint.type !== 'external')
    throw new Error(`${profile.name}/${endpointName}?`);
  return endpointVerdictKey(profile, endpoint);
}

/** One verdict per (profile, endpoint, region), as a probe region writes it. */
export function verdictsFor(
  profiles: readonly Profile[],
  endpoints: readonly string[],
  regions: readonly string[],
  verdict: 'up' | 'down',
  at: number,
): VerdictItem[] {
  return profiles.flatMap((profile) =>
    endpoints.flatMap((endpoint) =>
      regions.map((region): VerdictItem => ({
        targetKey: targetKeyOf(profile, endpoint),
        region,
        verdict,
        since: at,
        checkedAt: at,
        detail: verdict === 'up' ? 'check succeeded' : '4 consecutive failures (tolerated 3)',
      })),
    ),
  );
}
