/**
 * The second stage of ChangeResourceRecordSets: Route 53's rules for a batch,
 * applied to a working copy of the zone change by change, in order, so the
 * batch is all or nothing. Every broken rule is collected, then reported in one
 * `InvalidChangeBatch` (Route 53 lists all of them in one error).
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_ChangeResourceRecordSets.html
 * The request's size limits are the diff's own (shared/zone/batch-limits.ts).
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { Change, CidrCollection, RecordSet } from '../../../shared/zone/record-set.js';
import { limitViolations } from '../../../shared/zone/batch-limits.js';
import { invalidChangeBatch } from './errors.js';
import { fromRoute53Name, toRoute53Name } from '../../../shared/zone/names.js';
import { isInZone } from './names.js';
import { recordKey, type StoredRecordSet } from './stored-record.js';

export interface ZoneForBatch {
  readonly hostedZoneId: string;
  readonly zoneName: string;
  readonly records: readonly StoredRecordSet[];
}

export interface BatchContext {
  readonly zone: ZoneForBatch;
  readonly cidrCollection: (id: string) => CidrCollection | undefined;
  /** Another hosted zone of this local Route 53 (an alias into it is refused); `undefined` when not one. */
  readonly otherZone: (hostedZoneId: string) => ZoneForBatch | undefined;
}

type RoutingKind =
  'simple' | 'weighted' | 'latency' | 'failover' | 'geolocation' | 'multivalue answer' | 'cidr';

/** Applies the batch to a copy of the zone; returns the new content or throws an `InvalidChangeBatch` API error. */
export function applyChangeBatch(context: BatchContext, changes: readonly Change[]): StoredRecordSet[] {
  const limits = limitViolations(changes);
  if (limits.length > 0) throw invalidChangeBatch(limits);
  const working = new Map(context.zone.records.map((record) => [recordKey(record), record] as const));
  const messages: string[] = [];
  for (const change of changes) {
    const problems = changeProblems(context, working, change);
    if (problems.length > 0) {
      messages.push(...problems);
      continue;
    }
    const key = recordKey(change.recordSet);
    if (change.action === 'DELETE') working.delete(key);
    else working.set(key, change.recordSet);
  }
  if (messages.length > 0) throw invalidChangeBatch(messages);
  return [...working.values()];
}

function describe(record: RecordSet): string {
  const identifier = record.setIdentifier === undefined ? '' : `, set-identifier='${record.setIdentifier}'`;
  return `resource record set [name='${toRoute53Name(record.name)}', type='${record.type}'${identifier}]`;
}

function rrsetLabel(record: RecordSet): string {
  const identifier = record.setIdentifier === undefined ? '' : `, SetIdentifier ${record.setIdentifier}`;
  return `RRSet with DNS name ${toRoute53Name(record.name)}, type ${record.type}${identifier}`;
}

function changeProblems(
  context: BatchContext,
  working: Map<string, StoredRecordSet>,
  change: Change,
): string[] {
  const { zone } = context;
  const record = change.recordSet;
  if (!isInZone(record.name, zone.zoneName)) {
    return [
      `RRSet with DNS name ${toRoute53Name(record.name)} is not permitted in zone ${toRoute53Name(zone.zoneName)}`,
    ];
  }
  const existing = working.get(recordKey(record));
  if (change.action === 'DELETE') {
    if (existing === undefined) return [`Tried to delete ${describe(record)} but it was not found`];
    if (canonicalJson(existing) !== canonicalJson(record))
      return [`Tried to delete ${describe(record)} but the values provided do not match the current values`];
    return [];
  }
  if (change.action === 'CREATE' && existing !== undefined)
    return [`Tried to create ${describe(record)} but it already exists`];
  const valueProblems = valueProblemsOf(record);
  if (valueProblems.length > 0) return valueProblems;
  if (record.type === 'CNAME' && record.name === zone.zoneName) {
    return [
      `RRSet of type CNAME with DNS name ${toRoute53Name(record.name)} is not permitted at apex in zone ${toRoute53Name(zone.zoneName)}`,
    ];
  }
  const others = [...working.values()].filter(
    (other) => other.name === record.name && recordKey(other) !== recordKey(record),
  );
  return [
    ...cnameConflicts(zone, record, others),
    ...routingConflicts(context, record, others),
    ...aliasProblems(context, working, record),
  ];
}

