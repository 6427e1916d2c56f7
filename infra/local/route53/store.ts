/**
 * The local Route 53's state: hosted zones and their record sets, changes with
 * their PENDING → INSYNC status, and CIDR collections. No HTTP here: the
 * server (server.ts) decodes requests into these calls, and the local DNS
 * server reads zones in-process through the `ZoneReader` methods.
 */
import { randomUUID } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { Clock } from '../../../shared/clock.js';
import type { Change, CidrCollection, RecordSet } from '../../../shared/zone/record-set.js';
import type { ZoneReader, ZoneSnapshot } from '../zone-reader.js';
import { applyChangeBatch, type ZoneForBatch } from './change-batch.js';
import type { ChangeInput } from './change-input.js';
import {
  CidrBlockInUseError,
  CidrCollectionAlreadyExistsError,
  CidrCollectionVersionMismatchError,
  HostedZoneAlreadyExistsError,
  InvalidInputError,
  NoSuchChangeError,
  NoSuchCidrCollectionError,
  NoSuchCidrLocationError,
  NoSuchHostedZoneError,
  NoSuchHealthCheckError,
  PriorRequestNotCompleteError,
} from './errors.js';
import { parseChanges } from './field-constraints.js';
import { listRecordPage, sortRecords, type ListStart, type RecordPage } from './listing.js';
import { fromRoute53Name, toRoute53Name } from '../../../shared/zone/names.js';
import { compareAscii, isInZone, reversedLabelKey } from './names.js';
import { ROUTE53_NAME_SERVERS, ROUTE53_NS_TTL_SECONDS, ROUTE53_SOA, soaValue } from './apex.js';
import { isPublicRecordSet, type StoredRecordSet } from './stored-record.js';

export type ChangeStatus = 'PENDING' | 'INSYNC';

export interface ChangeView {
  readonly id: string;
  readonly status: ChangeStatus;
  readonly submittedAt: Date;
  readonly comment?: string;
}

export interface HostedZoneView {
  readonly id: string;
  /** Normalized (lower case, no trailing dot). */
  readonly name: string;
  readonly callerReference: string;
  readonly comment?: string;
  readonly recordCount: number;
  readonly nameServers: readonly string[];
}

export interface HostedZonePage {
  readonly zones: readonly HostedZoneView[];
  readonly isTruncated: boolean;
  readonly next?: { readonly dnsName: string; readonly hostedZoneId: string };
}

export interface CidrCollectionView {
  readonly id: string;
  readonly arn: string;
  readonly name: string;
  readonly version: number;
}

export interface CidrCollectionChangeInput {
  readonly locationName?: string;
  readonly action?: string;
  readonly cidrs: readonly string[];
}

export interface Paged<T> {
  readonly items: readonly T[];
  readonly nextToken?: string;
}

export type ChangeListener = (hostedZoneId: string, changes: Change[]) => void;

export interface StoreOptions {
  readonly clock: Clock;
  /** How long a change stays PENDING before it is INSYNC. @default 0 */
  readonly changeDelayMs?: number;
  /** Reject a change to a zone with `PriorRequestNotComplete` while its previous change is PENDING. @default false */
  readonly rejectWhilePending?: boolean;
  /** Whether a health check exists, for records that name one. @default - no health check exists */
  readonly healthCheckExists?: (id: string) => boolean;
}

interface ZoneState {
  readonly id: string;
  readonly name: string;
  readonly callerReference: string;
  readonly comment?: string;
  records: StoredRecordSet[];
  lastChangeId?: string;
}

interface ChangeState {
  readonly id: string;
  readonly submittedAt: number;
  readonly comment?: string;
}

