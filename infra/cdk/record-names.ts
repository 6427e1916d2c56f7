/**
 * The record names each hosted zone's profiles own, in the form IAM compares against the
 * `route53:ChangeResourceRecordSetsNormalizedRecordNames` condition key: lower case, no
 * trailing dot, and every character other than a–z, 0–9, '-', '_' and '.' as a
 * three-digit octal escape (`*` → `\052`): shared/zone/names.ts `escapeName`.
 *
 * With static failover (docs/adr/0011-static-failover.md), also the names it adds for each
 * profile with `staticFailover`: `_fast.<fqdn>` (today's records, moved) and every name of its
 * `_static` structure (the chains' links, Performance regions). Planned by the core, never
 * re-derived here.
 */
import type { Profile } from '../../shared/profile/types.js';
import { fastNameOf } from '../../shared/static-failover/identity.js';
import { planStaticFailover } from '../../shared/static-failover/plan.js';
import { escapeName } from '../../shared/zone/names.js';

/**
 * Hosted zone id → the sorted, distinct normalized record names of the profiles in it;
 * `staticFailoverRegions` (static failover's probe regions): with its names. @default - none
 */
export function recordNamesByHostedZone(
  profiles: readonly Profile[],
  staticFailoverRegions?: readonly string[],
): Map<string, string[]> {
  const names = new Map<string, Set<string>>();
  const add = (zoneId: string | undefined, name: string) => {
    if (zoneId === undefined) return;
    const set = names.get(zoneId) ?? new Set<string>();
    set.add(escapeName(name));
    names.set(zoneId, set);
  };
  for (const profile of profiles) add(profile.dnsConfig.hostedZoneId, profile.dnsConfig.fqdn);
  if (staticFailoverRegions !== undefined) {
    const on = profiles.filter((profile) => profile.staticFailover);
    // The deployment name is no part of a record name.
    const structure = planStaticFailover(on, {
      deployment: 'names',
      defaultProbeRegions: staticFailoverRegions,
    });
    // Each record lives under the fqdn of the profile it was planned for (the longest that ends it).
    const byLength = [...on].sort((a, b) => b.dnsConfig.fqdn.length - a.dnsConfig.fqdn.length);
    for (const record of structure.records) {
      const owner = byLength.find(
        (p) => record.name === p.dnsConfig.fqdn || record.name.endsWith(`.${p.dnsConfig.fqdn}`),
      );
      add(owner?.dnsConfig.hostedZoneId, record.name);
    }
    for (const profile of on) add(profile.dnsConfig.hostedZoneId, fastNameOf(profile.dnsConfig.fqdn));
  }
  return new Map(
    [...names].sort(([a], [b]) => a.localeCompare(b)).map(([zone, set]) => [zone, [...set].sort()]),
  );
}