/** What a value of each type must be, and how Route 53's parser names the problem when it is not. */
const VALUE_RULES: Partial<
  Record<string, readonly [valid: (value: string) => boolean, problem: string, what: string]>
> = {
  A: [isIPv4, 'ARRDATAIllegalIPv4Address', 'a valid IPv4 address'],
  AAAA: [isIPv6, 'AAAARRDATAIllegalIPv6Address', 'a valid IPv6 address'],
  CNAME: [
    (value) =>
      /^(\*\.)?([a-z0-9_]([a-z0-9_-]*[a-z0-9_])?\.)*[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?\.?$/i.test(value),
    'DomainNameInvalid',
    'a valid domain name',
  ],
};

function valueProblemsOf(record: RecordSet): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const rule = VALUE_RULES[record.type];
  for (const value of record.values) {
    const canonical = canonicalValue(record.type, value);
    if (seen.has(canonical)) problems.push(`Duplicate Resource Record: '${value}'`);
    seen.add(canonical);
    if (rule !== undefined && !rule[0](value))
      problems.push(
        `Invalid Resource Record: 'FATAL problem: ${rule[1]} (Value is not ${rule[2]}) encountered with '${value}''`,
      );
  }
  if (record.type === 'CNAME' && record.values.length > 1) {
    problems.push(
      `${rrsetLabel(record)} has ${record.values.length} values, but a CNAME record set has exactly one`,
    );
  }
  if (record.multiValueAnswer !== undefined && record.aliasTarget !== undefined) {
    problems.push(`${rrsetLabel(record)} cannot be a multivalue answer alias record`);
  }
  return problems;
}

function cnameConflicts(zone: ZoneForBatch, record: RecordSet, others: readonly StoredRecordSet[]): string[] {
  const otherTypes = others.filter((other) => other.type !== record.type);
  if (record.type === 'CNAME' && otherTypes.length > 0) {
    return [
      `RRSet of type CNAME with DNS name ${toRoute53Name(record.name)} is not permitted as it conflicts with other records with the same DNS name in zone ${toRoute53Name(zone.zoneName)}`,
    ];
  }
  if (record.type !== 'CNAME' && otherTypes.some((other) => other.type === 'CNAME')) {
    return [
      `RRSet of type ${record.type} with DNS name ${toRoute53Name(record.name)} is not permitted because a conflicting RRSet of type CNAME with the same DNS name already exists in zone ${toRoute53Name(zone.zoneName)}`,
    ];
  }
  return [];
}

function routingKindOf(
  record: Pick<
    RecordSet,
    'weight' | 'region' | 'failover' | 'geoLocation' | 'multiValueAnswer' | 'cidrRoutingConfig'
  >,
): RoutingKind {
  if (record.weight !== undefined) return 'weighted';
  if (record.region !== undefined) return 'latency';
  if (record.failover !== undefined) return 'failover';
  if (record.geoLocation !== undefined) return 'geolocation';
  if (record.multiValueAnswer !== undefined) return 'multivalue answer';
  if (record.cidrRoutingConfig !== undefined) return 'cidr';
  return 'simple';
}

/** What two record sets of one name, type and routing kind may not share, and how Route 53 names it. */
const SLOTS: Partial<Record<RoutingKind, (record: StoredRecordSet) => readonly [key: string, what: string]>> =
  {
    failover: ({ failover }) => [`${failover}`, `failover ${failover} RRSet`],
    latency: ({ region }) => [`${region}`, `latency RRSet for region ${region}`],
    geolocation: (record) => [geoKey(record), `geolocation RRSet for location ${geoKey(record)}`],
    cidr: ({ cidrRoutingConfig: cidr }) => [
      `${cidr?.locationName}`,
      `CIDR RRSet for location ${cidr?.locationName}`,
    ],
  };

