/** CIDR collections of Subnet profiles: which need a Route 53 call, and how records reference them. */
import type { Profile } from '../profile/types.js';
import type { CidrCollection, RecordSet } from '../zone/record-set.js';
import type { StoredStatus } from './stored-status.js';

/** The planned collections split into those published as they are (with their ids) and those to create or update. */
export function collectionsToSync(
  desired: readonly CidrCollection[],
  profiles: readonly Profile[],
  previous: ReadonlyMap<string, StoredStatus>,
): { unchanged: CidrCollection[]; changed: CidrCollection[] } {
  const known = new Map(
    profiles.flatMap((p) => previous.get(p.name)?.cidrCollections ?? []).map((c) => [c.name, c] as const),
  );
  const unchanged: CidrCollection[] = [];
  const changed: CidrCollection[] = [];
  for (const collection of desired) {
    const stored = known.get(collection.name);
    if (stored !== undefined && sameLocations(stored, collection)) unchanged.push(stored);
    else changed.push(collection);
  }
  return { unchanged, changed };
}

function sameLocations(a: CidrCollection, b: CidrCollection): boolean {
  const key = (c: CidrCollection) =>
    JSON.stringify(
      Object.keys(c.locations)
        .sort()
        .map((name) => [name, [...(c.locations[name] ?? [])].sort()]),
    );
  return key(a) === key(b);
}

/** The planner names CIDR collections; Route 53 records reference them by id. */
export function withCollectionIds(
  records: readonly RecordSet[],
  collections: readonly CidrCollection[],
): RecordSet[] {
  const ids = new Map(collections.map((c) => [c.name, c.id]));
  return records.map((record) => {
    if (record.cidrRoutingConfig === undefined) return record;
    const id = ids.get(record.cidrRoutingConfig.collectionId) ?? record.cidrRoutingConfig.collectionId;
    return { ...record, cidrRoutingConfig: { ...record.cidrRoutingConfig, collectionId: id } };
  });
}
