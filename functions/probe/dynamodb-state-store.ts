/**
 * ProbeStateStore on the traffic-manager table (layout: shared/state/items.ts).
 *
 * Writes go out at most `STORE_WRITES_IN_FLIGHT` at a time. The SDK's per-attempt timeouts
 * (aws-clients.ts) start when a request is made, also while it waits for one of the client's
 * 50 sockets, so a burst of thousands of verdict writes (a new shard's first decisions, a
 * region-wide outage) on a slow table timed out in that queue and was retried round after
 * round, each retry a billed write, and the heartbeat waited for them. Queued here instead,
 * each write's timeout measures only its own request.
 */
import {
  ConditionalCheckFailedException,
  PutItemCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { batchGetItems } from '../shared/batch-items.js';
import { concurrencyLimit, type ConcurrencyLimit } from '../shared/concurrency.js';
import {
  certificatesRecord,
  checkSummariesRecord,
  heartbeatRecord,
  judgeListRecord,
  readHeartbeats,
  readRegionItems,
} from '../shared/region-items.js';
import {
  type CertificatesItem,
  type CheckSummariesItem,
  type HeartbeatItem,
  type JudgeListItem,
  type VerdictItem,
} from '../../shared/state/items.js';
import { Keys } from '../../shared/state/keys.js';

/** `superseded`: the store already holds a newer item (not an error; nothing to retry). */
export type WriteOutcome = 'written' | 'superseded';

/** The probe worker's port to its state: this store's methods (tests use an in-memory one). */
export type ProbeStateStore = Pick<DynamoDbProbeStateStore, keyof DynamoDbProbeStateStore>;

/** Below the SDK client's 50 sockets, leaving room for the reads that share the client. */
export const STORE_WRITES_IN_FLIGHT = 32;

/**
 * A region's verdict items, and per shard its heartbeat, judge list, check summaries and
 * certificates (docs/adr/0002-table-layout.md). Every put is written only if no item exists or
 * the stored time is older, so a retried or overlapping writer can never move state backwards.
 */
export class DynamoDbProbeStateStore {
  private readonly writes: ConcurrencyLimit = concurrencyLimit(STORE_WRITES_IN_FLIGHT);

  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
  ) {}

  async loadVerdicts(region: string, targetKeys: readonly string[]): Promise<VerdictItem[]> {
    const keys = targetKeys.map((key) => marshall(Keys.verdict(key, region)));
    // The item's own fields: the key attributes pk/sk are the table's, not the item type's.
    return (await batchGetItems(this.client, this.tableName, keys)).map((item) => {
      const { pk: _pk, sk: _sk, ...verdict } = unmarshall(item);
      return verdict as VerdictItem;
    });
  }

  loadHeartbeats(region: string): Promise<HeartbeatItem[]> {
    return readHeartbeats(this.client, this.tableName, region, { consistentRead: true });
  }

  putVerdict(item: VerdictItem): Promise<WriteOutcome> {
    return this.putIfNewer(
      { ...Keys.verdict(item.targetKey, item.region), ...item },
      'checkedAt',
      item.checkedAt,
    );
  }

  async loadCertificates(region: string): Promise<CertificatesItem[]> {
    const items = await readRegionItems(this.client, this.tableName, region, { consistentRead: true });
    return [...items.certificates];
  }

  putHeartbeat(item: HeartbeatItem): Promise<WriteOutcome> {
    return this.putIfNewer(heartbeatRecord(item), 'at', item.at);
  }

  putJudgeList(item: JudgeListItem): Promise<WriteOutcome> {
    return this.putIfNewer(judgeListRecord(item), 'at', item.at);
  }

  putCheckSummaries(item: CheckSummariesItem): Promise<WriteOutcome> {
    return this.putIfNewer(checkSummariesRecord(item), 'at', item.at);
  }

  putCertificates(item: CertificatesItem): Promise<WriteOutcome> {
    return this.putIfNewer(certificatesRecord(item), 'at', item.at);
  }

  private putIfNewer(item: object, timeAttribute: string, time: number): Promise<WriteOutcome> {
    return this.writes(async () => {
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
    });
  }
}
