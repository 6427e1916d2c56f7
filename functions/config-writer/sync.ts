/** Makes the table's CONFIG items equal the definitions, then moves the CONFIG revision counter; idempotent. */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Profile } from '../../shared/profile/types.js';
import { mapLimited } from '../shared/concurrency.js';
import { bumpRevision } from '../shared/revisions.js';
import { planConfigSync, type ConfigSyncPlan } from './plan.js';
import { deleteConfigItem, putConfigItem, readConfigItems } from './store.js';

/** A few writes at a time: fast for hundreds of profiles without bursting past the SDK's retries. */
const CONFIG_WRITES_IN_FLIGHT = 10;

export async function syncConfig(
  client: DynamoDBClient,
  tableName: string,
  profiles: readonly Profile[],
  defaultProbeRegions: readonly string[],
  /** The moment a re-enabled profile or endpoint is stamped with. @default Date.now() */
  now: number = Date.now(),
): Promise<ConfigSyncPlan> {
  const plan = planConfigSync(await readConfigItems(client, tableName), profiles, defaultProbeRegions, now);
  // Puts first: a profile renamed in one deploy never leaves the table without either name.
  await mapLimited(plan.puts, CONFIG_WRITES_IN_FLIGHT, (item) => putConfigItem(client, tableName, item));
  await mapLimited(plan.deletes, CONFIG_WRITES_IN_FLIGHT, (name) =>
    deleteConfigItem(client, tableName, name),
  );
  // Last, and on every sync (a deploy, `tm local` starting): warm readers re-read CONFIG once.
  await bumpRevision(client, tableName, 'config', now);
  return plan;
}
