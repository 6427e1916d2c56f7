/**
 * One runtime control command against the table, as `tm endpoint|profile …` runs it: read the
 * target's control version, then the controls; plan (shared/control/operations.ts); commit
 * on that version (control-store.ts). When another command committed first, read again and
 * plan again, so the command that commits last decides the state, and "already …" is never
 * said of a state another command had changed meanwhile.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ControlConflictError } from '../../shared/control/errors.js';
import { planControl, type Caller, type ControlAction } from '../../shared/control/operations.js';
import type { Profile } from '../../shared/profile/types.js';
import { commitControlPlan, readControls, readControlVersion } from './control-store.js';
import { retrying, type RetryPolicy } from './retry.js';

/**
 * Bounded: a command loses each race only to a command that committed, so ten losses in a row
 * mean a script hammering the same endpoint; it says so rather than waiting on.
 */
const CONFLICT_RETRY: RetryPolicy = { retries: 9, baseDelayMs: 10, maxDelayMs: 250 };

/** @throws ControlConflictError after ten lost races; the planner's errors at once. */
export function runControl(
  client: DynamoDBClient,
  tableName: string,
  profiles: readonly Profile[],
  action: ControlAction,
  caller: Caller,
  now: () => number = Date.now,
) {
  return retrying(
    CONFLICT_RETRY,
    { isRetryable: (error) => error instanceof ControlConflictError },
    async () => {
      // The version first: a control written after this read moves it, so the commit fails
      // rather than stand on controls newer or older than the version it checks.
      const version = await readControlVersion(client, tableName, action);
      const controls = await readControls(client, tableName);
      const at = now();
      const plan = planControl(profiles, controls, action, caller, at);
      // The target's control version the plan holds at: moved by one when the plan wrote.
      return { plan, version: await commitControlPlan(client, tableName, action, plan, version, at) };
    },
  );
}
