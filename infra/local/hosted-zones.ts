import { createHash } from 'node:crypto';
import type { Profile } from '../../shared/profile/types.js';
import type { LocalRoute53 } from './route53/index.js';

/**
 * Creates each profile's hosted zone in the local Route 53 (once per zone name) and fills in the id.
 * Without an id in the definitions the id is derived from the zone name: the table is kept
 * across restarts and names the zones it published to, while the local Route 53 starts empty.
 */
export function withHostedZones(route53: LocalRoute53, profiles: readonly Profile[]): Profile[] {
  return profiles.map((profile) => {
    const { zoneName, hostedZoneId } = profile.dnsConfig;
    const existing = route53.findZone(zoneName);
    const id =
      existing?.zoneName === zoneName
        ? existing.hostedZoneId
        : route53.createHostedZone(zoneName, hostedZoneId ?? localZoneId(zoneName));
    return { ...profile, dnsConfig: { ...profile.dnsConfig, hostedZoneId: id } };
  });
}

function localZoneId(zoneName: string): string {
  return `Z${createHash('sha256').update(zoneName).digest('hex').slice(0, 13).toUpperCase()}`;
}
