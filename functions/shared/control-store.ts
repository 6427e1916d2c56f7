/**
 * Runtime control items (CONTROL partition, shared/state/items.ts) in the table: read by the
 * evaluator, the probe handlers and `tm status`; written by the `tm endpoint|profile`
 * commands — each conditioned on the target's control version (ControlVersionItem) — and
 * expired overrides deleted by the evaluator tick. Every write moves the CONTROL revision
 * counter (revisions.ts): a command's in its transaction, the tick's afterwards.
 */
import {
  DeleteItemCommand,
  GetItemCommand,
  TransactWriteItemsCommand,
  type DynamoDBClient,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { ControlConflictError } from '../../shared/control/errors.js';
import type { ControlPlan } from '../../shared/control/operations.js';
import { queryPartition } from './query-all.js';
import { bumpRevision, revisionMove } from './revisions.js';
import {
  type ControlVersionItem,
  type MonitorOverrideItem,
  type RuntimeControls,
  type StatusControlItem,
} from '../../shared/state/items.js';
import { ControlKind, KeyPrefix, Keys } from '../../shared/state/keys.js';

export async function readControls(client: DynamoDBClient, tableName: string): Promise<RuntimeControls> {
  const statuses: StatusControlItem[] = [];
  const overrides: MonitorOverrideItem[] = [];
  const items = await queryPartition(client, tableName, KeyPrefix.control, { consistentRead: true });
  for (const { pk: _pk, sk, ...item } of items as (Record<string, unknown> & { sk: string })[]) {
    if (sk.startsWith(ControlKind.status)) statuses.push(item as unknown as StatusControlItem);
    else if (sk.startsWith(ControlKind.override)) overrides.push(item as unknown as MonitorOverrideItem);
  }
  return { statuses, overrides };
}

/** The version of one endpoint's (or profile's) controls; 0 before any command changed them. */
export async function readControlVersion(
  client: DynamoDBClient,
  tableName: string,
  target: ControlTarget,
): Promise<number> {
  const { Item } = await client.send(
    new GetItemCommand({
      TableName: tableName,
      Key: marshall(Keys.controlVersion(target.profile, target.endpoint)),
      ConsistentRead: true,
    }),
  );
  return Item === undefined ? 0 : (unmarshall(Item) as ControlVersionItem).version;
}

/**
 * Commits what `planControl` decided for one profile or endpoint, if its controls are still at
 * `version`: the writes, the move of the version and of the CONTROL revision in one
 * transaction; a plan that changes nothing checks the version alone.
 * @returns the version the plan holds at (moved by one when it wrote).
 * @throws ControlConflictError when another command moved the version first.
 */
export async function commitControlPlan(
  client: DynamoDBClient,
  tableName: string,
  target: ControlTarget,
  plan: ControlPlan,
  version: number,
  now: number,
): Promise<number> {
  const key = marshall(Keys.controlVersion(target.profile, target.endpoint));
  const condition =
    version === 0
      ? { ConditionExpression: 'attribute_not_exists(pk)' }
      : {
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: marshall({ ':version': version }),
        };
  const writes = planWrites(tableName, target, plan);
  const items: TransactWriteItem[] =
    writes.length === 0
      ? [{ ConditionCheck: { TableName: tableName, Key: key, ...condition } }]
      : [
          {
            Update: {
              TableName: tableName,
              Key: key,
              UpdateExpression: 'SET version = :next, #at = :at',
              ExpressionAttributeNames: { '#at': 'at' },
              ...condition,
              ExpressionAttributeValues: marshall({
                ...(version === 0 ? {} : { ':version': version }),
                ':next': version + 1,
                ':at': now,
              }),
            },
          },
          ...writes,
          // The probe handlers re-read CONTROL when its counter moved (config-cache.ts, revisions.ts).
          { Update: revisionMove(tableName, 'control', now) },
        ];
  try {
    await client.send(new TransactWriteItemsCommand({ TransactItems: items }));
  } catch (error) {
    if (isConflict(error))
      throw new ControlConflictError(
        `${describeTarget(target)}: another command changed its controls meanwhile (version ${version} moved)`,
      );
    throw error;
  }
  return writes.length === 0 ? version : version + 1;
}

export interface ControlTarget {
  readonly profile: string;
  readonly endpoint?: string;
}

/** The plan's writes; its items are the target's, so they are keyed by it (a profile has no override). */
function planWrites(tableName: string, target: ControlTarget, plan: ControlPlan): TransactWriteItem[] {
  const write = (key: { pk: string; sk: string }, item: StatusControlItem | MonitorOverrideItem | null) =>
    item === null
      ? { Delete: { TableName: tableName, Key: marshall(key) } }
      : {
          Put: { TableName: tableName, Item: marshall({ ...key, ...item }, { removeUndefinedValues: true }) },
        };
  const writes: TransactWriteItem[] = [];
  if (plan.override !== undefined && target.endpoint !== undefined)
    writes.push(write(Keys.monitorOverride(target.profile, target.endpoint), plan.override));
  if (plan.status !== undefined)
    writes.push(write(Keys.statusControl(target.profile, target.endpoint), plan.status));
  return writes;
}

/** A condition that failed, or another transaction on the same items at the same moment. */
function isConflict(error: unknown): boolean {
  const { name, CancellationReasons } = error as {
    name?: string;
    CancellationReasons?: readonly { Code?: string }[];
  };
  if (name === 'ConditionalCheckFailedException' || name === 'TransactionConflictException') return true;
  return (
    name === 'TransactionCanceledException' &&
    (CancellationReasons ?? []).some(
      (reason) => reason.Code === 'ConditionalCheckFailed' || reason.Code === 'TransactionConflict',
    )
  );
}

const describeTarget = (target: ControlTarget) =>
  target.endpoint === undefined ? `profile ${target.profile}` : `${target.profile}/${target.endpoint}`;

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
