/**
 * The shards' measured CPU scales on the traffic-manager table: each shard writes its own
 * REGION#<region> / CAPACITY#<shard> item (when it moved materially, or to refresh it), and
 * the region's probe tick reads them all in one Query a minute (layout: shared/state/items.ts;
 * the rule for when: shared/probe/cpu-scale.ts).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { CpuScaleReading } from '../../shared/probe/cpu-scale.js';
import { type CapacityItem } from '../../shared/state/items.js';
import { CAPACITY_SK, Keys } from '../../shared/state/keys.js';
import { putItem } from '../shared/put-item.js';
import { queryPartition } from '../shared/query-all.js';

/** What a shard's round handler writes. */
export type CapacityWriter = Pick<ReturnType<typeof dynamoDbCapacityStore>, 'write'>;
/** What the region's tick reads. */
export type CapacityReader = Pick<ReturnType<typeof dynamoDbCapacityStore>, 'read'>;

export function dynamoDbCapacityStore(client: DynamoDBClient, tableName: string) {
  return {
    write: (item: CapacityItem): Promise<void> =>
      putItem(client, tableName, { ...Keys.capacity(item.region, item.shard), ...item }),
    async read(region: string): Promise<CpuScaleReading[]> {
      // Eventually consistent: a scale a second old sizes the next minute as well.
      const items = await queryPartition(client, tableName, Keys.capacity(region, 0).pk, {
        skPrefix: CAPACITY_SK,
      });
      return items.map((item) => item as unknown as CapacityItem);
    },
  };
}
