/**
 * The record names static failover adds in each hosted zone (docs/adr/0011-static-failover.md):
 * for each profile with `staticFailover`, `_fast.<fqdn>` (today's records, moved) and every
 * name of its `_static` structure (the chains' links, Performance regions), in the form IAM
 * compares (record-names.ts). Planned by the core, never re-derived here.
 */
import type { Profile } from '../../shared/profile/types.js';
import { fastNameOf } from '../../shared/static-failover/identity.js';
import { planStaticFailover } from '../../shared/static-failover/plan.js';
import { escapeName } from '../../shared/zone/names.js';

/** Hosted zone id → the static-failover record names of its profiles (unsorted). */
export function staticRecordNamesByHostedZone(
  profiles: readonly Profile[],
  defaultProbeRegions: readonly string[],
): Map<string, Set<string>> {
  const on = profiles.filter((profile) => profile.staticFailover);
  const names = new Map<string, Set<string>>();
  const add = (zoneId: string | undefined, name: string) => {
    if (zoneId === undefined) return;
    const set = names.get(zoneId) ?? new Set<string>();
    set.add(escapeName(name));
    names.set(zoneId, set);
  };
  // The deployment name is no part of a record name.
  const structure = planStaticFailover(on, { deployment: 'names', defaultProbeRegions });
  // Each record lives under the fqdn of the profile it was planned for (the longest that ends it).
  const byLength = [...on].sort((a, b) => b.dnsConfig.fqdn.length - a.dnsConfig.fqdn.length);
  for (const record of structure.records) {
    const owner = byLength.find(
      (p) => record.name === p.dnsConfig.fqdn || record.name.endsWith(`.${p.dnsConfig.fqdn}`),
    );
    add(owner?.dnsConfig.hostedZoneId, record.name);
  }
  for (const profile of on) add(profile.dnsConfig.hostedZoneId, fastNameOf(profile.dnsConfig.fqdn));
  return names;
}
