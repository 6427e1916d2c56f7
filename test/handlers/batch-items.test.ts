/**
 * The one BatchGetItem/BatchWriteItem helper. DynamoDB Local never leaves items unprocessed,
 * so a client that answers like a table over its capacity (part of each request handed back
 * as UnprocessedKeys/UnprocessedItems) drives the retries; the chunking runs against it too.
 */
import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  type DynamoDBClient,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  batchGetItems,
  batchWriteItems,
  UNPROCESSED_RETRY,
  type Item,
} from '../../functions/shared/batch-items.js';
import { UnprocessedItemsError } from '../../functions/shared/errors.js';

const TABLE = 'tm-test';
const key = (i: number): Item => ({ pk: { S: `P#${i}` }, sk: { S: 'S' } });

/** Answers each request processing only `processed(requestNumber)` of its items, the rest handed back. */
function overloadedTable(processed: (request: number) => number) {
  const requests: number[] = [];
  const send = async (command: BatchGetItemCommand | BatchWriteItemCommand) => {
    const n = requests.length;
    if (command instanceof BatchGetItemCommand) {
      const keys = command.input.RequestItems?.[TABLE]?.Keys ?? [];
      requests.push(keys.length);
      const done = keys.slice(0, processed(n));
      const left = keys.slice(done.length);
      return {
        Responses: { [TABLE]: done },
        UnprocessedKeys: left.length > 0 ? { [TABLE]: { Keys: left } } : {},
      };
    }
    const writes = command.input.RequestItems?.[TABLE] ?? [];
    requests.push(writes.length);
    const left = writes.slice(processed(n));
    return { UnprocessedItems: left.length > 0 ? { [TABLE]: left } : {} };
  };
  return { client: { send } as unknown as DynamoDBClient, requests };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('batch items: chunking and unprocessed items retried with the one retry policy', () => {
  it('gets 250 keys in requests of at most 100 and resends what is left unprocessed until all are read', async () => {
    const table = overloadedTable((n) => (n < 3 ? 40 : 100));
    const keys = Array.from({ length: 250 }, (_, i) => key(i));

    const items = await batchGetItems(table.client, TABLE, keys);

    expect(items.map((i) => i.pk?.S).sort()).toEqual(keys.map((k) => k.pk?.S).sort());
    expect(Math.max(...table.requests)).toBeLessThanOrEqual(100);
    expect(table.requests.slice(0, 3).sort()).toEqual([100, 100, 50]);
    expect(table.requests.length).toBeGreaterThan(3);
  });

  it('writes 60 requests in chunks of at most 25, resending unprocessed writes', async () => {
    const table = overloadedTable((n) => (n < 3 ? 10 : 25));
    const writes: WriteRequest[] = Array.from({ length: 60 }, (_, i) => ({ PutRequest: { Item: key(i) } }));

    await batchWriteItems(table.client, TABLE, writes);

    expect(table.requests.slice(0, 3).sort()).toEqual([10, 25, 25]);
    // 15 + 15 left over from the two full chunks, each resent once; the 10-write chunk went through.
    expect(table.requests.slice(3)).toEqual([15, 15]);
  });

  it('gives up after the policy’s retries with UnprocessedItemsError naming what was left', async () => {
    vi.useFakeTimers();
    const table = overloadedTable(() => 0);
    const result = batchGetItems(table.client, TABLE, [key(1), key(2), key(3)]).catch((e: unknown) => e);
    await vi.runAllTimersAsync();

    const error = await result;
    expect(error).toBeInstanceOf(UnprocessedItemsError);
    expect((error as UnprocessedItemsError).message).toBe('BatchGetItem: 3 items left unprocessed');
    expect(table.requests).toHaveLength(1 + UNPROCESSED_RETRY.retries);
  });
});
