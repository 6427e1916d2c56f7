/**
 * The record names each hosted zone's profiles own, in the form IAM compares against the
 * `route53:ChangeResourceRecordSetsNormalizedRecordNames` condition key: lower case, no
 * trailing dot, and every character other than a–z, 0–9, '-', '_' and '.' as a
 * three-digit octal escape (`*` → `\052`): shared/zone/names.ts `escapeName`.
 */
import type { Profile } from '../../shared/profile/types.js';
import { escapeName } from '../../shared/zone/names.js';

/** Hosted zone id → the sorted, distinct normalized record names of the profiles in it. */
export function recordNamesByHostedZone(profiles: readonly Profile[]): Map<string, string[]> {
  const names = new Map<string, Set<string>>();
  for (const profile of profiles) {
    const zoneId = profile.dnsConfig.hostedZoneId;
    if (zoneId === undefined) continue;
    const set = names.get(zoneId) ?? new Set<string>();
    set.add(escapeName(profile.dnsConfig.fqdn));
    names.set(zoneId, set);
  }
  return new Map(
    [...names].sort(([a], [b]) => a.localeCompare(b)).map(([zone, set]) => [zone, [...set].sort()]),
  );
}
