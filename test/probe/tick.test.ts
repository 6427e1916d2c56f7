/**
 * The probe function's tick as deployed: configured by its environment, it reads the profiles
 * from DynamoDB Local and puts the minute's rounds on the round queue with the production SQS
 * client (pointed at an SQS stand-in). A queue that refuses rounds fails the invocation, so
 * EventBridge Scheduler retries it; nothing is dropped silently.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncConfig } from '../../functions/config-writer/sync.js';
import { tickHandler } from '../../functions/probe/tick.js';
import { ENDPOINT_VARIABLE } from '../../functions/shared/aws-clients.js';
import { EnvironmentVariable as Env } from '../../shared/contracts/environment.js';
import type { Profile } from '../../shared/profile/types.js';
import { freshTable } from '../support/dynamodb.js';
import { startSqsStandIn, type SqsStandIn } from '../support/sqs.js';
import { external, monitor, profile } from './worker.fixtures.js';

const REGION = 'eu-west-1';
const saved = { ...process.env };
let sqs: SqsStandIn;
let table: Awaited<ReturnType<typeof freshTable>>;

const shop = (intervalInSeconds: 10 | 30, probeRegions?: string[]): Profile =>
  profile('shop', {
    monitorConfig: monitor({ intervalInSeconds, timeoutInSeconds: 5 }),
    probeRegions,
    endpoints: [external('east', 'east.example.net')],
  });

beforeAll(async () => {
  sqs = await startSqsStandIn();
  table = await freshTable();
  Object.assign(process.env, {
    [Env.tableName]: table.tableName,
    [Env.probeRegion]: REGION,
    [Env.probeRegions]: `${REGION},us-east-1`,
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

describe('the probe tick', () => {
  it('without ROUND_QUEUE_URL it refuses to run, naming the variable', async () => {
    delete process.env[Env.roundQueueUrl];
    await expect(tickHandler()).rejects.toThrow(/ROUND_QUEUE_URL/);
    expect(sqs.batches).toEqual([]);
  });

  it('puts the minute’s rounds on the queue as one batch: every 10 s for a 10 s interval, each delayed to its due time', async () => {
    process.env[Env.roundQueueUrl] = sqs.queueUrl;
    await syncConfig(table.dynamodb, table.tableName, [shop(10)], [], Date.now());

    const before = Date.now();
    const result = await tickHandler();
    const after = Date.now();

    expect(result.targets).toBe(1);
    expect(sqs.batches).toEqual([
      result.enqueued.map((e) => ({
        queueUrl: sqs.queueUrl,
        id: e.Id,
        body: e.MessageBody,
        delaySeconds: e.DelaySeconds,
      })),
    ]);
    const rounds = result.enqueued.map((e) => ({
      ...JSON.parse(e.MessageBody),
      delaySeconds: e.DelaySeconds,
    }));
    const minute = Math.floor(before / 60_000) * 60_000;
    expect(rounds.length).toBeGreaterThanOrEqual(1);
    for (const [i, round] of rounds.entries()) {
      expect(round.roundPeriodMs).toBe(10_000);
      expect(round.dueAt).toBe((rounds[0]?.dueAt ?? 0) + i * 10_000);
      expect(round.dueAt).toBeLessThan(minute + 60_000);
      expect(round.dueAt + 10_000).toBeGreaterThan(before);
      // Delivered when due: whole seconds from the tick's moment, never negative.
      const delayAt = (now: number) => Math.max(0, Math.round((round.dueAt - now) / 1000));
      expect(round.delaySeconds).toBeGreaterThanOrEqual(delayAt(after));
      expect(round.delaySeconds).toBeLessThanOrEqual(delayAt(before));
    }
  });

  it('a region with no targets sends nothing (an idle region costs one short invocation)', async () => {
    await syncConfig(table.dynamodb, table.tableName, [shop(10, ['us-east-1'])], [], Date.now());
    const before = sqs.batches.length;
    expect(await tickHandler()).toEqual({ targets: 0, shards: 0, roundPeriodMs: undefined, enqueued: [] });
    expect(sqs.batches).toHaveLength(before);
  });

  it('rounds the queue refuses fail the tick, each named with its code', async () => {
    await syncConfig(table.dynamodb, table.tableName, [shop(30)], [], Date.now());
    sqs.failEntries(['round-0', 'round-1'], 'InternalError');
    // A minute has two 30 s rounds; the first is left out once it is a whole period late.
    await expect(tickHandler()).rejects.toThrow(
      /^could not enqueue rounds round-0 \(InternalError\)(, round-1 \(InternalError\))?$/,
    );
  });
});
