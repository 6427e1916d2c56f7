/**
 * Makes the table's CONFIG items equal the definitions, then moves the CONFIG revision counter;
 * idempotent (reads: functions/shared/config-reader.ts).
 */
import { DeleteItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { Profile } from '../../shared/profile/types.js';
import type { ConfigItem } from '../../shared/state/items.js';
import { Keys } from '../../shared/state/keys.js';
import { mapLimited } from '../shared/concurrency.js';
import { putItem } from '../shared/put-item.js';
import { readConfigItems } from '../shared/config-reader.js';
import { bumpRevision } from '../shared/revisions.js';
import { planConfigSync } from './plan.js';

/** A few writes at a time: fast for hundreds of profiles without bursting past the SDK's retries. */
const CONFIG_WRITES_IN_FLIGHT = 10;

export async function syncConfig(
  client: DynamoDBClient,
  tableName: string,
  profiles: readonly Profile[],
  defaultProbeRegions: readonly string[],
  /** The moment a re-enabled profile or endpoint is stamped with. @default Date.now() */
  now: number = Date.now(),
) {
  const plan = planConfigSync(await readConfigItems(client, tableName), profiles, defaultProbeRegions, now);
  // Puts first: a profile renamed in one deploy never leaves the table without either name.
  await mapLimited(plan.puts, CONFIG_WRITES_IN_FLIGHT, (item) => putConfigItem(client, tableName, item));
  await mapLimited(plan.deletes, CONFIG_WRITES_IN_FLIGHT, (name) =>
    client.send(new DeleteItemCommand({ TableName: tableName, Key: marshall(Keys.config(name)) })),
  );
  // Last, and on every sync (a deploy, `tm local` starting): warm readers re-read CONFIG once.
  await bumpRevision(client, tableName, 'config', now);
  return plan;
}

export function putConfigItem(client: DynamoDBClient, tableName: string, item: ConfigItem): Promise<void> {
  return putItem(client, tableName, { ...Keys.config(item.name), ...item });
}
