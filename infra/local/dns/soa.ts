/**
 * The SOA the server answers at the apex and puts in the authority section of negative
 * answers: Route 53's default SOA (`../route53/apex.ts`), so negative caching behaves as it
 * will in production — a resolver keeps an NXDOMAIN or NODATA for min(SOA TTL 900,
 * minimum 86400) = 900 s (RFC 2308 §5).
 */
import { ROUTE53_SOA } from '../route53/apex.js';
import type { ZoneSnapshot } from '../zone-reader.js';
import type { ResourceRecord } from './resource-record.js';

export function soaRecordOf(zone: ZoneSnapshot): ResourceRecord {
  const { ttl, mname, rname, serial, refresh, retry, expire, minimum } = ROUTE53_SOA;
  return {
    name: zone.zoneName,
    type: 'SOA',
    ttl,
    data: { mname, rname, serial, refresh, retry, expire, minimum },
  };
}
