/**
 * Identity and equality of record sets. Route 53 identifies a record set by name, type and
 * SetIdentifier; two record sets are the same when every field matches, values compared as
 * a set (Route 53 does not keep their order).
 */
import type { RecordSet } from './record-set.js';

export function recordIdentity(record: RecordSet): string {
  return `${record.name} ${record.type} ${record.setIdentifier ?? ''}`;
}

/** A readable identity for messages: `shop.example.com A set=east`. */
export function describeRecord(record: RecordSet): string {
  const set = record.setIdentifier === undefined ? '' : ` set=${record.setIdentifier}`;
  return `${record.name} ${record.type}${set}`;
}

/** The routing policy a record uses and where it routes; changing it needs DELETE + CREATE. */
export function routingShape(record: RecordSet): string {
  return JSON.stringify([
    record.region ?? null,
    record.geoLocation === undefined
      ? null
      : [
          record.geoLocation.continentCode,
          record.geoLocation.countryCode,
          record.geoLocation.subdivisionCode,
        ],
    record.multiValueAnswer ?? false,
    record.cidrRoutingConfig === undefined
      ? null
      : [record.cidrRoutingConfig.collectionId, record.cidrRoutingConfig.locationName],
    record.failover ?? null,
    record.weight === undefined ? 'unweighted' : 'weighted',
    record.aliasTarget === undefined ? 'plain' : 'alias',
  ]);
}

/** Every field, in a fixed order, values sorted. */
export function canonicalRecord(record: RecordSet): string {
  return JSON.stringify([
    recordIdentity(record),
    routingShape(record),
    record.ttl ?? null,
    record.weight ?? null,
    record.aliasTarget === undefined
      ? null
      : [
          record.aliasTarget.hostedZoneId,
          record.aliasTarget.dnsName,
          record.aliasTarget.evaluateTargetHealth,
        ],
    [...record.values].sort(),
    record.healthCheckId ?? null,
  ]);
}

export function sameRecord(a: RecordSet, b: RecordSet): boolean {
  return canonicalRecord(a) === canonicalRecord(b);
}
