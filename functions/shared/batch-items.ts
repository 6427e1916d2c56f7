/**
 * BatchGetItem and BatchWriteItem for any number of items: split into DynamoDB's request
 * limits (100 keys, 25 writes), a few requests in flight at once (the one concurrency
 * limiter), and what DynamoDB leaves unprocessed retried with the one retry policy
 * (exponential backoff with jitter) until done or the policy is spent.
 */
import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  type AttributeValue,
  type DynamoDBClient,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { chunked } from '../../shared/batches.js';
import { mapLimited } from './concurrency.js';
import { UnprocessedItemsError } from './errors.js';
import { retrying, type RetryPolicy } from './retry.js';

export type Item = Record<string, AttributeValue>;

/** DynamoDB's per-request limits. */
const BATCH_GET_LIMIT = 100;
const BATCH_WRITE_LIMIT = 25;

/** Requests in flight at once: enough to hide round trips, few enough not to burst past the table's capacity. */
const REQUESTS_IN_FLIGHT = 8;

/** Unprocessed items: 8 retries, 50 ms doubling to at most 1 s (times a jitter factor of 1–2). */
export const UNPROCESSED_RETRY: RetryPolicy = { retries: 8, baseDelayMs: 50, maxDelayMs: 1000 };

/** Every item of `keys` that exists (in no particular order). */
export async function batchGetItems(
  client: DynamoDBClient,
  tableName: string,
  keys: readonly Item[],
  options: { /** @default false */ readonly consistentRead?: boolean } = {},
): Promise<Item[]> {
  const pages = await mapLimited(chunked(keys, BATCH_GET_LIMIT), REQUESTS_IN_FLIGHT, async (chunk) => {
    const items: Item[] = [];
    let pending = chunk;
    await untilProcessed('BatchGetItem', async () => {
      const result = await client.send(
        new BatchGetItemCommand({
          RequestItems: { [tableName]: { Keys: pending, ConsistentRead: options.consistentRead } },
        }),
      );
      items.push(...(result.Responses?.[tableName] ?? []));
      pending = result.UnprocessedKeys?.[tableName]?.Keys ?? [];
      return pending.length;
    });
    return items;
  });
  return pages.flat();
}

/** Applies every write request (puts and deletes). */
export async function batchWriteItems(
  client: DynamoDBClient,
  tableName: string,
  requests: readonly WriteRequest[],
): Promise<void> {
  await mapLimited(chunked(requests, BATCH_WRITE_LIMIT), REQUESTS_IN_FLIGHT, async (chunk) => {
    let pending = chunk;
    await untilProcessed('BatchWriteItem', async () => {
      const result = await client.send(new BatchWriteItemCommand({ RequestItems: { [tableName]: pending } }));
      pending = result.UnprocessedItems?.[tableName] ?? [];
      return pending.length;
    });
  });
}

/** Sends (`send` resolves with how many are left pending) until none are; the retry policy spaces the resends. */
function untilProcessed(operation: string, send: () => Promise<number>): Promise<void> {
  return retrying(UNPROCESSED_RETRY, { isRetryable: (e) => e instanceof UnprocessedItemsError }, async () => {
    const left = await send();
    if (left > 0) throw new UnprocessedItemsError(operation, left);
  });
}