function routingConflicts(
  context: BatchContext,
  record: RecordSet,
  others: readonly StoredRecordSet[],
): string[] {
  const sameType = others.filter((other) => other.type === record.type);
  const kind = routingKindOf(record);
  if (sameType.length > 0 && kind === 'simple')
    return [`${rrsetLabel(record)} cannot be created as other RRSets exist with the same name and type.`];
  if (sameType.some((other) => routingKindOf(other) !== kind))
    return [
      `${rrsetLabel(record)} cannot be created as a non-${kind} set exists with the same name and type.`,
    ];
  const cidr = kind === 'cidr' ? cidrProblems(context, record, sameType) : [];
  const slot = SLOTS[kind];
  if (cidr.length > 0 || slot === undefined) return cidr;
  const [key, what] = slot(record);
  return sameType.some((other) => slot(other)[0] === key)
    ? [`${rrsetLabel(record)} cannot be created as a ${what} already exists with the same name and type.`]
    : [];
}

function geoKey(record: Pick<RecordSet, 'geoLocation'>): string {
  const geo = record.geoLocation ?? {};
  return [geo.continentCode ?? '', geo.countryCode ?? '', geo.subdivisionCode ?? ''].join('/');
}

/** A CIDR record set names an existing collection and location, the same collection as its siblings. */
function cidrProblems(
  context: BatchContext,
  record: RecordSet,
  sameType: readonly StoredRecordSet[],
): string[] {
  const config = record.cidrRoutingConfig;
  if (config === undefined) return [];
  const collection = context.cidrCollection(config.collectionId);
  if (collection === undefined)
    return [`${rrsetLabel(record)} references CIDR collection ${config.collectionId}, which does not exist.`];
  if (config.locationName !== '*' && collection.locations[config.locationName] === undefined) {
    return [
      `${rrsetLabel(record)} references CIDR location ${config.locationName}, which does not exist in CIDR collection ${config.collectionId}.`,
    ];
  }
  if (sameType.some((other) => other.cidrRoutingConfig?.collectionId !== config.collectionId)) {
    return [
      `${rrsetLabel(record)} cannot be created as RRSets with the same name and type use another CIDR collection.`,
    ];
  }
  return [];
}

/**
 * An alias to a Route 53 record reaches only records of its own hosted zone ("another Route 53
 * record in the same hosted zone"): when the alias names one of this account's hosted zones,
 * Route 53 looks the target up in the zone being changed — so an alias into another zone is
 * refused with the same errors as a missing target, even when that zone holds the record.
 * Alias targets outside the account's zones (ELB, CloudFront… zones) are taken as given.
 */
function aliasProblems(
  context: BatchContext,
  working: ReadonlyMap<string, StoredRecordSet>,
  record: RecordSet,
): string[] {
  const alias = record.aliasTarget;
  if (alias === undefined) return [];
  const ownZone = alias.hostedZoneId === context.zone.hostedZoneId;
  if (!ownZone && context.otherZone(alias.hostedZoneId) === undefined) return [];
  const where = `Tried to create an alias that targets ${toRoute53Name(alias.dnsName)}, type ${record.type} in zone ${alias.hostedZoneId}`;
  const notFound = `${where}, but that target was not found`;
  if (!isInZone(alias.dnsName, context.zone.zoneName))
    return [`${where}, but the alias target name does not lie within the target zone`, notFound];
  const found = [...working.values()].some(
    (candidate) => candidate.name === alias.dnsName && candidate.type === record.type,
  );
  return found ? [] : [notFound];
}

function canonicalValue(type: string, value: string): string {
  return type === 'CNAME' ? fromRoute53Name(value) : value.toLowerCase();
}

/** What DELETE matches exactly: TTL, values (in any order), routing fields, alias and health check. */
function canonicalJson(record: StoredRecordSet): string {
  return JSON.stringify([
    record.ttl ?? null,
    [...record.values].map((value) => canonicalValue(record.type, value)).sort(),
    record.weight ?? null,
    record.region ?? null,
    geoKey(record),
    record.geoLocation === undefined,
    record.failover ?? null,
    record.multiValueAnswer ?? null,
    record.cidrRoutingConfig?.collectionId ?? null,
    record.cidrRoutingConfig?.locationName ?? null,
    record.aliasTarget?.hostedZoneId ?? null,
    record.aliasTarget?.dnsName ?? null,
    record.aliasTarget?.evaluateTargetHealth ?? null,
    record.healthCheckId ?? null,
  ]);
}
