/**
 * Route 53's default quotas that a large deployment can exceed: then Route 53, not our own
 * limits, is what refuses it — at deploy time, or at the first change that goes over. Said
 * before deploying instead (`tm validate`, `cdk synth`), naming the quota and the number the
 * definitions need. A quota can be raised (Service Quotas, Route 53, in us-east-1), so this is
 * a warning, not an error.
 */
import { groupBy } from '../group-by.js';
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
  const owners = [...today, ...structure].flatMap((record) => profileOf.get(fqdnOf(record.name)) ?? []);
  const byZone = groupBy(
    owners,
    ({ profile }) => profile.dnsConfig.hostedZoneId ?? profile.dnsConfig.zoneName,
  );
  const quota = ROUTE53_DEFAULT_QUOTAS.recordsPerHostedZone;
  return [...byZone]
    .filter(([, records]) => records.length + ZONE_OWN_RECORDS > quota)
    .map(([key, records]) => {
      const { profile, index } = records[0]!;
      const { zoneName, hostedZoneId } = profile.dnsConfig;
      return {
        path: ['profiles', index, 'dnsConfig', hostedZoneId === undefined ? 'zoneName' : 'hostedZoneId'],
        rule: 'route53-quota' as const,
        message: `hosted zone ${key === zoneName ? zoneName : `${key} (${zoneName})`}: the profiles publish ${records.length} record sets, plus its SOA and NS: over Route 53's default quota of ${quota} records per hosted zone; request an increase (Service Quotas, Route 53, "Records per hosted zone") before deploying`,
      };
    });
}

/** The profile name a structure record belongs to: `_static.<fqdn>` and the names below it. */
function fqdnOf(name: string): string {
  const at = name.indexOf('_static.');
  return at === -1 ? name : name.slice(at + '_static.'.length);
}
