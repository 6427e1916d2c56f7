/** Makes the table's CONFIG items equal the definitions; idempotent. */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Profile } from '../../shared/profile/types.js';
import { planConfigSync, type ConfigSyncPlan } from './plan.js';
import { deleteConfigItem, putConfigItem, readConfigItems } from './store.js';

export async function syncConfig(
  client: DynamoDBClient,
  tableName: string,
  profiles: readonly Profile[],
  defaultProbeRegions: readonly string[],
): Promise<ConfigSyncPlan> {
  const plan = planConfigSync(await readConfigItems(client, tableName), profiles, defaultProbeRegions);
  // Puts first: a profile renamed in one deploy never leaves the table without either name.
  await inChunks(plan.puts, (item) => putConfigItem(client, tableName, item));
  await inChunks(plan.deletes, (name) => deleteConfigItem(client, tableName, name));
  return plan;
}

/** A few writes at a time: fast for hundreds of profiles without bursting past the SDK's retries. */
async function inChunks<T>(items: readonly T[], write: (item: T) => Promise<void>, size = 10): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(write));
}
