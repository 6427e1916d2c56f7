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
  type HistoryItem,
  type MonitorOverrideItem,
  type RuntimeControls,
  type TickItem,
  type VerdictItem,
} from '../../shared/state/items.js';
import type { TransitionRecord } from '../../shared/evaluation/transitions.js';
import { batchGetItems, batchWriteItems, type Item } from '../shared/batch-items.js';
import { readDeployedConfig } from '../shared/config-reader.js';
import { deleteExpiredOverride, readControls } from '../shared/control-store.js';
import type { EvaluatorStateStore, LoadedConfig, StoredStatus } from './ports.js';

export class DynamoDbEvaluatorStore implements EvaluatorStateStore {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
  ) {}

  loadConfig(): Promise<LoadedConfig> {
    return readDeployedConfig(this.client, this.tableName);
  }

  loadControls(): Promise<RuntimeControls> {
    return readControls(this.client, this.tableName);
  }

  deleteExpiredOverride(override: MonitorOverrideItem): Promise<boolean> {
    return deleteExpiredOverride(this.client, this.tableName, override);
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
        revision: (row.revision as number | undefined) ?? 0,
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

  async appendHistory(records: readonly TransitionRecord[]): Promise<void> {
    const requests: WriteRequest[] = records.map((record) => ({
      PutRequest: { Item: historyItem(record) },
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
    revision: status.revision,
  });
}

/** A transition record as a history item, living HISTORY_RETENTION_DAYS after its decision. */
export function historyItem(record: TransitionRecord): Item {
  const item: HistoryItem = {
    ...Keys.history(record),
    ...record,
    expiresAt: Math.floor(Date.parse(record.at) / 1000) + HISTORY_RETENTION_DAYS * 86_400,
  };
  return marshall(item, { removeUndefinedValues: true });
}
