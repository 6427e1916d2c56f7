/**
 * A zone's records changed the way Route 53 changes them, with the local Route 53's own
 * applier (infra/local/route53/change-batch.ts): every batch all or nothing, refused with an
 * `InvalidChangeBatch` error for whatever the real API refuses. For tests of the zone diff.
 */
import { applyChangeBatch } from '../../infra/local/route53/change-batch.js';
import type { Change, CidrCollection, RecordSet } from '../../shared/zone/record-set.js';

export interface TestZone {
  /** @default 'example.com' */
  readonly zoneName?: string;
  /** @default 'ZTESTZONE' */
  readonly hostedZoneId?: string;
  /** The account's CIDR collections. @default none */
  readonly cidrCollections?: readonly CidrCollection[];
}

/** Applies the batches in order; returns the records after the last one. */
export function applyBatches(
  records: readonly RecordSet[],
  batches: readonly (readonly Change[])[],
  zone: TestZone = {},
): RecordSet[] {
  return batches.reduce<RecordSet[]>(
    (current, batch) =>
      applyChangeBatch(
        {
          zone: {
            hostedZoneId: zone.hostedZoneId ?? 'ZTESTZONE',
            zoneName: zone.zoneName ?? 'example.com',
            records: current,
          },
          cidrCollection: (id) => zone.cidrCollections?.find((c) => c.id === id),
          otherZone: () => undefined,
        },
        batch,
      ) as RecordSet[],
    [...records],
  );
}
