/**
 * A warm probe tick or shard reads the whole config only when it changed: each minute it
 * reads the two revision counters, and CONFIG or CONTROL again only after the config writer
 * or a runtime control (`tm endpoint disable`, what its command writes) moved them — so the
 * reads follow changes, not endpoints × readers. The tick as deployed (environment, client
 * factory) on DynamoDB Local with an SQS stand-in; the shard through the round handler with
 * the deployed handler's config reader and a fake clock.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncConfig } from '../../functions/config-writer/sync.js';
import { MemoryProbeStateStore } from '../support/memory-probe-state-store.js';
import { createRoundHandler } from '../../functions/probe/round-handler.js';
import { tickHandlerFromEnv } from '../../functions/probe/tick.js';
import { createProbeWorker } from '../../functions/probe/worker.js';
import { ENDPOINT_VARIABLE } from '../../functions/shared/aws-clients.js';
import { CONFIG_CACHE_MAX_AGE_MS, cachedEffectiveConfig } from '../../functions/shared/config-cache.js';
import { readDeployedConfig } from '../../functions/shared/config-reader.js';
import { runControl } from '../../functions/shared/control-command.js';
import { EnvironmentVariable as Env } from '../../shared/contracts/environment.js';
import type { ControlAction } from '../../shared/control/operations.js';
import type { Profile } from '../../shared/profile/types.js';
import { clientsSeenBy } from '../support/aws-clients.js';
import { freshTable } from '../support/dynamodb.js';
import { startSqsStandIn, type SqsStandIn } from '../support/sqs.js';
import { external, fakeClock, monitor, noSleep, profile, scriptedProber } from './worker.fixtures.js';

const REGION = 'eu-west-1';
const saved = { ...process.env };
let sqs: SqsStandIn;
let table: Awaited<ReturnType<typeof freshTable>>;
/** Queries per partition key, by every metered client: the tick's own, the tables' (the writer's, tm's). */
const queries = new Map<string, number>();
const queriesOf = (pk: string) => queries.get(pk) ?? 0;

/** 20 profiles of 5 endpoints each: 100 probe requests. */
const profiles = (path = '/health'): Profile[] =>
  Array.from({ length: 20 }, (_, i) =>
    profile(`p${i}`, {
      monitorConfig: monitor({ intervalInSeconds: 10, timeoutInSeconds: 5, path }),
      endpoints: Array.from({ length: 5 }, (_, j) => external(`e${j}`, `e${j}.p${i}.example.net`)),
    }),
  );

async function disable(
  client: DynamoDBClient,
  tableName: string,
  target: { profile: string; endpoint: string },
) {
  const action: ControlAction = { kind: 'disable', ...target };
  const config = await readDeployedConfig(client, tableName);
  await runControl(client, tableName, config.profiles, action, { by: 'test' });
}

function meter(client: DynamoDBClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'QueryCommand') {
        const pk = (args.input as { ExpressionAttributeValues?: Record<string, { S?: string }> })
          .ExpressionAttributeValues?.[':pk']?.S;
        if (pk !== undefined) queries.set(pk, queriesOf(pk) + 1);
      }
      return next(args);
    },
    { step: 'initialize', name: 'testQueryMeter' },
  );
}

/** A table whose client is metered. */
async function meteredTable() {
  const fresh = await freshTable();
  meter(fresh.dynamodb);
  return fresh;
}

/** The probe tick as deployed, its own DynamoDB clients metered. */
const tickHandler = tickHandlerFromEnv(
  clientsSeenBy((client, service) => {
    if (service === 'dynamodb') meter(client as DynamoDBClient);
  }),
);

