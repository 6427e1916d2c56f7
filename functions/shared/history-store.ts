/**
 * The history items (HISTORY#<profile>, shared/state/items.ts) read back: one query per
 * profile, newest first, from `since` on (the sort key starts with the ISO time, so the
 * time bound is part of the key condition). Read by `tm history`.
 */
import { QueryCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { TransitionRecord } from '../../shared/evaluation/transitions.js';
import { KeyPrefix, type HistoryItem } from '../../shared/state/items.js';

export async function readHistory(
  client: DynamoDBClient,
  tableName: string,
  profile: string,
  since?: number,
): Promise<TransitionRecord[]> {
  const records: TransitionRecord[] = [];
  let startKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: since === undefined ? 'pk = :pk' : 'pk = :pk AND sk >= :since',
        ExpressionAttributeValues: {
          ':pk': { S: `${KeyPrefix.history}${profile}` },
          ...(since === undefined ? {} : { ':since': { S: new Date(since).toISOString() } }),
        },
        ScanIndexForward: false,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const raw of page.Items ?? []) {
      const { pk: _pk, sk: _sk, expiresAt: _expiresAt, ...record } = unmarshall(raw) as HistoryItem;
      records.push(record);
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return records;
}
