/**
 * A Route 53 resource record set, in the shape of the Route 53 API
 * (`ResourceRecordSet`), with names normalized: lower case, no trailing dot.
 * The pure core, the local Route 53, the DNS server and the publisher all speak it.
 */
export type RecordType = 'A' | 'AAAA' | 'CNAME';

export type FailoverRole = 'PRIMARY' | 'SECONDARY';

export interface GeoLocation {
  /** Two-letter continent code (AF, AN, AS, EU, OC, NA, SA). */
  readonly continentCode?: string;
  /** ISO 3166 alpha-2, or '*' for the default location. */
  readonly countryCode?: string;
  /** Route 53 subdivision code (with countryCode, e.g. US + CA). */
  readonly subdivisionCode?: string;
}

export interface CidrRoutingConfig {
  readonly collectionId: string;
  /** A location name of the collection, or '*' for the default. */
  readonly locationName: string;
}

export interface AliasTarget {
  readonly hostedZoneId: string;
  readonly dnsName: string;
  readonly evaluateTargetHealth: boolean;
}

export interface RecordSet {
  readonly name: string;
  readonly type: RecordType;
  /** Absent for alias records (Route 53 uses the target's TTL). */
  readonly ttl?: number;
  readonly setIdentifier?: string;
  readonly weight?: number;
  /** AWS region for latency records. */
  readonly region?: string;
  readonly geoLocation?: GeoLocation;
  readonly multiValueAnswer?: boolean;
  readonly cidrRoutingConfig?: CidrRoutingConfig;
  readonly failover?: FailoverRole;
  readonly aliasTarget?: AliasTarget;
  /** A Route 53 health check: the record is answered only while it is healthy (see docs/local-dns.md). */
  readonly healthCheckId?: string;
  /** Record values (IP addresses or a host name); empty for alias records. */
  readonly values: readonly string[];
}

export type ChangeAction = 'CREATE' | 'DELETE' | 'UPSERT';

export interface Change {
  readonly action: ChangeAction;
  readonly recordSet: RecordSet;
}

/** A CIDR collection: location name → CIDR blocks (Route 53 `CreateCidrCollection`/`ChangeCidrCollection`). */
export interface CidrCollection {
  readonly id: string;
  readonly name: string;
  readonly locations: Readonly<Record<string, readonly string[]>>;
}
