/**
 * Names in Route 53 CIDR routing. A Subnet profile owns the collection `tm-<profile>`, with
 * one location per endpoint that has ranges. Route 53 allows `[0-9A-Za-z_-]` only, at most
 * 64 characters for a collection and 16 for a location; longer names keep a prefix and get
 * `_` plus a hash of the full name. Profile and endpoint names never contain `_`, so a
 * shortened name can never equal a name that was kept as written.
 */
import { fnv1a32 } from '../hash/fnv1a.js';
import type { Profile } from '../profile/types.js';

export const DEFAULT_CIDR_LOCATION = '*';
const MAX_COLLECTION_NAME = 64;
const MAX_LOCATION_NAME = 16;
const HASH_LENGTH = 6;

export function cidrCollectionNameOf(profile: Profile): string {
  return fitName(`tm-${profile.name}`, MAX_COLLECTION_NAME);
}

export function cidrLocationNameOf(endpointName: string): string {
  return fitName(endpointName, MAX_LOCATION_NAME);
}

function fitName(name: string, max: number): string {
  const safe = name.replace(/[^0-9A-Za-z_-]/g, '-');
  if (safe === name && name.length <= max) return name;
  return `${safe.slice(0, max - HASH_LENGTH - 1)}_${shortHash(name)}`;
}

/** FNV-1a as HASH_LENGTH base-36 digits. */
function shortHash(text: string): string {
  return (fnv1a32(text) % 36 ** HASH_LENGTH).toString(36).padStart(HASH_LENGTH, '0');
}
