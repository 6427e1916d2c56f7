/**
 * What a local stack found in a table kept on disk by an earlier start, to say at start: the
 * statuses the evaluator had stored, the runtime controls in force and the history kept.
 */
import { paginateQuery, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { readControls } from '../../functions/shared/control-store.js';
import { readConfigItems } from '../../functions/shared/config-reader.js';
import { KeyPrefix } from '../../shared/state/keys.js';

export type RestoredState = Awaited<ReturnType<typeof readRestoredState>>;

export async function readRestoredState(client: DynamoDBClient, tableName: string) {
  const [profiles, controls, statuses] = await Promise.all([
    readConfigItems(client, tableName),
    readControls(client, tableName),
    countOf(client, tableName, KeyPrefix.status),
  ]);
  let history = 0;
  for (const profile of profiles)
    history += await countOf(client, tableName, `${KeyPrefix.history}${profile.name}`);
  return {
    /** Profiles with a stored status (each endpoint's status and counts go on from it). */
    statuses,
    /** Runtime Enabled/Disabled controls and overrides in the table. */
    controls: controls.statuses.filter((c) => c.status !== undefined).length + controls.overrides.length,
    /** History entries of the profiles the table held. */
    history,
  };
}

/** `restored 2 profile statuses, 1 runtime control, 15 history entries` */
export function describeRestoredState(restored: RestoredState): string {
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return `restored ${count(restored.statuses, 'profile status', 'profile statuses')}, ${count(restored.controls, 'runtime control', 'runtime controls')}, ${count(restored.history, 'history entry', 'history entries')}`;
}

async function countOf(client: DynamoDBClient, tableName: string, pk: string): Promise<number> {
  let count = 0;
  const pages = paginateQuery(
    { client },
    {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: pk } },
      Select: 'COUNT',
    },
  );
  for await (const page of pages) count += page.Count ?? 0;
  return count;
}
