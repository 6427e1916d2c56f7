/** How the local DNS server reads the local Route 53's zones in-process. */
import type { CidrCollection, RecordSet } from '../../shared/zone/record-set.js';

export interface ZoneSnapshot {
  readonly hostedZoneId: string;
  /** Lower case, no trailing dot. */
  readonly zoneName: string;
  readonly records: readonly RecordSet[];
}

export interface ZoneReader {
  /** The hosted zone with the longest name that `name` is in or under; `undefined` when none. */
  findZone(name: string): ZoneSnapshot | undefined;
  /** A CIDR collection by id (for CIDR routing answers). */
  cidrCollection(id: string): CidrCollection | undefined;
  /** Whether a record's health check is healthy now. @default - every health check is healthy */
  isHealthCheckHealthy?(healthCheckId: string): boolean;
}
