/** The evaluator's reads and writes on the traffic-manager table. */
import {
  DeleteItemCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
  type DynamoDBClient,
  type TransactWriteItem,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import {
  HISTORY_RETENTION_DAYS,
  type CertificateWarningItem,
  type HeartbeatItem,
  type HistoryItem,
  type MonitorOverrideItem,
  type OutboxItem,
  type RuntimeControls,
  type ReconcileRequestItem,
  type TickItem,
  type VerdictItem,
  type ZoneReconcileItem,
} from '../../shared/state/items.js';
import { KeyPrefix, Keys } from '../../shared/state/keys.js';
import { greedyBatches } from '../../shared/batches.js';
import { groupBy } from '../../shared/group-by.js';
import type { OutboxEntry } from '../../shared/evaluation/outbox.js';
import type { TransitionRecord } from '../../shared/evaluation/transitions.js';
import { batchGetItems, batchWriteItems, type Item } from '../shared/batch-items.js';
import { readDeployedConfig, type DeployedConfig } from '../shared/config-reader.js';
import { readHeartbeats, readRegionItems } from '../shared/region-items.js';
import { regionChecksOf, type RegionChecks } from '../../shared/monitor/region-checks.js';
import { deleteExpiredOverride, readControls } from '../shared/control-store.js';
import { putItem } from '../shared/put-item.js';
import { queryPartition } from '../shared/query-all.js';
import type { StoredStatus } from './ports.js';

export class DynamoDbEvaluatorStore {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
  ) {}

  /** The deployed definitions (runtime controls are applied by the evaluation). */
  loadConfig(): Promise<DeployedConfig> {
    return readDeployedConfig(this.client, this.tableName);
  }

  loadControls(): Promise<RuntimeControls> {
    return readControls(this.client, this.tableName);
  }

  /** Deletes an expired override unless it was replaced (the delete triggers an evaluation). */
  deleteExpiredOverride(override: MonitorOverrideItem): Promise<boolean> {
    return deleteExpiredOverride(this.client, this.tableName, override);
  }

  async loadStatuses(): Promise<Map<string, StoredStatus>> {
    const statuses = new Map<string, StoredStatus>();
    const rows = await queryPartition(this.client, this.tableName, 'STATUS', {
      skPrefix: 'PROFILE#',
      consistentRead: true,
    });
    for (const row of rows) {
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

  /** One Query per region: every shard's heartbeat. */
  async loadHeartbeats(regions: readonly string[]): Promise<HeartbeatItem[]> {
    const byRegion = await Promise.all(
      regions.map((region) => readHeartbeats(this.client, this.tableName, region)),
    );
    return byRegion.flat();
  }

  /** One Query per region: every shard's check summaries and certificates (and an older version's heartbeats that carry them). */
  async loadRegionChecks(regions: readonly string[]): Promise<RegionChecks[]> {
    const byRegion = await Promise.all(
      regions.map(async (region) =>
        regionChecksOf(await readRegionItems(this.client, this.tableName, region)),
      ),
    );
    return byRegion.flat();
  }

  /**
   * Saves many statuses in as few requests as the store allows. A status with outbox entries
   * is written in one transaction with them, on the condition that its stored revision is the
   * one before (a concurrent writer makes the transaction fail rather than lose a change).
   */
  async saveStatuses(statuses: readonly StoredStatus[], outbox: readonly OutboxEntry[] = []): Promise<void> {
    const entriesOf = groupBy(outbox, (entry) => entry.profile);
    const plain = statuses.filter((status) => !entriesOf.has(status.report.profile));
    await this.batchWrite(plain.map((status) => ({ PutRequest: { Item: statusItem(status) } })));
    const writes = statuses.flatMap((status) => {
      const entries = entriesOf.get(status.report.profile);
      return entries === undefined ? [] : [this.statusWithOutbox(status, entries)];
    });
    for (const transaction of packTransactions(writes))
      await this.client.send(new TransactWriteItemsCommand({ TransactItems: transaction }));
  }

  async deleteStatus(profile: string): Promise<void> {
    await this.client.send(
      new DeleteItemCommand({ TableName: this.tableName, Key: marshall(Keys.status(profile)) }),
    );
  }

  /** Idempotent: a record is always written to the same key. */
  async appendHistory(records: readonly TransitionRecord[]): Promise<void> {
    await this.batchWrite(records.map((record) => ({ PutRequest: { Item: historyItem(record) } })));
  }

  /** Outbox entries not yet published, oldest decision first. */
  async loadOutbox(): Promise<OutboxEntry[]> {
    const items = await queryPartition(this.client, this.tableName, KeyPrefix.outbox, {
      consistentRead: true,
    });
    return items
      .map((item) => outboxEntry(item as unknown as OutboxItem))
      .sort((a, b) => a.decidedAt - b.decidedAt);
  }

  async deleteOutbox(entry: OutboxEntry): Promise<void> {
    await this.client.send(
      new DeleteItemCommand({ TableName: this.tableName, Key: marshall(outboxKey(entry)) }),
    );
  }

  /** The certificate each endpoint was last warned about (CERTIFICATE items). */
  async loadCertificateWarnings(): Promise<CertificateWarningItem[]> {
    const items = await queryPartition(this.client, this.tableName, KeyPrefix.certificate, {
      consistentRead: true,
    });
    return items.map(({ pk: _pk, sk: _sk, ...warned }) => warned as unknown as CertificateWarningItem);
  }

  /**
   * Writes a certificate warning's outbox entry and its CERTIFICATE item in one transaction, on
   * the condition that the item does not name this certificate already; false when it did (a
   * concurrent tick warned first): nothing is written.
   */
  async saveCertificateWarning(warned: CertificateWarningItem, entry: OutboxEntry): Promise<boolean> {
    try {
      await this.client.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: marshall({ ...Keys.certificateWarning(warned.profile, warned.endpoint), ...warned }),
                ConditionExpression: 'attribute_not_exists(pk) OR notAfter <> :notAfter',
                ExpressionAttributeValues: { ':notAfter': { N: String(warned.notAfter) } },
              },
            },
            { Put: { TableName: this.tableName, Item: outboxItem(entry) } },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof TransactionCanceledException && isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Wakes the evaluator (through the stream) to publish waiting outbox entries. */
  async saveOutboxTrigger(at: number): Promise<void> {
    await putItem(this.client, this.tableName, { ...Keys.outboxTrigger(), at });
  }

  /** The status put (on the condition that it still holds the revision before) and its outbox items. */
  private statusWithOutbox(status: StoredStatus, entries: readonly OutboxEntry[]): TransactWriteItem[] {
    return [
      {
        Put: {
          TableName: this.tableName,
          Item: statusItem(status),
          ConditionExpression: 'attribute_not_exists(revision) OR revision = :before',
          ExpressionAttributeValues: { ':before': { N: String(status.revision - 1) } },
        },
      },
      ...entries.map((entry) => ({ Put: { TableName: this.tableName, Item: outboxItem(entry) } })),
    ];
  }

  async loadTick(): Promise<TickItem | undefined> {
    const [item] = await this.batchGet([Keys.tick()]);
    return item === undefined ? undefined : (unmarshall(item) as TickItem);
  }

  /** Writing the tick item triggers an evaluation of every profile through the stream. */
  async saveTick(tick: TickItem): Promise<void> {
    await putItem(this.client, this.tableName, { ...Keys.tick(), ...tick });
  }

  async loadReconcileRequest(): Promise<ReconcileRequestItem | undefined> {
    const [item] = await this.batchGet([Keys.reconcileRequest()]);
    return item === undefined ? undefined : { requestedAt: Number(unmarshall(item).requestedAt) };
  }

  /** Writing the request triggers a reconcile of every zone through the stream. */
  async saveReconcileRequest(request: ReconcileRequestItem): Promise<void> {
    await putItem(this.client, this.tableName, { ...Keys.reconcileRequest(), ...request });
  }

  async loadZoneReconciles(hostedZoneIds: readonly string[]): Promise<ZoneReconcileItem[]> {
    const items = await this.batchGet(hostedZoneIds.map((id) => Keys.zoneReconcile(id)));
    return items.map((item) => {
      const { pk: _pk, sk: _sk, ...row } = unmarshall(item);
      return row as ZoneReconcileItem;
    });
  }

  /** Saves each zone's reconcile outcome, with the outbox entries of its repairs' events. */
  async saveZoneReconciles(
    zones: readonly ZoneReconcileItem[],
    outbox: readonly OutboxEntry[] = [],
  ): Promise<void> {
    await this.batchWrite([
      ...outbox.map((entry) => ({ PutRequest: { Item: outboxItem(entry) } })),
      ...zones.map((zone) => ({ PutRequest: { Item: zoneReconcileItem(zone) } })),
    ]);
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

function outboxItem({ events, ...entry }: OutboxEntry): Item {
  const item: OutboxItem = { ...outboxKey(entry), ...entry, events: JSON.stringify(events) };
  return marshall(item, { removeUndefinedValues: true });
}

/**
 * A status write's entry by profile and revision; a reconcile's repairs by zone and reconcile
 * time; a certificate warning by endpoint and notAfter.
 */
function outboxKey(entry: Omit<OutboxEntry, 'events'>): { pk: string; sk: string } {
  if (entry.certificate !== undefined)
    return Keys.certificateOutbox(entry.profile, entry.certificate.endpoint, entry.certificate.notAfter);
  return entry.hostedZoneId === undefined
    ? Keys.outbox(entry.profile, entry.revision, entry.part)
    : Keys.repairOutbox(entry.hostedZoneId, entry.decidedAt, entry.part);
}

function zoneReconcileItem(zone: ZoneReconcileItem): Item {
  return marshall({ ...Keys.zoneReconcile(zone.hostedZoneId), ...zone }, { removeUndefinedValues: true });
}

function outboxEntry({ pk: _pk, sk: _sk, events, ...entry }: OutboxItem): OutboxEntry {
  return { ...entry, events: JSON.parse(events) };
}

/** DynamoDB's limits on one TransactWriteItems: 100 actions, 4 MB (kept well under). */
const TRANSACTION_MAX_ACTIONS = 100;
const TRANSACTION_MAX_BYTES = 3_500_000;

/** Groups of writes that must each stay together, packed into as few transactions as the limits allow. */
function packTransactions(groups: readonly TransactWriteItem[][]): TransactWriteItem[][] {
  return greedyBatches(groups, {
    maxBytes: TRANSACTION_MAX_BYTES,
    bytesOf: (group) => JSON.stringify(group).length,
    maxCount: TRANSACTION_MAX_ACTIONS,
    countOf: (group) => group.length,
  }).map((transaction) => transaction.flat());
}

/** A transition record as a history item, living HISTORY_RETENTION_DAYS after its decision. */
function historyItem(record: TransitionRecord): Item {
  const item: HistoryItem = {
    ...Keys.history(record),
    ...record,
    expiresAt: Math.floor(Date.parse(record.at) / 1000) + HISTORY_RETENTION_DAYS * 86_400,
  };
  return marshall(item, { removeUndefinedValues: true });
}

/** The transaction was cancelled because a condition failed (not a conflict or throttling). */
function isConditionFailure(error: TransactionCanceledException): boolean {
  return (error.CancellationReasons ?? []).some((reason) => reason.Code === 'ConditionalCheckFailed');
}