beforeAll(async () => {
  sqs = await startSqsStandIn();
  table = await meteredTable();
  Object.assign(process.env, {
    [Env.tableName]: table.tableName,
    [Env.probeRegion]: REGION,
    [Env.probeRegions]: REGION,
    [Env.roundQueueUrl]: sqs.queueUrl,
    [ENDPOINT_VARIABLE.dynamodb]: table.endpoint,
    [ENDPOINT_VARIABLE.sqs]: sqs.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
});
afterAll(async () => {
  process.env = saved;
  await sqs.stop();
});

/**
 * A probe shard as deployed reads its config: the round handler over a worker, loading the
 * config through `cachedEffectiveConfig` on DynamoDB Local, on a fake clock. Counts the plans.
 */
async function shardOnTable(path: string) {
  const { dynamodb, tableName } = await meteredTable();
  await syncConfig(dynamodb, tableName, profiles(path), [REGION], Date.now());
  const clock = fakeClock();
  const worker = createProbeWorker({
    region: REGION,
    store: new MemoryProbeStateStore(),
    prober: scriptedProber(clock).prober,
    clock,
    sleep: noSleep,
    logger: { warn: () => undefined },
  });
  const counted = { plans: 0 };
  const setTargets = worker.setTargets.bind(worker);
  worker.setTargets = (probes, shards) => {
    counted.plans++;
    setTargets(probes, shards);
  };
  const effectiveConfig = cachedEffectiveConfig(dynamodb, tableName);
  const handler = createRoundHandler({
    worker,
    clock,
    loadConfig: () => effectiveConfig(clock.now()),
    fallbackProbeRegions: [REGION],
    logger: { warn: () => undefined, info: () => undefined },
  });
  const round = async (dueAt: number) => {
    clock.set(dueAt);
    await handler({
      Records: [{ messageId: `m-${dueAt}`, body: JSON.stringify({ dueAt, roundPeriodMs: 10_000 }) }],
    } as unknown as SQSEvent);
  };
  const firstDueAt = Math.ceil(clock.now() / 10_000) * 10_000;
  return { dynamodb, tableName, worker, counted, round, firstDueAt };
}

describe('config reads follow changes', () => {
  it('the probe tick as deployed: 5 unchanged minutes read CONFIG and CONTROL once; a disable and a deploy are each read once, at the next tick', async () => {
    // Prepare
    await syncConfig(table.dynamodb, table.tableName, profiles(), [REGION], Date.now());
    queries.clear();
    // Act: five ticks (minutes) without a change
    const unchanged = [];
    for (let i = 0; i < 5; i++) unchanged.push(await tickHandler());
    const [config, control] = [queriesOf('CONFIG'), queriesOf('CONTROL')];
    await disable(table.dynamodb, table.tableName, { profile: 'p3', endpoint: 'e1' });
    const afterDisable = await tickHandler();
    await tickHandler();
    const afterDisableQueries = [queriesOf('CONFIG'), queriesOf('CONTROL')];
    await syncConfig(table.dynamodb, table.tableName, profiles().slice(0, 10), [REGION], Date.now());
    const afterDeploy = await tickHandler();
    // Assess
    expect(unchanged.map((r) => r.targets)).toEqual([100, 100, 100, 100, 100]);
    expect([config, control]).toEqual([1, 1]);
    expect(afterDisable.targets).toBe(99);
    // disable: tm read CONFIG and CONTROL once; the tick re-read CONTROL once
    expect(afterDisableQueries).toEqual([config + 1, control + 2]);
    expect(afterDeploy.targets).toBe(49);
    // the deploy: the config writer read CONFIG once; the tick re-read it once
    expect(queriesOf('CONFIG')).toBe(config + 3);
  });

  it('a probe shard: 10 minutes of rounds read CONFIG once and plan once; a disable stops its probe within the minute', async () => {
    // Prepare
    const { dynamodb, tableName, worker, counted, round, firstDueAt } = await shardOnTable('/shard');
    let dueAt = firstDueAt;
    const rounds = async (n: number) => {
      for (let i = 0; i < n; i++, dueAt += 10_000) await round(dueAt);
    };
    queries.clear();
    // Act
    await rounds(60);
    const steady = { config: queriesOf('CONFIG'), plans: counted.plans, targets: worker.targets().length };
    await disable(dynamodb, tableName, { profile: 'p0', endpoint: 'e0' });
    await rounds(6);
    // Assess
    expect(steady).toEqual({ config: 1, plans: 1, targets: 100 });
    expect(worker.targets().length).toBe(99);
    expect(counted.plans).toBe(2);
    // tm's disable read CONFIG once; the shard did not
    expect(queriesOf('CONFIG')).toBe(2);
  });

  it('a probe shard: the hourly re-read of an unchanged config keeps the plan (no re-plan)', async () => {
    // Prepare
    const { worker, counted, round, firstDueAt } = await shardOnTable('/hourly');
    queries.clear();
    // Act: a round, then rounds past the cache's maximum age (the whole config is read again)
    await round(firstDueAt);
    const later = firstDueAt + Math.ceil(CONFIG_CACHE_MAX_AGE_MS / 10_000) * 10_000 + 10_000;
    for (let i = 0; i < 6; i++) await round(later + i * 10_000);
    // Assess: CONFIG was read twice, planned once
    expect(queriesOf('CONFIG')).toBe(2);
    expect(counted.plans).toBe(1);
    expect(worker.targets().length).toBe(100);
  });
});
