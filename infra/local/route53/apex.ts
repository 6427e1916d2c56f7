/**
 * The NS and SOA record sets Route 53 creates at the apex of every public hosted zone,
 * with Route 53's default values (developer guide, "NS and SOA records that Amazon Route
 * 53 creates for a public hosted zone"): SOA TTL 900 s, refresh 7200, retry 900, expire
 * 1209600, minimum 86400, the first name server as MNAME and awsdns-hostmaster.amazon.com.
 * as RNAME; NS TTL 172800. The local Route 53 lists them, the local DNS server answers them.
 */
export const ROUTE53_NAME_SERVERS = [
  'ns-1536.awsdns-00.co.uk',
  'ns-0.awsdns-00.com',
  'ns-1024.awsdns-00.org',
  'ns-512.awsdns-00.net',
] as const;

export const ROUTE53_NS_TTL_SECONDS = 172_800;

export const ROUTE53_SOA = {
  ttl: 900,
  mname: ROUTE53_NAME_SERVERS[0],
  rname: 'awsdns-hostmaster.amazon.com',
  serial: 1,
  refresh: 7200,
  retry: 900,
  expire: 1_209_600,
  /** The negative-caching TTL field (RFC 2308); resolvers use min(this, ttl) = 900 s. */
  minimum: 86_400,
} as const;

/** The SOA value as Route 53 lists it: `ns-1536.awsdns-00.co.uk. awsdns-hostmaster.amazon.com. 1 7200 900 1209600 86400`. */
export function soaValue(): string {
  const soa = ROUTE53_SOA;
  return `${soa.mname}. ${soa.rname}. ${soa.serial} ${soa.refresh} ${soa.retry} ${soa.expire} ${soa.minimum}`;
}
