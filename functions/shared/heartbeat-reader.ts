/**
 * Every shard's heartbeat of one probe region: one Query on the region's partition for the
 * sort keys `HEARTBEAT` (shard 0) and `HEARTBEAT#<n>` (table layout: shared/state/items.ts).
 * The probe workers restore from it, the evaluator and its tick judge staleness by it, and
 * `tm status` shows the latest checks from it.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { Keys, type HeartbeatItem } from '../../shared/state/items.js';
import { queryAll } from './query-all.js';

export interface HeartbeatReadOptions {
  /** A worker restoring its counts must see the last write; staleness needs no more than eventual reads. @default false */
  readonly consistentRead?: boolean;
}

export async function readHeartbeats(
  client: DynamoDBClient,
  tableName: string,
  region: string,
  options: HeartbeatReadOptions = {},
): Promise<HeartbeatItem[]> {
  const { pk, sk } = Keys.heartbeat(region);
  const items = await queryAll(client, {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
    ExpressionAttributeValues: { ':pk': { S: pk }, ':sk': { S: sk } },
    ConsistentRead: options.consistentRead ?? false,
  });
  return items.map(({ pk: _pk, sk: _sk, ...heartbeat }) => heartbeat as unknown as HeartbeatItem);
}
