/**
 * Racing runtime control commands on DynamoDB Local, the way `tm endpoint …` commits them
 * (functions/shared/control-command.ts): each is conditioned on the endpoint's control
 * version, so the state after racing commands is what the one that committed last asked for,
 * and a command never says "already …" of a state another command changed before it
 * committed.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runControl } from '../../functions/shared/control-command.js';
import { readControls, readControlVersion } from '../../functions/shared/control-store.js';
import { dynamoDbClient } from '../../functions/shared/aws-clients.js';
import { applyControls } from '../../shared/control/apply.js';
import type { ControlAction } from '../../shared/control/operations.js';
import { externalEndpoint, profile } from '../support/profiles.js';
import { freshTable } from '../support/dynamodb.js';

const PROFILES = [
  profile({
    name: 'flip',
    endpoints: [
      externalEndpoint({ name: 'x', target: '192.0.2.1' }),
      externalEndpoint({ name: 'y', target: '192.0.2.2', priority: 2 }),
    ],
  }),
];
const disable: ControlAction = { kind: 'disable', profile: 'flip', endpoint: 'y' };
const enable: ControlAction = { kind: 'enable', profile: 'flip', endpoint: 'y' };

let table: Awaited<ReturnType<typeof freshTable>>;
beforeAll(async () => {
  table = await freshTable('tm-control-race');
});
afterAll(() => table.dynamodb.destroy());

const run = (action: ControlAction, client: DynamoDBClient = table.dynamodb) =>
  runControl(client, table.tableName, PROFILES, action, { by: 'test', reason: action.kind });

/** flip/y's effective status from the stored controls. */
async function effectiveStatus(): Promise<string | undefined> {
  const controls = await readControls(table.dynamodb, table.tableName);
  return applyControls(PROFILES, controls, Date.now())[0]?.endpoints.find((e) => e.name === 'y')
    ?.endpointStatus;
}

const asked = (action: ControlAction) => (action.kind === 'disable' ? 'Disabled' : 'Enabled');
const wrote = (outcome: Awaited<ReturnType<typeof runControl>>) => outcome.plan.status !== undefined;

/**
 * A client whose first Query (the controls read) is answered only once `release` resolves:
 * the command read before a racing command's commit and decides after it.
 */
function clientHeldAfterRead(release: Promise<unknown>): { client: DynamoDBClient; read: Promise<void> } {
  const client = dynamoDbClient({
    endpoint: table.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  let held = false;
  let readDone: () => void = () => undefined;
  const read = new Promise<void>((resolve) => (readDone = resolve));
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName === 'QueryCommand' && !held) {
        held = true;
        readDone();
        await release;
      }
      return result;
    },
    { step: 'initialize', name: 'holdAfterFirstRead' },
  );
  return { client, read };
}

describe('runtime control commands committed on a version', () => {
  it('an enable that read before a racing disable committed reads again: Enabled, not "already enabled"', async () => {
    // Prepare: flip/y enabled; the enable reads its controls, then waits for the disable to commit.
    expect(await effectiveStatus()).toBe('Enabled');
    let committed: (value: unknown) => void = () => undefined;
    const disableCommitted = new Promise((resolve) => (committed = resolve));
    const { client, read } = clientHeldAfterRead(disableCommitted);

    // Act
    const enabling = run(enable, client);
    await read;
    const disabled = await run(disable);
    committed(undefined);
    const enabled = await enabling;
    client.destroy();

    // Assess
    expect(disabled.plan.summary).toBe('flip/y disabled: not probed, not in DNS answers');
    expect(enabled.plan.summary).toBe(
      'flip/y enabled: CheckingEndpoint until checks made from now on decide',
    );
    expect(enabled.version).toBe(disabled.version + 1);
    expect(await effectiveStatus()).toBe('Enabled');
  });

  it.each([
    { name: 'disable then enable', first: disable, second: enable },
    { name: 'enable then disable', first: enable, second: disable },
  ])(
    '40 racing pairs, $name: the state is what the command that committed last asked for',
    async ({ first, second }) => {
      for (let pair = 0; pair < 40; pair++) {
        // Prepare: start each pair from the state the first command changes.
        await run(first.kind === 'disable' ? enable : disable);
        const before = await readControlVersion(table.dynamodb, table.tableName, first);

        // Act: both at once, the second a few milliseconds later.
        const [a, b] = await Promise.all([
          run(first),
          new Promise((resolve) => setTimeout(resolve, pair % 5)).then(() => run(second)),
        ]);

        // Assess: each command holds at a version — a write makes the next one, a check holds at
        // the one it checked (after the write that made it) — and the later one decides.
        const last = b.version > a.version || (b.version === a.version && !wrote(b)) ? second : first;
        const state = await effectiveStatus();
        expect({ pair, state }).toEqual({ pair, state: asked(last) });
        const writes = [a, b].filter(wrote).length;
        expect(await readControlVersion(table.dynamodb, table.tableName, first)).toBe(before + writes);
        for (const [outcome, action] of [
          [a, first],
          [b, second],
        ] as const) {
          if (wrote(outcome)) expect(outcome.plan.status?.status ?? 'Enabled').toBe(asked(action));
          else expect(outcome.plan.summary).toMatch(/is already /);
        }
      }
    },
  );
});
