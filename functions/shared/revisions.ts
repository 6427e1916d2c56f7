/**
 * The CONFIG and CONTROL partitions' revision counters (RevisionItem, shared/state/items.ts):
 * every writer of a partition moves its counter after the write; readers that cache the
 * partition (config-cache.ts) read both counters in one request and re-read a partition
 * only when its counter moved.
 */
import { UpdateItemCommand, type DynamoDBClient, type Update } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { type RevisionItem } from '../../shared/state/items.js';
import { Keys } from '../../shared/state/keys.js';
import { batchGetItems } from './batch-items.js';

export type RevisedPartition = 'config' | 'control';

const KEY_OF: Record<RevisedPartition, () => { pk: string; sk: string }> = {
  config: Keys.configRevision,
  control: Keys.controlRevision,
};

/** Moves the partition's counter (creating it at 1); call after the partition's write has succeeded. */
export async function bumpRevision(
  client: DynamoDBClient,
  tableName: string,
  partition: RevisedPartition,
  now: number = Date.now(),
): Promise<void> {
  await client.send(new UpdateItemCommand(revisionMove(tableName, partition, now)));
}

/** The update that moves the partition's counter, for a transaction that writes the partition. */
export function revisionMove(tableName: string, partition: RevisedPartition, now: number): Update {
  return {
    TableName: tableName,
    Key: marshall(KEY_OF[partition]()),
    UpdateExpression: 'ADD revision :one SET #at = :at',
    ExpressionAttributeNames: { '#at': 'at' },
    ExpressionAttributeValues: marshall({ ':one': 1, ':at': now }),
  };
}

/** Both counters (absent: never moved — a table its writers have not revised yet). */
export async function readRevisions(
  client: DynamoDBClient,
  tableName: string,
): Promise<Partial<Record<RevisedPartition, number>>> {
  const keys = (Object.keys(KEY_OF) as RevisedPartition[]).map((partition) => marshall(KEY_OF[partition]()));
  const items = await batchGetItems(client, tableName, keys, { consistentRead: true });
  const revisions: Partial<Record<RevisedPartition, number>> = {};
  for (const item of items.map((raw) => unmarshall(raw) as RevisionItem & { pk: string })) {
    if (item.pk === Keys.configRevision().pk) revisions.config = item.revision;
    else if (item.pk === Keys.controlRevision().pk) revisions.control = item.revision;
  }
  return revisions;
}
