/**
 * The CIDR collection of a Subnet profile. It follows the definitions only (every endpoint
 * with ranges, whatever its status), so it changes on deploy, never on a health change.
 * `id` holds the collection NAME, as do the records' `cidrRoutingConfig.collectionId`:
 * Route 53 assigns ids, and the publisher swaps names for ids before diffing.
 */
import type { Profile } from '../profile/types.js';
import type { CidrCollection } from '../zone/record-set.js';
import { cidrCollectionNameOf, cidrLocationNameOf } from './cidr-names.js';

export function cidrCollectionOf(profile: Profile): CidrCollection | undefined {
  if (profile.trafficRoutingMethod !== 'Subnet') return undefined;
  const locations: Record<string, readonly string[]> = {};
  for (const endpoint of profile.endpoints) {
    if (endpoint.subnets.length === 0) continue;
    locations[cidrLocationNameOf(endpoint.name)] = endpoint.subnets.flatMap((range) => range.cidrs);
  }
  if (Object.keys(locations).length === 0) return undefined;
  const name = cidrCollectionNameOf(profile);
  return { id: name, name, locations };
}
