/**
 * A probe region's items in the table (layout: shared/state/items.ts): heartbeats, judge lists,
 * check summaries and certificates, one of each per shard under `REGION#<region>`. The large
 * parts (the judge list, the summary columns, the certificates, the latency histogram) are
 * stored as gzip-compressed JSON in binary attributes: DynamoDB bills a write by the item's
 * size in 1 KB units, and these compress well (keys share their prefixes, columns of small
 * numbers repeat). node:zlib's gzip, not brotli: cheaper in CPU (docs/cost.md, "Per endpoint").
 *
 * Every shard's heartbeat: one Query for the sort keys `HEARTBEAT` and `HEARTBEAT#<n>`. The
 * whole partition (`readRegionItems`): one Query, for `tm status`, the evaluator tick and a
 * worker restoring its certificates.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { RegionItems } from '../../shared/monitor/region-checks.js';
import {
  type CertificatesItem,
  type CheckSummariesItem,
  type HeartbeatItem,
  type JudgeListItem,
} from '../../shared/state/items.js';
import { Keys, RegionItemKind } from '../../shared/state/keys.js';
import { queryPartition } from './query-all.js';

export interface RegionReadOptions {
  /** A worker restoring its counts must see the last write; staleness needs no more than eventual reads. @default false */
  readonly consistentRead?: boolean;
}

/** JSON, gzip-compressed: what a binary attribute of a region item holds. */
function packed(value: unknown): Uint8Array {
  return gzipSync(JSON.stringify(value), { level: 9 });
}

/** The value of a packed attribute; `undefined` when it is not one (absent, or not readable). */
function unpacked(value: unknown): unknown {
  if (!(value instanceof Uint8Array)) return undefined;
  try {
    return JSON.parse(gunzipSync(value).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The item to put for a heartbeat (its latency histogram packed). */
export function heartbeatRecord(item: HeartbeatItem): Record<string, unknown> {
  const { latencies, ...rest } = item;
  return {
    ...Keys.heartbeat(item.region, item.shard),
    ...rest,
    ...(latencies === undefined ? {} : { latencies: packed(latencies) }),
  };
}

export function judgeListRecord(item: JudgeListItem): Record<string, unknown> {
  return { ...Keys.judgeList(item.region, item.shard), ...item, keys: packed(item.keys) };
}

export function checkSummariesRecord(item: CheckSummariesItem): Record<string, unknown> {
  return { ...Keys.checkSummaries(item.region, item.shard), ...item, columns: packed(item.columns) };
}

export function certificatesRecord(item: CertificatesItem): Record<string, unknown> {
  return {
    ...Keys.certificates(item.region, item.shard),
    ...item,
    certificates: packed(item.certificates),
  };
}

export async function readHeartbeats(
  client: DynamoDBClient,
  tableName: string,
  region: string,
  options: RegionReadOptions = {},
): Promise<HeartbeatItem[]> {
  const { pk, sk } = Keys.heartbeat(region);
  const items = await queryPartition(client, tableName, pk, {
    skPrefix: sk,
    consistentRead: options.consistentRead ?? false,
  });
  return items.map(heartbeatOf);
}

/** Every item of the region's partition, by kind (items of kinds this version does not know are left out). */
export async function readRegionItems(
  client: DynamoDBClient,
  tableName: string,
  region: string,
  options: RegionReadOptions = {},
): Promise<RegionItems> {
  const { pk } = Keys.heartbeat(region);
  const items = await queryPartition(client, tableName, pk, {
    consistentRead: options.consistentRead ?? false,
  });
  const kind = (item: Record<string, unknown>) => String(item.sk).split('#')[0];
  const of = (k: string) => items.filter((item) => kind(item) === k);
  return {
    heartbeats: of(RegionItemKind.heartbeat).map(heartbeatOf),
    judgeLists: of(RegionItemKind.judgeList).map(({ pk: _pk, sk: _sk, keys, ...rest }) => ({
      ...(rest as Omit<JudgeListItem, 'keys'>),
      keys: stringsOr(unpacked(keys)),
    })),
    checkSummaries: of(RegionItemKind.checkSummaries).map(({ pk: _pk, sk: _sk, columns, ...rest }) => ({
      ...(rest as Omit<CheckSummariesItem, 'columns'>),
      columns: (unpacked(columns) ?? []) as CheckSummariesItem['columns'],
    })),
    certificates: of(RegionItemKind.certificates).map(({ pk: _pk, sk: _sk, certificates, ...rest }) => ({
      ...(rest as Omit<CertificatesItem, 'certificates'>),
      certificates: recordOr(unpacked(certificates)) as CertificatesItem['certificates'],
    })),
  };
}

function heartbeatOf({ pk: _pk, sk: _sk, latencies, ...rest }: Record<string, unknown>): HeartbeatItem {
  const histogram = unpacked(latencies);
  return {
    ...(rest as unknown as HeartbeatItem),
    ...(Array.isArray(histogram) ? { latencies: histogram as HeartbeatItem['latencies'] } : {}),
  };
}

function stringsOr(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function recordOr(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
