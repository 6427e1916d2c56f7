/** The evaluator's reads and writes on the traffic-manager table. */
import {
  DeleteItemCommand,
  PutItemCommand,
  QueryCommand,
  type DynamoDBClient,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import {
  HISTORY_RETENTION_DAYS,
  Keys,
  type HeartbeatItem,
  type TickItem,
  type VerdictItem,
} from '../../shared/state/items.js';
import type { StatusChange } from '../../shared/status/evaluate.js';
import { batchGetItems, batchWriteItems, type Item } from '../shared/batch-items.js';
import { readDeployedConfig } from '../shared/config-reader.js';
import type { EvaluatorStateStore, LoadedConfig, StoredStatus } from './ports.js';

export class DynamoDbEvaluatorStore implements EvaluatorStateStore {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
  ) {}

  loadConfig(): Promise<LoadedConfig> {
    return readDeployedConfig(this.client, this.tableName);
  }

  async loadStatuses(): Promise<Map<string, StoredStatus>> {
    const statuses = new Map<string, StoredStatus>();
    for (const item of await this.queryAll('STATUS', 'PROFILE#')) {
      const row = unmarshall(item);
      statuses.set(row.name as string, {
        report: JSON.parse(row.report as string),
        hostedZoneId: row.hostedZoneId as string,
        ownedName: row.ownedName as string,
        published: JSON.parse(row.published as string),
        cidrCollections: JSON.parse((row.cidrCollections as string | undefined) ?? '[]'),
        ...(row.publishProblem === undefined
          ? {}
          : { publishProblem: JSON.parse(row.publishProblem as string) }),
      });
    }
    return statuses;
  }

  async loadVerdicts(targetKeys: readonly string[], regions: readonly string[]): Promise<VerdictItem[]> {
    const keys = targetKeys.flatMap((key) => regions.map((region) => Keys.verdict(key, region)));
    return (await this.batchGet(keys)).map((item) => unmarshall(item) as VerdictItem);
  }

  async loadHeartbeats(regions: readonly string[]): Promise<HeartbeatItem[]> {
    return (await this.batchGet(regions.map((region) => Keys.heartbeat(region)))).map(
      (item) => unmarshall(item) as HeartbeatItem,
    );
  }

  async saveStatuses(statuses: readonly StoredStatus[]): Promise<void> {
    await this.batchWrite(statuses.map((status) => ({ PutRequest: { Item: statusItem(status) } })));
  }

  async deleteStatus(profile: string): Promise<void> {
    await this.client.send(
      new DeleteItemCommand({ TableName: this.tableName, Key: marshall(Keys.status(profile)) }),
    );
  }

  async appendHistory(changes: readonly StatusChange[], now: number): Promise<void> {
    const at = new Date(now).toISOString();
    const expiresAt = Math.floor(now / 1000) + HISTORY_RETENTION_DAYS * 86_400;
    const requests: WriteRequest[] = changes.map((change) => ({
      PutRequest: {
        Item: marshall(
          { ...Keys.history(change.profile, at, change.endpoint), ...change, at: now, expiresAt },
          { removeUndefinedValues: true },
        ),
      },
    }));
    await this.batchWrite(requests);
  }

  async loadTick(): Promise<TickItem | undefined> {
    const [item] = await this.batchGet([Keys.tick()]);
    return item === undefined ? undefined : (unmarshall(item) as TickItem);
  }

  async saveTick(tick: TickItem): Promise<void> {
    await this.client.send(
      new PutItemCommand({
        TableName: this.tableName,
        Item: marshall({ ...Keys.tick(), fresh: [...tick.fresh], stale: [...tick.stale], at: tick.at }),
      }),
    );
  }

  private async queryAll(pk: string, skPrefix: string): Promise<Item[]> {
    const items: Item[] = [];
    let startKey: Item | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
          ExpressionAttributeValues: { ':pk': { S: pk }, ':sk': { S: skPrefix } },
          ExclusiveStartKey: startKey,
          ConsistentRead: true,
        }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey !== undefined);
    return items;
  }

  private async batchGet(keys: readonly { pk: string; sk: string }[]): Promise<Item[]> {
    return batchGetItems(
      this.client,
      this.tableName,
      keys.map((key) => marshall(key)),
      { consistentRead: true },
    );
  }

  private batchWrite(requests: readonly WriteRequest[]): Promise<void> {
    return batchWriteItems(this.client, this.tableName, requests);
  }
}

function statusItem(status: StoredStatus): Item {
  return marshall({
    ...Keys.status(status.report.profile),
    name: status.report.profile,
    status: status.report.status,
    stale: status.report.stale,
    since: status.report.since,
    report: JSON.stringify(status.report),
    hostedZoneId: status.hostedZoneId,
    ownedName: status.ownedName,
    published: JSON.stringify(status.published),
    cidrCollections: JSON.stringify(status.cidrCollections),
    ...(status.publishProblem === undefined ? {} : { publishProblem: JSON.stringify(status.publishProblem) }),
  });
}
