/**
 * The evaluator's static-failover items (STATIC / STRUCTURE and STATIC / PUBLISHING, ADR 0002):
 * what it applied (health-check ids, records, the plan's digest) and whether it is publishing,
 * which the tick turns into the guard metric. The structure is stored compressed, in as many
 * items as it needs (STATIC / STRUCTURE and STRUCTURE#1…); the publishing state is one item.
 */
import { randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  GetItemCommand,
  TransactGetItemsCommand,
  TransactWriteItemsCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { type EvaluatorPublishingItem, type StaticStructureItem } from '../../shared/state/items.js';
import { Keys } from '../../shared/state/keys.js';
import { putItem } from '../shared/put-item.js';
import { StaticFailoverError } from './errors.js';

/** Bytes of compressed structure per item: under DynamoDB's 400 KB with the key and the head's fields. */
const PART_BYTES = 350_000;

/** STATIC / STRUCTURE#i for i in [from, to). */
function partKeys(from: number, to: number): { pk: string; sk: string }[] {
  const head = Keys.staticStructure();
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => ({
    pk: head.pk,
    sk: `${head.sk}#${from + i}`,
  }));
}

function structureOf(
  head: Record<string, unknown>,
  rest: readonly Record<string, unknown>[],
): StaticStructureItem {
  // Items written before the structure was compressed hold the two maps as JSON strings.
  const { checks, zones } =
    head.payload === undefined
      ? { checks: JSON.parse(String(head.checks)), zones: JSON.parse(String(head.zones)) }
      : (JSON.parse(
          gunzipSync(Buffer.concat([head, ...rest].map((part) => part.payload as Uint8Array))).toString(
            'utf8',
          ),
        ) as Pick<StaticStructureItem, 'checks' | 'zones'>);
  return {
    digest: String(head.digest),
    checks,
    alarmRegions: (head.alarmRegions as string[] | undefined) ?? [],
    zones,
    appliedAt: Number(head.appliedAt),
    ...(head.problem === undefined ? {} : { problem: head.problem as StaticStructureItem['problem'] }),
  };
}

export class DynamoDbStaticFailoverStore {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
  ) {}

  /** One GetItem; more parts (a structure over ~350 KB compressed) in one TransactGetItems. */
  async loadStructure(): Promise<StaticStructureItem | undefined> {
    for (let attempt = 0; ; attempt += 1) {
      const head = await this.get(Keys.staticStructure());
      if (head === undefined) return undefined;
      const parts = Number(head.parts ?? 1);
      const rest = parts > 1 ? await this.transactGet(partKeys(1, parts)) : [];
      // A save in between (its parts and head are one transaction): read it whole again.
      if (rest.some((part) => part?.generation !== head.generation)) {
        if (attempt < 3) continue;
        throw new StaticFailoverError('the stored structure changed under three reads in a row');
      }
      return structureOf(head, rest as Record<string, unknown>[]);
    }
  }

  /**
   * The health-check ids and records as gzip-compressed JSON (about 15× smaller), cut into parts
   * of at most 350,000 bytes: DynamoDB's items are limited to 400 KB, and a structure of 500
   * endpoints is already ~420 KB of JSON. One part: one PutItem; more: one TransactWriteItems
   * with the head, the parts and the deletes of parts a larger structure left.
   */
  async saveStructure(item: StaticStructureItem): Promise<void> {
    const payload = gzipSync(JSON.stringify({ checks: item.checks, zones: item.zones }));
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < payload.length || chunks.length === 0; at += PART_BYTES)
      chunks.push(payload.subarray(at, at + PART_BYTES));
    const previous = Number((await this.get(Keys.staticStructure(), 'parts'))?.parts ?? 1);
    const generation = randomUUID();
    const head = {
      ...Keys.staticStructure(),
      digest: item.digest,
      alarmRegions: [...item.alarmRegions],
      appliedAt: item.appliedAt,
      ...(item.problem === undefined ? {} : { problem: item.problem }),
      generation,
      parts: chunks.length,
      payload: chunks[0],
    };
    if (chunks.length === 1 && previous <= 1) return putItem(this.client, this.tableName, head);
    const puts = chunks
      .slice(1)
      .map((chunk, i) => ({ ...partKeys(i + 1, i + 2)[0], generation, payload: chunk }));
    await this.client.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          ...[head, ...puts].map((row) => ({
            Put: { TableName: this.tableName, Item: marshall(row, { removeUndefinedValues: true }) },
          })),
          ...partKeys(chunks.length, previous).map((key) => ({
            Delete: { TableName: this.tableName, Key: marshall(key) },
          })),
        ],
      }),
    );
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
    await putItem(this.client, this.tableName, { ...Keys.evaluatorPublishing(), ...item });
  }

  private async get(
    key: { pk: string; sk: string },
    projection?: string,
  ): Promise<Record<string, unknown> | undefined> {
    const out = await this.client.send(
      new GetItemCommand({
        TableName: this.tableName,
        Key: marshall(key),
        ConsistentRead: true,
        ...(projection === undefined ? {} : { ProjectionExpression: projection }),
      }),
    );
    return out.Item === undefined ? undefined : unmarshall(out.Item);
  }

  private async transactGet(
    keys: readonly { pk: string; sk: string }[],
  ): Promise<(Record<string, unknown> | undefined)[]> {
    const out = await this.client.send(
      new TransactGetItemsCommand({
        TransactItems: keys.map((key) => ({ Get: { TableName: this.tableName, Key: marshall(key) } })),
      }),
    );
    return (out.Responses ?? []).map((r) => (r.Item === undefined ? undefined : unmarshall(r.Item)));
  }
}
