/**
 * The probe function's tick as deployed: configured by its environment, it reads the profiles
 * from DynamoDB Local and puts the next minute's rounds on the round queue with the production SQS
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

  it('rounds the queue refuses fail the tick, each named with its code, and are sent again by the next run', async () => {
    process.env[Env.roundQueueUrl] = sqs.queueUrl;
    await syncConfig(table.dynamodb, table.tableName, [shop(30)], [], Date.now());
    sqs.failEntries(['round-0', 'round-1'], 'InternalError');
    // A first run sends the rest of its minute's 30 s rounds and the next minute's two.
    await expect(tickHandler()).rejects.toThrow(
      /^could not enqueue rounds round-0 \(InternalError\), round-1 \(InternalError\)$/,
    );
    sqs.failEntries([], 'InternalError');
  });

  it('puts the next minute’s rounds on the queue (and, on its first run, the rest of this one): every 10 s for a 10 s interval, each delayed exactly to its due time', async () => {
    await syncConfig(table.dynamodb, table.tableName, [shop(10)], [], Date.now());
    const sentBefore = sqs.batches.length;

    const before = Date.now();
    const result = await tickHandler();
    const after = Date.now();

    expect(result.targets).toBe(1);
    // At most 10 entries per batch (SQS's limit), all of the tick's rounds in order
    const batches = sqs.batches.slice(sentBefore);
    expect(batches.every((batch) => batch.length <= 10)).toBe(true);
    expect(batches.flat()).toEqual(
      result.enqueued.map((e) => ({
        queueUrl: sqs.queueUrl,
        id: e.Id,
        body: e.MessageBody,
        delaySeconds: e.DelaySeconds,
      })),
    );
    const rounds = result.enqueued.map((e) => ({
      ...JSON.parse(e.MessageBody),
      delaySeconds: e.DelaySeconds,
    }));
    // The next minute's last round, the minute being the tick's own (a run may cross a minute boundary)
    const minuteOf = (at: number) => Math.floor(at / 60_000) * 60_000;
    expect([minuteOf(before) + 110_000, minuteOf(after) + 110_000]).toContain(rounds.at(-1)?.dueAt);
    for (const [i, round] of rounds.entries()) {
      expect(round.roundPeriodMs).toBe(10_000);
      expect(round.dueAt).toBe((rounds[0]?.dueAt ?? 0) + i * 10_000);
      expect(round.dueAt + 10_000).toBeGreaterThan(before);
    }
    // Sent on one whole second between the start and the end of the run, from which every
    // round not yet due is delayed exactly to its due time
    const sentAt = new Set(
      rounds.filter((r) => r.delaySeconds > 0).map((r) => r.dueAt - r.delaySeconds * 1000),
    );
    expect(sentAt.size).toBe(1);
    const [sendAt] = [...sentAt];
    expect(sendAt! % 1000).toBe(0);
    expect(sendAt).toBeGreaterThanOrEqual(before);
    expect(sendAt).toBeLessThanOrEqual(after);
    for (const round of rounds.filter((r) => r.delaySeconds === 0))
      expect(round.dueAt).toBeLessThanOrEqual(sendAt!);
  });

  it('a region with no targets sends nothing (an idle region costs one short invocation)', async () => {
    await syncConfig(table.dynamodb, table.tableName, [shop(10, ['us-east-1'])], [], Date.now());
    const before = sqs.batches.length;
    expect(await tickHandler()).toEqual({ targets: 0, shards: 0, roundPeriodMs: undefined, enqueued: [] });
    expect(sqs.batches).toHaveLength(before);
  });
});
