/**
 * Route 53's answer to one question, from the zones: routing policies, aliases,
 * CNAME chains, NXDOMAIN / NODATA with the zone's SOA. No I/O: the zones are
 * read through `ZoneReader`, randomness comes in as `random`.
 */
import type { RecordSet, RecordType } from '../../../shared/zone/record-set.js';
import type { ZoneReader, ZoneSnapshot } from '../zone-reader.js';
import { ROUTE53_SOA } from '../route53/apex.js';
import type { ClientLocationTable } from './client-locations.js';
import type { IpAddress } from '../../../shared/ip/addresses.js';
import { normalizeName, type ResourceRecord } from './resource-record.js';
import { selectRecords, type SelectionContext } from './routing-policy.js';

/** How many CNAME / alias hops one answer follows (loops end here too). */
const MAX_CHAIN_LENGTH = 8;
/** TTL of a non-alias record that has none (Route 53 always has one). */
const FALLBACK_TTL_SECONDS = 60;

export type AnswerRcode = 'NOERROR' | 'NXDOMAIN' | 'REFUSED';

export interface DnsQuestion {
  readonly name: string;
  /** As `dns-packet` spells it: `A`, `AAAA`, `CNAME`, `ANY`, `SOA`, `MX`, `UNKNOWN_65280`… */
  readonly type: string;
}

export interface DnsAnswer {
  readonly rcode: AnswerRcode;
  readonly answers: readonly ResourceRecord[];
  readonly authority: readonly ResourceRecord[];
  /** ECS scope prefix length; 0 when the answer does not depend on the client; absent when refused. */
  readonly ecsScope?: number;
}

interface Resolution {
  readonly exists: boolean;
  readonly records: readonly ResourceRecord[];
  readonly scope: number;
}

interface Resolver {
  readonly zones: ZoneReader;
  readonly selection: SelectionContext;
}

const EMPTY: Resolution = { exists: true, records: [], scope: 0 };

/**
 * Route 53's default SOA, at the apex and in negative answers: a resolver keeps an NXDOMAIN or
 * NODATA for min(SOA TTL 900, minimum 86400) = 900 s (RFC 2308 §5), as it will in production.
 */
function soaRecordOf(zone: ZoneSnapshot): ResourceRecord {
  const { ttl, ...data } = ROUTE53_SOA;
  return { name: zone.zoneName, type: 'SOA', ttl, data };
}

const recordsAt = (zone: ZoneSnapshot, name: string, type: RecordType): RecordSet[] =>
  zone.records.filter((record) => record.name === name && record.type === type);

/** A name exists when it owns records, is the apex, or is an empty non-terminal above a name that does. */
const nameExists = (zone: ZoneSnapshot, name: string): boolean =>
  name === zone.zoneName ||
  zone.records.some((record) => record.name === name || record.name.endsWith(`.${name}`));

function resolveAlias(resolver: Resolver, record: RecordSet, type: RecordType, depth: number): Resolution {
  const target = normalizeName(record.aliasTarget?.dnsName ?? '');
  const zone = resolver.zones.findZone(target);
  if (!zone || depth >= MAX_CHAIN_LENGTH) return { ...EMPTY, exists: false };
  return resolveName(resolver, zone, target, type, depth + 1);
}

/**
 * Whether Route 53 would count a record healthy (docs/local-dns.md, "Health"): its health check,
 * if it has one, is healthy; and an alias with EvaluateTargetHealth has a target that is healthy:
 * at least one record set at the target name and type is healthy (recursively) and the target
 * answers something. A record with neither is always healthy.
 */
function healthOf(
  resolver: Resolver,
  record: RecordSet,
  type: RecordType,
  depth: number,
): { healthy: boolean; scope: number } {
  if (
    record.healthCheckId !== undefined &&
    resolver.zones.isHealthCheckHealthy?.(record.healthCheckId) === false
  )
    return { healthy: false, scope: 0 };
  if (!record.aliasTarget?.evaluateTargetHealth) return { healthy: true, scope: 0 };
  const target = resolveAlias(resolver, record, type, depth);
  if (target.records.length === 0) return { healthy: false, scope: target.scope };
  // A target that answers is in a zone. No record set of the type there (a CNAME): its answer decides.
  const name = normalizeName(record.aliasTarget.dnsName);
  const targets = recordsAt(resolver.zones.findZone(name) as ZoneSnapshot, name, type);
  return {
    healthy:
      targets.length === 0 || targets.some((other) => healthOf(resolver, other, type, depth + 1).healthy),
    scope: target.scope,
  };
}

