/**
 * The history items (HISTORY#<profile>, shared/state/items.ts) read back: one query per
 * profile, newest first, from `since` on (the sort key starts with the ISO time, so the
 * time bound is part of the key condition). Read by `tm history`.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { TransitionRecord } from '../../shared/evaluation/transitions.js';
import { type HistoryItem } from '../../shared/state/items.js';
import { KeyPrefix } from '../../shared/state/keys.js';
import { queryAll } from './query-all.js';

export async function readHistory(
  client: DynamoDBClient,
  tableName: string,
  profile: string,
  since?: number,
): Promise<TransitionRecord[]> {
  const items = await queryAll(client, {
    TableName: tableName,
    KeyConditionExpression: since === undefined ? 'pk = :pk' : 'pk = :pk AND sk >= :since',
    ExpressionAttributeValues: {
      ':pk': { S: `${KeyPrefix.history}${profile}` },
      ...(since === undefined ? {} : { ':since': { S: new Date(since).toISOString() } }),
    },
    ScanIndexForward: false,
  });
  return (items as unknown as HistoryItem[]).map(
    ({ pk: _pk, sk: _sk, expiresAt: _expiresAt, ...record }) => record,
  );
}
