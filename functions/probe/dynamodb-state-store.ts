/** ProbeStateStore on the traffic-manager table (layout: shared/state/items.ts). */
import {
  BatchGetItemCommand,
  type BatchGetItemCommandOutput,
  ConditionalCheckFailedException,
  GetItemCommand,
  PutItemCommand,
  type AttributeValue,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { Keys, type HeartbeatItem, type VerdictItem } from '../../shared/state/items.js';
import type { ProbeStateStore, WriteOutcome } from './state-store.js';

/** BatchGetItem takes at most 100 keys per request. */
const BATCH_GET_LIMIT = 100;
const MAX_UNPROCESSED_RETRIES = 8;

export class DynamoDbProbeStateStore implements ProbeStateStore {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
  ) {}

  async loadVerdicts(region: string, targetKeys: readonly string[]): Promise<VerdictItem[]> {
    const items: VerdictItem[] = [];
    for (let i = 0; i < targetKeys.length; i += BATCH_GET_LIMIT) {
      let keys: Record<string, AttributeValue>[] | undefined = targetKeys
        .slice(i, i + BATCH_GET_LIMIT)
        .map((key) => marshall(Keys.verdict(key, region)));
      for (let attempt = 0; keys !== undefined && keys.length > 0; attempt++) {
        if (attempt > MAX_UNPROCESSED_RETRIES)
          throw new Error(`BatchGetItem left ${keys.length} keys unprocessed`);
        if (attempt > 0) await sleep(25 * 2 ** attempt);
        const response: BatchGetItemCommandOutput = await this.client.send(
          new BatchGetItemCommand({
            RequestItems: { [this.tableName]: { Keys: keys } },
          }),
        );
        for (const item of response.Responses?.[this.tableName] ?? [])
          items.push(withoutKeys(item) as unknown as VerdictItem);
        keys = response.UnprocessedKeys?.[this.tableName]?.Keys;
      }
    }
    return items;
  }

  async loadHeartbeat(region: string): Promise<HeartbeatItem | undefined> {
    const response = await this.client.send(
      new GetItemCommand({
        TableName: this.tableName,
        Key: marshall(Keys.heartbeat(region)),
        ConsistentRead: true,
      }),
    );
    return response.Item === undefined ? undefined : (withoutKeys(response.Item) as unknown as HeartbeatItem);
  }

  putVerdict(item: VerdictItem): Promise<WriteOutcome> {
    return this.putIfNewer(
      { ...Keys.verdict(item.targetKey, item.region), ...item },
      'checkedAt',
      item.checkedAt,
    );
  }

  putHeartbeat(item: HeartbeatItem): Promise<WriteOutcome> {
    return this.putIfNewer({ ...Keys.heartbeat(item.region), ...item }, 'at', item.at);
  }

  private async putIfNewer(item: object, timeAttribute: string, time: number): Promise<WriteOutcome> {
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: marshall(item, { removeUndefinedValues: true }),
          ConditionExpression: 'attribute_not_exists(pk) OR #t < :t',
          ExpressionAttributeNames: { '#t': timeAttribute },
          ExpressionAttributeValues: { ':t': { N: String(time) } },
        }),
      );
      return 'written';
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      return 'superseded';
    }
  }
}

/** The item's own fields (the key attributes pk/sk are the table's, not the item type's). */
function withoutKeys(item: Record<string, AttributeValue>): Record<string, unknown> {
  const { pk: _pk, sk: _sk, ...rest } = unmarshall(item);
  return rest;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