function answerFromRecordSets(
  resolver: Resolver,
  name: string,
  type: RecordType,
  candidates: readonly RecordSet[],
  depth: number,
): Resolution {
  let scope = 0;
  const healthy = candidates.filter((record) => {
    const health = healthOf(resolver, record, type, depth);
    scope = Math.max(scope, health.scope);
    return health.healthy;
  });
  // Like Route 53: when every record is unhealthy, all of them are candidates again.
  const selection = selectRecords(healthy.length > 0 ? healthy : candidates, resolver.selection);
  scope = Math.max(scope, selection.scope);
  const records: ResourceRecord[] = [];
  for (const record of selection.records) {
    if (record.aliasTarget) {
      const targetName = normalizeName(record.aliasTarget.dnsName);
      const target = resolveAlias(resolver, record, type, depth);
      scope = Math.max(scope, target.scope);
      records.push(...target.records.map((rr) => (rr.name === targetName ? { ...rr, name } : rr)));
    } else {
      const ttl = record.ttl ?? FALLBACK_TTL_SECONDS;
      records.push(
        ...record.values.map((value) => ({
          name,
          type,
          ttl,
          data: type === 'CNAME' ? normalizeName(value) : value,
        })),
      );
    }
  }
  return { exists: true, records, scope };
}

function resolveName(
  resolver: Resolver,
  zone: ZoneSnapshot,
  name: string,
  type: RecordType,
  depth: number,
): Resolution {
  const direct = recordsAt(zone, name, type);
  if (direct.length > 0) return answerFromRecordSets(resolver, name, type, direct, depth);
  const cnames = type === 'CNAME' ? [] : recordsAt(zone, name, 'CNAME');
  if (cnames.length === 0) return { exists: nameExists(zone, name), records: [], scope: 0 };
  const head = answerFromRecordSets(resolver, name, 'CNAME', cnames, depth);
  const target = head.records.filter((record) => record.type === 'CNAME').at(-1)?.data;
  // Route 53 follows a CNAME only inside the same hosted zone; beyond it the resolver takes over.
  if (
    typeof target !== 'string' ||
    depth >= MAX_CHAIN_LENGTH ||
    resolver.zones.findZone(target)?.hostedZoneId !== zone.hostedZoneId
  )
    return head;
  const rest = resolveName(resolver, zone, target, type, depth + 1);
  return {
    exists: rest.exists,
    records: [...head.records, ...rest.records],
    scope: Math.max(head.scope, rest.scope),
  };
}

function resolveAny(resolver: Resolver, zone: ZoneSnapshot, name: string): Resolution {
  // Minimal ANY: what A, AAAA or CNAME queries would answer, without following the CNAME.
  if (recordsAt(zone, name, 'CNAME').length > 0) return resolveName(resolver, zone, name, 'CNAME', 0);
  const parts = [resolveName(resolver, zone, name, 'A', 0), resolveName(resolver, zone, name, 'AAAA', 0)];
  return {
    exists: nameExists(zone, name),
    records: parts.flatMap((part) => part.records),
    scope: Math.max(...parts.map((part) => part.scope)),
  };
}

function resolveQuestion(resolver: Resolver, zone: ZoneSnapshot, name: string, type: string): Resolution {
  switch (type) {
    case 'A':
    case 'AAAA':
    case 'CNAME':
      return resolveName(resolver, zone, name, type, 0);
    case 'ANY':
      return resolveAny(resolver, zone, name);
    case 'SOA':
      return name === zone.zoneName
        ? { exists: true, records: [soaRecordOf(zone)], scope: 0 }
        : { exists: nameExists(zone, name), records: [], scope: 0 };
    default:
      return { exists: nameExists(zone, name), records: [], scope: 0 };
  }
}

/**
 * Answers one question the way Route 53 would for the client at `client`.
 * Names outside every zone are REFUSED; a name without records is NXDOMAIN;
 * an existing name without the asked type (or a routing choice that matched
 * nothing) is NOERROR with no answer; negative answers carry the zone's SOA.
 */
export function answerQuestion(
  question: DnsQuestion,
  client: IpAddress,
  zones: ZoneReader,
  locations: ClientLocationTable,
  random: () => number,
): DnsAnswer {
  const name = normalizeName(question.name);
  const zone = zones.findZone(name);
  if (!zone) return { rcode: 'REFUSED', answers: [], authority: [] };
  const resolver: Resolver = {
    zones,
    selection: { client, locations, random, cidrCollection: (id) => zones.cidrCollection(id) },
  };
  const resolution = resolveQuestion(resolver, zone, name, question.type);
  // A CNAME chain that ends at a missing name is NXDOMAIN with the chain (RFC 6604).
  const rcode = resolution.exists ? 'NOERROR' : 'NXDOMAIN';
  const answersTheType =
    question.type === 'ANY'
      ? resolution.records.length > 0
      : resolution.records.some((record) => record.type === question.type);
  return {
    rcode,
    answers: resolution.records,
    authority: answersTheType ? [] : [soaRecordOf(zone)],
    ecsScope: resolution.scope,
  };
}
