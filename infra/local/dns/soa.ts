/**
 * The SOA the server puts in the authority section of negative answers. Route 53
 * zones have one; ours are synthesized per zone with a short negative-caching
 * TTL, so that a name that appears (or a record type added) is seen within
 * seconds in local mode instead of Route 53's default 15 minutes / 1 day.
 */
import type { ZoneSnapshot } from '../zone-reader.js';
import type { ResourceRecord } from './resource-record.js';

export const NEGATIVE_TTL_SECONDS = 5;

export function soaRecordOf(zone: ZoneSnapshot): ResourceRecord {
  return {
    name: zone.zoneName,
    type: 'SOA',
    ttl: NEGATIVE_TTL_SECONDS,
    data: {
      mname: `ns.${zone.zoneName}`,
      rname: `hostmaster.${zone.zoneName}`,
      serial: 1,
      refresh: 7200,
      retry: 900,
      expire: 1_209_600,
      minimum: NEGATIVE_TTL_SECONDS,
    },
  };
}
