/** Binds every profile to the id of its hosted zone. */
import type { Profile } from '../../shared/profile/types.js';
import { MissingHostedZoneError } from './errors.js';

/**
 * Fills each profile's `dnsConfig.hostedZoneId` from `hostedZones` (zone name → id) where the
 * definition has none; every profile without a zone id is reported at once.
 */
export function bindHostedZones(
  profiles: readonly Profile[],
  hostedZones: Readonly<Record<string, string>> = {},
): Profile[] {
  const byZone = new Map(Object.entries(hostedZones).map(([zone, id]) => [normalizeZoneName(zone), id]));
  const missing: { name: string; zoneName: string }[] = [];
  const bound = profiles.map((profile) => {
    const id = profile.dnsConfig.hostedZoneId ?? byZone.get(profile.dnsConfig.zoneName);
    if (id === undefined || id === '') {
      missing.push({ name: profile.name, zoneName: profile.dnsConfig.zoneName });
      return profile;
    }
    return { ...profile, dnsConfig: { ...profile.dnsConfig, hostedZoneId: bareHostedZoneId(id) } };
  });
  if (missing.length > 0) throw new MissingHostedZoneError(missing);
  return bound;
}

/** `/hostedzone/Z123` and `Z123` name the same zone; IAM ARNs want the bare id. */
function bareHostedZoneId(id: string): string {
  return id.replace(/^\/?hostedzone\//, '');
}

function normalizeZoneName(zone: string): string {
  return zone.toLowerCase().replace(/\.$/, '');
}
