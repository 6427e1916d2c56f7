/**
 * Route 53's default quotas that a large deployment can exceed: then Route 53, not our own
 * limits, is what refuses it — at deploy time, or at the first change that goes over. Said
 * before deploying instead (`tm validate`, `cdk synth`), naming the quota and the number the
 * definitions need. A quota can be raised (Service Quotas, Route 53, in us-east-1), so this is
 * a warning, not an error.
 */
import type { DefinitionsWarning } from '../profile/secret-references.js';
import type { Profile } from '../profile/types.js';
import { planRecords } from '../routing/planner.js';
import { planStaticFailover } from '../static-failover/plan.js';
import { EndpointMonitorStatus } from '../status/vocabulary.js';

const ROUTE53_DEFAULT_QUOTAS = {
  /** Records (record sets) per hosted zone, the zone's own SOA and NS included. */
  recordsPerHostedZone: 10_000,
} as const;

/** Record sets every hosted zone holds besides ours: its SOA and NS. */
const ZONE_OWN_RECORDS = 2;

/**
 * A warning per hosted zone whose record sets, with every endpoint Online (when each method
 * publishes the most), exceed the default records-per-zone quota. A profile with static
 * failover adds its structure: the switch at the fqdn and everything under `_static.<fqdn>`
 * (today's records move to `_fast.<fqdn>`, the same count).
 */
export function route53QuotaWarnings(
  profiles: readonly Profile[],
  defaultProbeRegions: readonly string[],
): DefinitionsWarning[] {
  const today = planRecords(profiles, () => EndpointMonitorStatus.Online).records;
  const structure = planStaticFailover(
    profiles.filter((p) => p.staticFailover),
    { deployment: 'quota', defaultProbeRegions },
  ).records;
  const profileOf = new Map(profiles.map((profile, index) => [profile.dnsConfig.fqdn, { profile, index }]));
  const zones = new Map<string, { zoneName: string; index: number; field: string; count: number }>();
  for (const record of [...today, ...structure]) {
    const owner = profileOf.get(fqdnOf(record.name));
    if (owner === undefined) continue;
    const { dnsConfig } = owner.profile;
    const key = dnsConfig.hostedZoneId ?? dnsConfig.zoneName;
    const zone = zones.get(key) ?? {
      zoneName: dnsConfig.zoneName,
      index: owner.index,
      field: dnsConfig.hostedZoneId === undefined ? 'zoneName' : 'hostedZoneId',
      count: 0,
    };
    zone.count += 1;
    zones.set(key, zone);
  }
  const quota = ROUTE53_DEFAULT_QUOTAS.recordsPerHostedZone;
  return [...zones.entries()]
    .filter(([, zone]) => zone.count + ZONE_OWN_RECORDS > quota)
    .map(([key, zone]) => ({
      path: ['profiles', zone.index, 'dnsConfig', zone.field],
      rule: 'route53-quota' as const,
      message: `hosted zone ${key === zone.zoneName ? zone.zoneName : `${key} (${zone.zoneName})`}: the profiles publish ${zone.count} record sets, plus its SOA and NS: over Route 53's default quota of ${quota} records per hosted zone; request an increase (Service Quotas, Route 53, "Records per hosted zone") before deploying`,
    }));
}

/** The profile name a structure record belongs to: `_static.<fqdn>` and the names below it. */
function fqdnOf(name: string): string {
  const at = name.indexOf('_static.');
  return at === -1 ? name : name.slice(at + '_static.'.length);
}
