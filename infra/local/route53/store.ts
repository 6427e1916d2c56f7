/**
 * The local Route 53's state: hosted zones and their record sets, changes with
 * their PENDING → INSYNC status, and CIDR collections. No HTTP here: the
 * server (server.ts) decodes requests into these calls, and the local DNS
 * server reads zones in-process through the `ZoneReader` methods.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../../shared/clock.js';
import type { Change, CidrCollection, RecordSet } from '../../../shared/zone/record-set.js';
import type { ZoneReader, ZoneSnapshot } from '../zone-reader.js';
import { applyChangeBatch, type ZoneForBatch } from './change-batch.js';
import type { ChangeInput } from './change-input.js';
import { ChangeLog, route53Ids, type ChangeView } from './change-log.js';
import { CidrCollections, type CidrCollectionChangeInput } from './cidr-collections.js';
import { invalidInput, route53Error } from './errors.js';
import { parseChanges } from './field-constraints.js';
import { listRecordPage, pageFrom, sortRecords, type ListStart, type RecordPage } from './listing.js';
import { fromRoute53Name, toRoute53Name } from '../../../shared/zone/names.js';
import { compareAscii, isInZone, reversedLabelKey } from './names.js';
import { ROUTE53_NAME_SERVERS, ROUTE53_NS_TTL_SECONDS, ROUTE53_SOA, soaValue } from './apex.js';
import { isPublicRecordSet, type StoredRecordSet } from './stored-record.js';

export type HostedZoneView = ReturnType<typeof zoneView>;

export type ChangeListener = (hostedZoneId: string, changes: Change[]) => void;

export interface StoreOptions {
  /** How long a change stays PENDING before GetChange reports INSYNC. @default 0 */
  readonly changeDelayMs?: number;
  /** Answer `PriorRequestNotComplete` to a change of a zone whose previous change is still PENDING. @default false */
  readonly rejectWhilePending?: boolean;
  readonly clock: Clock;
  /** Whether a health check exists, for records that name one. */
  readonly healthCheckExists: (id: string) => boolean;
}

interface ZoneState {
  readonly id: string;
  readonly name: string;
  readonly callerReference: string;
  records: StoredRecordSet[];
  lastChangeId?: string;
}

export class LocalRoute53Store implements ZoneReader {
  private readonly zones = new Map<string, ZoneState>();
  private readonly listeners = new Set<ChangeListener>();
  private readonly newId = route53Ids();
  private readonly changes: ChangeLog;
  readonly cidrCollections = new CidrCollections((id, location) => this.locationInUse(id, location));

  constructor(private readonly options: StoreOptions) {
    this.changes = new ChangeLog(options.clock, options.changeDelayMs ?? 0, this.newId);
  }

  // --- hosted zones -------------------------------------------------------

  /** Creates a public hosted zone with Route 53's apex records (in-process: nothing of ours sends CreateHostedZone). */
  createHostedZone(zoneName: string, id = this.newId('Z')): string {
    const name = fromRoute53Name(zoneName);
    if (name === '' || name.length > 1024) throw invalidInput(`Invalid hosted zone name: '${zoneName}'`);
    if (this.zones.has(id))
      throw invalidInput(`A hosted zone with ID ${id} already exists in the local Route 53`);
    this.zones.set(id, { id, name, callerReference: randomUUID(), records: apexRecords(name) });
    return id;
  }

  getHostedZone(id: string) {
    return zoneView(this.zone(id));
  }

  /** Zones in Route 53's ListHostedZonesByName order (reversed labels, then id), from (dnsName, hostedZoneId). */
  listHostedZonesByName(request: { dnsName?: string; hostedZoneId?: string; maxItems?: number }) {
    if (request.hostedZoneId !== undefined && request.dnsName === undefined) {
      throw invalidInput('If you specify HostedZoneId, you must also specify DNSName');
    }
    const key = (zone: { name: string; id: string }) => ({ name: reversedLabelKey(zone.name), id: zone.id });
    const compare = (a: { name: string; id: string }, b: { name: string; id: string }) =>
      compareAscii(a.name, b.name) || compareAscii(a.id, b.id);
    const sorted = [...this.zones.values()].sort((a, b) => compare(key(a), key(b)));
    const start =
      request.dnsName === undefined
        ? undefined
        : { name: fromRoute53Name(request.dnsName), id: request.hostedZoneId ?? '' };
    const size = Math.min(Math.max(request.maxItems ?? 100, 1), 100);
    const { items, following } = pageFrom(
      sorted,
      start && ((zone) => compare(key(zone), key(start)) >= 0),
      size,
    );
    return {
      zones: items.map(zoneView),
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
    if (this.options.rejectWhilePending === true && this.changes.isPending(zone.lastChangeId))
      throw route53Error(
        'PriorRequestNotComplete',
        'The request was rejected because Route 53 was still processing a prior request.',
      );
    const changes = parseChanges(inputs);
    refuseUnknownHealthChecks(changes, this.options.healthCheckExists);
    zone.records = applyChangeBatch(
      {
        zone: batchZone(zone),
        cidrCollection: (id) => this.cidrCollections.view(id),
        otherZone: (id) => this.otherZone(id),
      },
      changes,
    );
    const change = this.changes.record(comment);
    zone.lastChangeId = change.id;
    for (const listener of this.listeners) listener(zone.id, changes);
    return change;
  }

  listResourceRecordSets(hostedZoneId: string, start: ListStart, maxItems: number): RecordPage {
    const zone = this.zone(hostedZoneId);
    if (start.type !== undefined && start.name === undefined)
      throw invalidInput('The input is not valid: you specified Type but not Name.');
    if (start.identifier !== undefined && start.type === undefined)
      throw invalidInput('The input is not valid: you specified Identifier but not Type.');
    const normalizedStart: ListStart = {
      ...start,
      ...(start.name === undefined ? {} : { name: fromRoute53Name(start.name) }),
    };
    return listRecordPage(zone.records, normalizedStart, maxItems);
  }

  getChange(id: string): ChangeView {
    return this.changes.get(id);
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
    return this.cidrCollections.view(id);
  }

  // --- CIDR collections: reads and creation are `cidrCollections` ----------

  /** Applies PUT / DELETE_IF_EXISTS location changes atomically; returns the change id. */
  changeCidrCollection(
    id: string,
    changes: readonly CidrCollectionChangeInput[],
    collectionVersion?: number,
  ): string {
    this.cidrCollections.change(id, changes, collectionVersion);
    return this.changes.record(undefined).id;
  }

  // --- internals ---------------------------------------------------------

  private zone(id: string): ZoneState {
    const zone = this.zones.get(id);
    if (zone === undefined) throw route53Error('NoSuchHostedZone', `No hosted zone found with ID: ${id}`);
    return zone;
  }

  private otherZone(id: string): ZoneForBatch | undefined {
    const zone = this.zones.get(id);
    return zone === undefined ? undefined : batchZone(zone);
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
  throw route53Error(
    'NoSuchHealthCheck',
    `No health check exists with the ID ${recordSet.healthCheckId ?? ''} in Change with [Action=${action}, Name=${toRoute53Name(recordSet.name)}, Type=${recordSet.type}, SetIdentifier=${recordSet.setIdentifier ?? 'null'}].`,
  );
}

function zoneView(zone: ZoneState) {
  return {
    id: zone.id,
    /** Normalized (lower case, no trailing dot). */
    name: zone.name,
    callerReference: zone.callerReference,
    recordCount: zone.records.length,
    nameServers: ROUTE53_NAME_SERVERS,
  };
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
