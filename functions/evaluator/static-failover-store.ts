/**
 * The evaluator's static-failover items (STATIC / STRUCTURE and STATIC / PUBLISHING, ADR 0002):
 * what it applied (health-check ids, records, the plan's digest) and whether it is publishing,
 * which the tick turns into the guard metric. One GetItem or PutItem each.
 */
import { GetItemCommand, PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { Keys, type EvaluatorPublishingItem, type StaticStructureItem } from '../../shared/state/items.js';

export interface StaticFailoverStore {
  loadStructure(): Promise<StaticStructureItem | undefined>;
  saveStructure(item: StaticStructureItem): Promise<void>;
  loadPublishing(): Promise<EvaluatorPublishingItem | undefined>;
  savePublishing(item: EvaluatorPublishingItem): Promise<void>;
}

export class DynamoDbStaticFailoverStore implements StaticFailoverStore {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
  ) {}

  async loadStructure(): Promise<StaticStructureItem | undefined> {
    const row = await this.get(Keys.staticStructure());
    if (row === undefined) return undefined;
    return {
      digest: String(row.digest),
      checks: JSON.parse(String(row.checks)),
      alarmRegions: (row.alarmRegions as string[] | undefined) ?? [],
      zones: JSON.parse(String(row.zones)),
      appliedAt: Number(row.appliedAt),
      ...(row.problem === undefined ? {} : { problem: row.problem as StaticStructureItem['problem'] }),
    };
  }

  async saveStructure(item: StaticStructureItem): Promise<void> {
    // The maps are JSON strings: health-check ids and record sets are plain values, and a
    // string keeps DynamoDB's nested-attribute depth and empty-set rules out of the way.
    await this.put({
      ...Keys.staticStructure(),
      digest: item.digest,
      checks: JSON.stringify(item.checks),
      alarmRegions: [...item.alarmRegions],
      zones: JSON.stringify(item.zones),
      appliedAt: item.appliedAt,
      ...(item.problem === undefined ? {} : { problem: item.problem }),
    });
  }

  async loadPublishing(): Promise<EvaluatorPublishingItem | undefined> {
    const row = await this.get(Keys.evaluatorPublishing());
    if (row === undefined) return undefined;
    return {
      publishing: row.publishing === true,
      at: Number(row.at),
      ...(typeof row.reason === 'string' ? { reason: row.reason } : {}),
    };
  }

  async savePublishing(item: EvaluatorPublishingItem): Promise<void> {
    await this.put({ ...Keys.evaluatorPublishing(), ...item });
  }

  private async get(key: { pk: string; sk: string }): Promise<Record<string, unknown> | undefined> {
    const out = await this.client.send(
      new GetItemCommand({ TableName: this.tableName, Key: marshall(key), ConsistentRead: true }),
    );
    return out.Item === undefined ? undefined : unmarshall(out.Item);
  }

  private async put(item: Record<string, unknown>): Promise<void> {
    await this.client.send(
      new PutItemCommand({
        TableName: this.tableName,
        Item: marshall(item, { removeUndefinedValues: true }),
      }),
    );
  }
}