interface CidrCollectionState {
  readonly id: string;
  readonly name: string;
  readonly callerReference: string;
  version: number;
  /** Location name → CIDR blocks, in insertion order. */
  locations: Map<string, string[]>;
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export class LocalRoute53Store implements ZoneReader {
  private readonly zones = new Map<string, ZoneState>();
  private readonly changes = new Map<string, ChangeState>();
  private readonly collections = new Map<string, CidrCollectionState>();
  private readonly listeners = new Set<ChangeListener>();
  private readonly clock: Clock;
  private readonly changeDelayMs: number;
  private readonly rejectWhilePending: boolean;
  private readonly healthCheckExists: (id: string) => boolean;
  private sequence = 0;

  constructor(options: StoreOptions) {
    this.clock = options.clock;
    this.changeDelayMs = options.changeDelayMs ?? 0;
    this.rejectWhilePending = options.rejectWhilePending ?? false;
    this.healthCheckExists = options.healthCheckExists ?? (() => false);
  }

  // --- hosted zones -------------------------------------------------------

  createHostedZone(request: { name: string; callerReference: string; comment?: string; id?: string }): {
    zone: HostedZoneView;
    change: ChangeView;
  } {
    const name = fromRoute53Name(request.name);
    if (name === '' || name.length > 1024)
      throw new InvalidInputError(`Invalid hosted zone name: '${request.name}'`);
    for (const zone of this.zones.values()) {
      if (zone.callerReference === request.callerReference)
        throw new HostedZoneAlreadyExistsError(name, request.callerReference);
    }
    const id = request.id ?? this.newId('Z', 13);
    if (this.zones.has(id))
      throw new InvalidInputError(`A hosted zone with ID ${id} already exists in the local Route 53`);
    const zone: ZoneState = {
      id,
      name,
      callerReference: request.callerReference,
      ...(request.comment === undefined ? {} : { comment: request.comment }),
      records: apexRecords(name),
    };
    this.zones.set(id, zone);
    return { zone: this.zoneView(zone), change: this.recordChange(request.comment) };
  }

  getHostedZone(id: string): HostedZoneView {
    return this.zoneView(this.zone(id));
  }

  /** Zones in Route 53's ListHostedZonesByName order (reversed labels, then id), from (dnsName, hostedZoneId). */
  listHostedZonesByName(request: {
    dnsName?: string;
    hostedZoneId?: string;
    maxItems?: number;
  }): HostedZonePage {
    if (request.hostedZoneId !== undefined && request.dnsName === undefined) {
      throw new InvalidInputError('If you specify HostedZoneId, you must also specify DNSName');
    }
    const order = (zone: { name: string; id: string }) => [reversedLabelKey(zone.name), zone.id] as const;
    const sorted = [...this.zones.values()].sort(
      (a, b) => compareAscii(order(a)[0], order(b)[0]) || compareAscii(a.id, b.id),
    );
    const start =
      request.dnsName === undefined
        ? undefined
        : ([reversedLabelKey(fromRoute53Name(request.dnsName)), request.hostedZoneId ?? ''] as const);
    const from =
      start === undefined
        ? 0
        : sorted.findIndex(
            (zone) =>
              compareAscii(order(zone)[0], start[0]) > 0 ||
              (order(zone)[0] === start[0] && compareAscii(zone.id, start[1]) >= 0),
          );
    const remaining = from < 0 ? [] : sorted.slice(from);
    const size = Math.min(Math.max(request.maxItems ?? 100, 1), 100);
    const following = remaining[size];
    return {
      zones: remaining.slice(0, size).map((zone) => this.zoneView(zone)),
      isTruncated: following !== undefined,
      ...(following === undefined ? {} : { next: { dnsName: following.name, hostedZoneId: following.id } }),
    };
  }

  // --- record sets --------------------------------------------------------

  changeResourceRecordSets(
    hostedZoneId: string,
    inputs: readonly ChangeInput[],
    comment?: string,
  ): ChangeView {
    const zone = this.zone(hostedZoneId);
    if (
      this.rejectWhilePending &&
      zone.lastChangeId !== undefined &&
      this.statusOf(this.changes.get(zone.lastChangeId)) === 'PENDING'
    ) {
      throw new PriorRequestNotCompleteError();
    }
    const changes = parseChanges(inputs);
    refuseUnknownHealthChecks(changes, this.healthCheckExists);
    zone.records = applyChangeBatch(
      {
        zone: batchZone(zone),
        cidrCollection: (id) => this.cidrCollection(id),
        otherZone: (id) => this.otherZone(id),
      },
      changes,
    );
    const change = this.recordChange(comment);
    zone.lastChangeId = change.id;
    for (const listener of this.listeners) listener(zone.id, changes);
    return change;
  }

  listResourceRecordSets(hostedZoneId: string, start: ListStart, maxItems?: number): RecordPage {
    const zone = this.zone(hostedZoneId);
    if (start.type !== undefined && start.name === undefined)
      throw new InvalidInputError('The input is not valid: you specified Type but not Name.');
    if (start.identifier !== undefined && start.type === undefined)
      throw new InvalidInputError('The input is not valid: you specified Identifier but not Type.');
    const normalizedStart: ListStart = {
      ...start,
      ...(start.name === undefined ? {} : { name: fromRoute53Name(start.name) }),
    };
    return listRecordPage(zone.records, normalizedStart, maxItems ?? 300);
  }

  getChange(id: string): ChangeView {
    const change = this.changes.get(id);
    if (change === undefined) throw new NoSuchChangeError(id);
    return this.changeView(change);
  }

  /** Current content of a zone (A, AAAA, CNAME record sets; names without trailing dot). */
  records(hostedZoneId: string): RecordSet[] {
    return sortRecords(this.zone(hostedZoneId).records).filter(isPublicRecordSet);
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // --- ZoneReader ----------------------------------------------------------

  findZone(name: string): ZoneSnapshot | undefined {
    const normalized = fromRoute53Name(name);
    let best: ZoneState | undefined;
    for (const zone of this.zones.values()) {
      if (isInZone(normalized, zone.name) && (best === undefined || zone.name.length > best.name.length))
        best = zone;
    }
    return best === undefined
      ? undefined
      : {
          hostedZoneId: best.id,
          zoneName: best.name,
          records: sortRecords(best.records).filter(isPublicRecordSet),
        };
  }

  cidrCollection(id: string): CidrCollection | undefined {
    const collection = this.collections.get(id);
    if (collection === undefined) return undefined;
    return {
      id: collection.id,
      name: collection.name,
      locations: Object.fromEntries(
        [...collection.locations].map(([location, blocks]) => [location, [...blocks]]),
      ),
    };
  }

  // --- CIDR collections ----------------------------------------------------

  createCidrCollection(request: { name: string; callerReference: string }): CidrCollectionView {
    if (!/^[0-9A-Za-z_-]{1,64}$/.test(request.name))
      throw new InvalidInputError(`Invalid CIDR collection name: '${request.name}'`);
    for (const collection of this.collections.values()) {
      if (collection.name === request.name) throw new CidrCollectionAlreadyExistsError(request.name);
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

  /** Applies PUT / DELETE_IF_EXISTS location changes atomically; returns the change id. */
  changeCidrCollection(
    id: string,
    changes: readonly CidrCollectionChangeInput[],
    collectionVersion?: number,
  ): string {
    const collection = this.collection(id);
    if (collectionVersion !== undefined && collectionVersion !== collection.version)
      throw new CidrCollectionVersionMismatchError(collectionVersion, collection.version);
    if (changes.length === 0) throw new InvalidInputError('ChangeCidrCollection needs at least one change');
    const locations = new Map<string, string[]>(
      [...collection.locations].map(([location, blocks]) => [location, [...blocks]]),
    );
    for (const change of changes) {
      const location = change.locationName ?? '';
      if (!/^[0-9A-Za-z_-]{1,16}$/.test(location))
        throw new InvalidInputError(`Invalid CIDR location name: '${location}'`);
      const blocks = change.cidrs.map((cidr) => canonicalCidr(cidr));
      const current = locations.get(location) ?? [];
      if (change.action === 'PUT') {
        for (const block of blocks) {
          const owner = [...locations].find(([name, owned]) => name !== location && owned.includes(block));
          if (owner !== undefined)
            throw new InvalidInputError(
              `CIDR block ${block} is already in location ${owner[0]} of collection ${id}`,
            );
        }
        locations.set(location, [...current, ...blocks.filter((block) => !current.includes(block))]);
      } else if (change.action === 'DELETE_IF_EXISTS') {
        const left = current.filter((block) => !blocks.includes(block));
        if (left.length === 0 && current.length > 0 && this.locationInUse(id, location))
          throw new CidrBlockInUseError(id, location);
        if (left.length === 0) locations.delete(location);
        else locations.set(location, left);
      } else {
        throw new InvalidInputError(
          `Value '${change.action}' at 'changes.member.action' failed to satisfy constraint: Member must satisfy enum value set: [PUT, DELETE_IF_EXISTS]`,
        );
      }
    }
    collection.locations = locations;
    collection.version += 1;
    return this.recordChange(undefined).id;
  }

  listCidrCollections(nextToken?: string, maxResults?: number): Paged<CidrCollectionView> {
    const all = [...this.collections.values()]
      .sort((a, b) => compareAscii(a.name, b.name))
      .map(collectionView);
    return page(all, nextToken, maxResults);
  }

  listCidrLocations(id: string, nextToken?: string, maxResults?: number): Paged<string> {
    return page([...this.collection(id).locations.keys()].sort(compareAscii), nextToken, maxResults);
  }

  listCidrBlocks(
    id: string,
    locationName?: string,
    nextToken?: string,
    maxResults?: number,
  ): Paged<{ cidr: string; location: string }> {
    const collection = this.collection(id);
    if (locationName !== undefined && !collection.locations.has(locationName))
      throw new NoSuchCidrLocationError(id, locationName);
    const blocks = [...collection.locations]
      .filter(([location]) => locationName === undefined || location === locationName)
      .flatMap(([location, cidrs]) => cidrs.map((cidr) => ({ cidr, location })));
    return page(blocks, nextToken, maxResults);
  }

  // --- internals ---------------------------------------------------------

  private zone(id: string): ZoneState {
    const zone = this.zones.get(id);
    if (zone === undefined) throw new NoSuchHostedZoneError(id);
    return zone;
  }

  private otherZone(id: string): ZoneForBatch | undefined {
    const zone = this.zones.get(id);
    return zone === undefined ? undefined : batchZone(zone);
  }

  private collection(id: string): CidrCollectionState {
    const collection = this.collections.get(id);
    if (collection === undefined) throw new NoSuchCidrCollectionError(id);
    return collection;
  }

  private locationInUse(collectionId: string, location: string): boolean {
    return [...this.zones.values()].some((zone) =>
      zone.records.some(
        (record) =>
          record.cidrRoutingConfig?.collectionId === collectionId &&
          record.cidrRoutingConfig.locationName === location,
      ),
    );
  }

  private recordChange(comment: string | undefined): ChangeView {
    const change: ChangeState = {
      id: this.newId('C', 13),
      submittedAt: this.clock.now(),
      ...(comment === undefined ? {} : { comment }),
    };
    this.changes.set(change.id, change);
    // Route 53 answers every submitted change as PENDING; GetChange reports INSYNC once the delay has passed.
    return { ...this.changeView(change), status: 'PENDING' };
  }

  private statusOf(change: ChangeState | undefined): ChangeStatus {
    if (change === undefined) return 'INSYNC';
    return this.clock.now() - change.submittedAt >= this.changeDelayMs ? 'INSYNC' : 'PENDING';
  }

  private changeView(change: ChangeState): ChangeView {
    return {
      id: change.id,
      status: this.statusOf(change),
      submittedAt: new Date(change.submittedAt),
      ...(change.comment === undefined ? {} : { comment: change.comment }),
    };
  }

  private zoneView(zone: ZoneState): HostedZoneView {
    return {
      id: zone.id,
      name: zone.name,
      callerReference: zone.callerReference,
      ...(zone.comment === undefined ? {} : { comment: zone.comment }),
      recordCount: zone.records.length,
      nameServers: ROUTE53_NAME_SERVERS,
    };
  }

  /** Route 53-looking ids (`Z…`, `C…`): a prefix, a sequence number, then letters and digits. */
  private newId(prefix: string, length: number): string {
    this.sequence += 1;
    const sequence = this.sequence.toString(36).toUpperCase();
    const filler = randomUUID().replace(/-/g, '');
    let id = `${prefix}${sequence}`;
    for (let index = 0; id.length < length + 1; index += 1)
      id += ID_ALPHABET[parseInt(filler.slice(index * 2, index * 2 + 2), 16) % ID_ALPHABET.length];
    return id;
  }
}

/**
 * A record created or upserted with a HealthCheckId must name an existing health check: Route 53
 * answers NoSuchHealthCheck (404), one of ChangeResourceRecordSets' errors in its API model.
 */
function refuseUnknownHealthChecks(changes: readonly Change[], exists: (id: string) => boolean): void {
  const missing = changes.find(
    ({ action, recordSet }) =>
      action !== 'DELETE' && recordSet.healthCheckId !== undefined && !exists(recordSet.healthCheckId),
  );
  if (missing === undefined) return;
  const { action, recordSet } = missing;
  throw new NoSuchHealthCheckError(
    recordSet.healthCheckId ?? '',
    `in Change with [Action=${action}, Name=${toRoute53Name(recordSet.name)}, Type=${recordSet.type}, SetIdentifier=${recordSet.setIdentifier ?? 'null'}]`,
  );
}

function batchZone(zone: ZoneState): ZoneForBatch {
  return { hostedZoneId: zone.id, zoneName: zone.name, records: zone.records };
}

/** The SOA and NS record sets Route 53 creates at the apex of every new hosted zone. */
function apexRecords(zoneName: string): StoredRecordSet[] {
  return [
    {
      name: zoneName,
      type: 'NS',
      ttl: ROUTE53_NS_TTL_SECONDS,
      values: ROUTE53_NAME_SERVERS.map((server) => `${server}.`),
    },
    { name: zoneName, type: 'SOA', ttl: ROUTE53_SOA.ttl, values: [soaValue()] },
  ];
}

function collectionView(collection: CidrCollectionState): CidrCollectionView {
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
  if (!valid) throw new InvalidInputError(`Invalid CIDR block: '${cidr}'`);
  return `${address.toLowerCase()}/${bits}`;
}

function page<T>(all: readonly T[], nextToken: string | undefined, maxResults: number | undefined): Paged<T> {
  const from = nextToken === undefined ? 0 : Number(nextToken);
  if (!Number.isInteger(from) || from < 0) throw new InvalidInputError(`Invalid NextToken: '${nextToken}'`);
  const size = Math.min(Math.max(maxResults ?? 100, 1), 100);
  const items = all.slice(from, from + size);
  return from + size < all.length ? { items, nextToken: String(from + size) } : { items };
}
