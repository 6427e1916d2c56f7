/**
 * The local Route 53's CIDR collections: locations and their CIDR blocks, the
 * collection version, and the list operations' NextToken paging.
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_ChangeCidrCollection.html
 */
import { randomUUID } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { CidrCollection } from '../../../shared/zone/record-set.js';
import { constraintError, invalidInput, route53Error } from './errors.js';
import { compareAscii } from './names.js';

export type CidrCollectionView = ReturnType<typeof collectionView>;

export interface CidrCollectionChangeInput {
  readonly locationName?: string;
  readonly action?: string;
  readonly cidrs: readonly string[];
}

export interface Paged<T> {
  readonly items: readonly T[];
  readonly nextToken?: string;
}

interface CidrCollectionState {
  readonly id: string;
  readonly name: string;
  readonly callerReference: string;
  version: number;
  /** Location name → CIDR blocks, in insertion order. */
  locations: Map<string, string[]>;
}

export class CidrCollections {
  private readonly collections = new Map<string, CidrCollectionState>();

  /** @param locationInUse whether record sets route to a location (its last block cannot go) */
  constructor(private readonly locationInUse: (collectionId: string, location: string) => boolean) {}

  /** The collection as the DNS server and the change batch rules read it; undefined when there is none. */
  view(id: string): CidrCollection | undefined {
    const collection = this.collections.get(id);
    if (collection === undefined) return undefined;
    return {
      id: collection.id,
      name: collection.name,
      locations: Object.fromEntries(copy(collection.locations)),
    };
  }

  create(request: { name: string; callerReference: string }): CidrCollectionView {
    if (!/^[0-9A-Za-z_-]{1,64}$/.test(request.name))
      throw invalidInput(`Invalid CIDR collection name: '${request.name}'`);
    for (const collection of this.collections.values()) {
      if (collection.name === request.name)
        throw route53Error(
          'CidrCollectionAlreadyExistsException',
          `A CIDR collection with the name ${request.name} already exists.`,
        );
    }
    // Route 53 sets the version to 1 when it creates a collection.
    const collection: CidrCollectionState = {
      id: randomUUID(),
      name: request.name,
      callerReference: request.callerReference,
      version: 1,
      locations: new Map(),
    };
    this.collections.set(collection.id, collection);
    return collectionView(collection);
  }

  /** Applies PUT / DELETE_IF_EXISTS location changes atomically. */
  change(id: string, changes: readonly CidrCollectionChangeInput[], collectionVersion?: number): void {
    const collection = this.collection(id);
    if (collectionVersion !== undefined && collectionVersion !== collection.version)
      throw route53Error(
        'CidrCollectionVersionMismatchException',
        `The CIDR collection version is ${collection.version}, not ${collectionVersion}.`,
      );
    if (changes.length === 0) throw invalidInput('ChangeCidrCollection needs at least one change');
    const locations = new Map(copy(collection.locations));
    for (const change of changes) this.apply(id, locations, change);
    collection.locations = locations;
    collection.version += 1;
  }

  list(nextToken?: string, maxResults?: number): Paged<CidrCollectionView> {
    const all = [...this.collections.values()]
      .sort((a, b) => compareAscii(a.name, b.name))
      .map(collectionView);
    return page(all, nextToken, maxResults);
  }

  listLocations(id: string, nextToken?: string, maxResults?: number): Paged<string> {
    return page([...this.collection(id).locations.keys()].sort(compareAscii), nextToken, maxResults);
  }

  listBlocks(
    id: string,
    locationName?: string,
    nextToken?: string,
    maxResults?: number,
  ): Paged<{ cidr: string; location: string }> {
    const collection = this.collection(id);
    if (locationName !== undefined && !collection.locations.has(locationName))
      throw route53Error(
        'NoSuchCidrLocationException',
        `The CIDR collection ${id} has no location ${locationName}.`,
      );
    const blocks = [...collection.locations]
      .filter(([location]) => locationName === undefined || location === locationName)
      .flatMap(([location, cidrs]) => cidrs.map((cidr) => ({ cidr, location })));
    return page(blocks, nextToken, maxResults);
  }

  private apply(id: string, locations: Map<string, string[]>, change: CidrCollectionChangeInput): void {
    const location = change.locationName ?? '';
    if (!/^[0-9A-Za-z_-]{1,16}$/.test(location))
      throw invalidInput(`Invalid CIDR location name: '${location}'`);
    const blocks = change.cidrs.map((cidr) => canonicalCidr(cidr));
    const current = locations.get(location) ?? [];
    if (change.action === 'PUT') {
      for (const block of blocks) {
        const owner = [...locations].find(([name, owned]) => name !== location && owned.includes(block));
        if (owner !== undefined)
          throw invalidInput(`CIDR block ${block} is already in location ${owner[0]} of collection ${id}`);
      }
      locations.set(location, [...current, ...blocks.filter((block) => !current.includes(block))]);
    } else if (change.action === 'DELETE_IF_EXISTS') {
      const left = current.filter((block) => !blocks.includes(block));
      if (left.length === 0 && current.length > 0 && this.locationInUse(id, location))
        throw route53Error(
          'CidrBlockInUseException',
          `Location ${location} of CIDR collection ${id} is used by resource record sets; it must keep at least one CIDR block.`,
        );
      if (left.length === 0) locations.delete(location);
      else locations.set(location, left);
    } else {
      throw constraintError(
        'changes.member.action',
        change.action,
        'Member must satisfy enum value set: [PUT, DELETE_IF_EXISTS]',
      );
    }
  }

  private collection(id: string): CidrCollectionState {
    const collection = this.collections.get(id);
    if (collection === undefined)
      throw route53Error('NoSuchCidrCollectionException', `The CIDR collection ${id} does not exist.`);
    return collection;
  }
}

function copy(locations: ReadonlyMap<string, readonly string[]>): [string, string[]][] {
  return [...locations].map(([location, blocks]) => [location, [...blocks]]);
}

function collectionView(collection: CidrCollectionState) {
  return {
    id: collection.id,
    arn: `arn:aws:route53:::cidrcollection/${collection.id}`,
    name: collection.name,
    version: collection.version,
  };
}

function canonicalCidr(cidr: string): string {
  const [address = '', prefix = '', extra] = cidr.split('/');
  const bits = Number(prefix);
  const valid =
    extra === undefined &&
    /^\d{1,3}$/.test(prefix) &&
    ((isIPv4(address) && bits >= 0 && bits <= 32) || (isIPv6(address) && bits >= 0 && bits <= 128));
  if (!valid) throw invalidInput(`Invalid CIDR block: '${cidr}'`);
  return `${address.toLowerCase()}/${bits}`;
}

function page<T>(all: readonly T[], nextToken: string | undefined, maxResults: number | undefined): Paged<T> {
  const from = nextToken === undefined ? 0 : Number(nextToken);
  if (!Number.isInteger(from) || from < 0) throw invalidInput(`Invalid NextToken: '${nextToken}'`);
  const size = Math.min(Math.max(maxResults ?? 100, 1), 100);
  const items = all.slice(from, from + size);
  return from + size < all.length ? { items, nextToken: String(from + size) } : { items };
}
