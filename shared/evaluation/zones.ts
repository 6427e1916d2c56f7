/** Which hosted zones an evaluation publishes to, which names it owns there, and what it believes is there. */
import type { Profile } from '../profile/types.js';
import type { Change, RecordSet } from '../zone/record-set.js';
import { UnpublishableProfileError } from './errors.js';
import type { StoredStatus } from './stored-status.js';

export interface ZoneScope {
  readonly names: ReadonlySet<string>;
  /** What we believe is at those names; `undefined` when we do not know (then the zone is read). */
  readonly actual: readonly RecordSet[] | undefined;
}

/** A name whose changes Route 53 refused. */
export interface RejectedName {
  readonly name: string;
  readonly reasons: readonly string[];
  /** The changes Route 53 refused; none of them was applied. */
  readonly changes: readonly Change[];
}

/**
 * The zones of the evaluated and removed profiles. The "actual" side is what we last
 * published (from the status items); it is unknown for a name seen for the first time.
 */
export function groupByZone(
  profiles: readonly Profile[],
  removed: readonly string[],
  previous: ReadonlyMap<string, StoredStatus>,
): Map<string, ZoneScope> {
  const zones = new Map<string, { names: Set<string>; actual: RecordSet[]; known: boolean }>();
  const add = (zoneId: string, name: string, stored: StoredStatus | undefined) => {
    const zone = zones.get(zoneId) ?? { names: new Set<string>(), actual: [], known: true };
    zone.names.add(name);
    // A profile's name or zone may have changed since it was published: its old records then
    // live elsewhere and are handled by reading the zone (below) or by the removal path.
    if (stored !== undefined && stored.ownedName === name && stored.hostedZoneId === zoneId) {
      zone.actual.push(...stored.published);
    } else {
      zone.known = false;
    }
    zones.set(zoneId, zone);
  };
  for (const profile of profiles) {
    const zoneId = profile.dnsConfig.hostedZoneId;
    if (zoneId === undefined) {
      throw new UnpublishableProfileError(`profile "${profile.name}" has no dnsConfig.hostedZoneId`);
    }
    const stored = previous.get(profile.name);
    add(zoneId, profile.dnsConfig.fqdn, stored);
    if (
      stored !== undefined &&
      (stored.ownedName !== profile.dnsConfig.fqdn || stored.hostedZoneId !== zoneId)
    ) {
      add(stored.hostedZoneId, stored.ownedName, stored); // the old name: its records must go
    }
  }
  for (const name of removed) {
    const stored = previous.get(name);
    if (stored !== undefined) add(stored.hostedZoneId, stored.ownedName, stored);
  }
  return new Map(
    [...zones].map(([id, z]) => [id, { names: z.names, actual: z.known ? z.actual : undefined }]),
  );
}
