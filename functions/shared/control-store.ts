/**
 * Runtime control items (CONTROL partition, shared/state/items.ts) in the table: read by the
 * evaluator, the probe handlers and `tm status`; written by the `tm endpoint|profile`
 * commands; expired overrides deleted by the evaluator tick. Every write moves the CONTROL
 * revision counter afterwards (revisions.ts).
 */
import { DeleteItemCommand, PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { ControlPlan } from '../../shared/control/operations.js';
import { queryAll } from './query-all.js';
import { bumpRevision } from './revisions.js';
import {
  ControlKind,
  KeyPrefix,
  Keys,
  type MonitorOverrideItem,
  type RuntimeControls,
  type StatusControlItem,
} from '../../shared/state/items.js';

export async function readControls(client: DynamoDBClient, tableName: string): Promise<RuntimeControls> {
  const statuses: StatusControlItem[] = [];
  const overrides: MonitorOverrideItem[] = [];
  const items = await queryAll(client, {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': { S: KeyPrefix.control } },
    ConsistentRead: true,
  });
  for (const { pk: _pk, sk, ...item } of items as (Record<string, unknown> & { sk: string })[]) {
    if (sk.startsWith(ControlKind.status)) statuses.push(item as unknown as StatusControlItem);
    else if (sk.startsWith(ControlKind.override)) overrides.push(item as unknown as MonitorOverrideItem);
  }
  return { statuses, overrides };
}

/** Writes what `planControl` decided for one profile or endpoint. */
export async function writeControlPlan(
  client: DynamoDBClient,
  tableName: string,
  target: { readonly profile: string; readonly endpoint?: string },
  plan: ControlPlan,
): Promise<void> {
  if (plan.override === null && target.endpoint !== undefined) {
    await client.send(
      new DeleteItemCommand({
        TableName: tableName,
        Key: marshall(Keys.monitorOverride(target.profile, target.endpoint)),
      }),
    );
  } else if (plan.override !== undefined && plan.override !== null) {
    await put(
      client,
      tableName,
      Keys.monitorOverride(plan.override.profile, plan.override.endpoint),
      plan.override,
    );
  }
  if (plan.status === null) {
    await client.send(
      new DeleteItemCommand({
        TableName: tableName,
        Key: marshall(Keys.statusControl(target.profile, target.endpoint)),
      }),
    );
  } else if (plan.status !== undefined) {
    await put(client, tableName, Keys.statusControl(plan.status.profile, plan.status.endpoint), plan.status);
  }
  // After the writes: the probe handlers re-read CONTROL when its counter moved (config-cache.ts).
  if (plan.override !== undefined || plan.status !== undefined)
    await bumpRevision(client, tableName, 'control');
}

/**
 * Deletes an override that has expired, unless it was replaced meanwhile (same `until`
 * only). The delete reaches the evaluator through the stream: the profile is re-evaluated.
 * @returns false when the item was replaced or already gone.
 */
export async function deleteExpiredOverride(
  client: DynamoDBClient,
  tableName: string,
  override: MonitorOverrideItem,
): Promise<boolean> {
  try {
    await client.send(
      new DeleteItemCommand({
        TableName: tableName,
        Key: marshall(Keys.monitorOverride(override.profile, override.endpoint)),
        ConditionExpression: '#until = :until',
        ExpressionAttributeNames: { '#until': 'until' },
        ExpressionAttributeValues: { ':until': { N: String(override.until) } },
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
  await bumpRevision(client, tableName, 'control');
  return true;
}

async function put(
  client: DynamoDBClient,
  tableName: string,
  key: { pk: string; sk: string },
  item: StatusControlItem | MonitorOverrideItem,
): Promise<void> {
  await client.send(
    new PutItemCommand({
      TableName: tableName,
      Item: marshall({ ...key, ...item }, { removeUndefinedValues: true }),
    }),
  );
}
