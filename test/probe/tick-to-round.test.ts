/**
 * Integration: rounds from the real tick reach the real round handler through a round queue
 * that honours whole-second DelaySeconds, on DynamoDB Local with a real loopback backend.
 * Time is simulated (a fake clock moved to each message's visible time and to each of the
 * worker's waits), so the bounds are exact and hold on any machine: every probe starts
 * within 1 s of its own due time (its round's due time plus its place in the spread), every
 * target is checked exactly once per interval, and a new tick container that enqueues rounds
 * a previous one had already enqueued changes nothing.
 */
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbProbeStateStore } from '../../functions/probe/dynamodb-state-store.js';
import { probe } from '../../functions/probe/probers/registry.js';
import type { RoundQueue } from '../../functions/probe/sqs-round-queue.js';
import { createRoundHandler } from '../../functions/probe/round-handler.js';
import { createTickHandler } from '../../functions/probe/tick.js';
import { createProbeWorker } from '../../functions/probe/worker.js';
import { planProbes } from '../../shared/probe/plan.js';
import {
  COMPACT_SPREAD,
  isDueInRound,
  MINUTE_MS,
  spreadWindowMs,
  startDelayMs,
} from '../../shared/probe/round-schedule.js';
import type { Profile } from '../../shared/profile/types.js';
import type { Prober } from '../../shared/probe/target.js';
import { KeyPrefix } from '../../shared/state/keys.js';
import { LAMBDA_MB_PER_VCPU, roundCpuMs, startSpanMs } from '../../shared/probe/shard-capacity.js';
import { freshTable } from '../support/dynamodb.js';
import { startLoopbackBackend, type LoopbackBackend } from '../support/loopback-backend.js';
import { external, fakeClock, monitor, profile } from './worker.fixtures.js';

const REGION = 'eu-north-1';
const MINUTE = Date.UTC(2030, 0, 1, 8, 0, 0);
let backend: LoopbackBackend;
const hits = new Map<string, number>();

beforeAll(async () => {
  backend = await startLoopbackBackend('127.0.0.1', (req, res) => {
    hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
    res.end('ok');
  });
});
afterAll(() => backend.close());

const profiles = (): Profile[] =>
  [10, 10, 30, 30].map((interval, i) =>
    profile(`p${i}`, {
      probeRegions: [REGION],
      monitorConfig: monitor({
        intervalInSeconds: interval as 10 | 30,
        timeoutInSeconds: 5,
        port: backend.port,
        path: `/p${i}`,
      }),
      endpoints: [external('e', '127.0.0.1')],
    }),
  );

describe('the tick’s rounds through a delaying queue to the round handler', () => {
  it('every probe starts within 1 s of its own due time and every target is checked once per interval, duplicates included', async () => {
    // Prepare
    const { dynamodb, tableName } = await freshTable('tm-tick-round');
    const config = { profiles: profiles(), defaultProbeRegions: [REGION] };
    const clock = fakeClock(MINUTE);
    // A wait moves the simulated clock to its end at once (a round's probes wait one after another).
    const sleep = async (ms: number) => void clock.advance(Math.max(0, ms));
    const queued: { visibleAt: number; body: string }[] = [];
    const queue: RoundQueue = {
      sendRounds: async (entries) => {
        for (const entry of entries)
          queued.push({ visibleAt: clock.now() + entry.DelaySeconds * 1000, body: entry.MessageBody });
      },
    };
    const newTick = () =>
      createTickHandler({
        region: REGION,
        clock,
        queues: [queue],
        loadConfig: async () => config,
        fallbackProbeRegions: [REGION],
        sleep,
      });
    const starts: { key: string; at: number }[] = [];
    const prober: Prober = async (request, timeoutMs) => {
      const at = clock.now();
      starts.push({ key: request.key, at });
      return { ...(await probe(request, timeoutMs)), startedAt: at };
    };
    const skipped: string[] = [];
    const handler = createRoundHandler({
      worker: createProbeWorker({
        region: REGION,
        store: new DynamoDbProbeStateStore(dynamodb, tableName),
        prober,
        clock,
        spread: COMPACT_SPREAD,
        sleep,
        logger: { warn: () => undefined },
      }),
      clock,
      loadConfig: async () => config,
      fallbackProbeRegions: [REGION],
      logger: {
        warn: (message) => void skipped.push(message),
        info: (message) => void (message.startsWith('skipping') && skipped.push(message)),
      },
    });

    // Act: a first tick 400 ms late, the next minute's 900 ms late, and a new tick container
    // 1.5 s into that minute (it enqueues again what the previous one had); rounds are run as
    // they become visible, for three minutes
    const warm = newTick();
    const ticks = [
      { at: MINUTE + 400, tick: warm },
      { at: MINUTE + MINUTE_MS + 900, tick: warm },
      { at: MINUTE + MINUTE_MS + 1_500, tick: newTick() },
    ];
    const end = MINUTE + 3 * MINUTE_MS;
    for (;;) {
      queued.sort((a, b) => a.visibleAt - b.visibleAt);
      const next = queued[0];
      const tick = ticks[0];
      if (tick !== undefined && (next === undefined || tick.at <= next.visibleAt)) {
        ticks.shift();
        clock.set(Math.max(clock.now(), tick.at));
        await tick.tick();
        continue;
      }
      if (next === undefined || next.visibleAt >= end) break;
      queued.shift();
      clock.set(Math.max(clock.now(), next.visibleAt));
      await handler({
        Records: [{ messageId: String(next.visibleAt), body: next.body }],
      } as unknown as SQSEvent);
    }

    // Assess: every target checked exactly once in each of its intervals over the 3 minutes
    const plan = planProbes(config.profiles, REGION, [REGION]);
    expect(plan).toHaveLength(4);
    for (const target of plan) {
      const times = starts.filter((s) => s.key === target.key).map((s) => s.at);
      const intervals = (3 * MINUTE_MS) / target.intervalMs;
      const perInterval = Array.from(
        { length: intervals },
        (_, k) => times.filter((t) => Math.floor((t - MINUTE) / target.intervalMs) === k).length,
      );
      expect(perInterval).toEqual(new Array<number>(intervals).fill(1));
    }
    // Assess: each probe started within 1 s of its own due time (round due + its spread place);
    // after the first round (due before the first tick could send it) within its round's spread
    // (the simulated waits of a round's probes end in the order they began)
    for (const { key, at } of starts) {
      const target = plan.find((p) => p.key === key)!;
      const roundDueAt = Math.floor(at / 10_000) * 10_000;
      const dueInRound = plan.filter((p) => isDueInRound(p, roundDueAt, 10_000));
      // The round handler spreads over at least twice the start its constants predict (no
      // measured scale here: the test's handler stores none).
      const span = startSpanMs(roundCpuMs(plan, 10_000), 1, LAMBDA_MB_PER_VCPU);
      const windowMs = spreadWindowMs(COMPACT_SPREAD, 10_000, dueInRound.length, 5_000, span);
      const ownDueAt = roundDueAt + startDelayMs(target, 10_000, windowMs);
      expect(at - ownDueAt).toBeGreaterThanOrEqual(0);
      expect(at - ownDueAt).toBeLessThanOrEqual(roundDueAt === MINUTE ? 1_000 : windowMs);
    }
    // Assess: the copies the second container enqueued were skipped as already run
    expect(skipped.length).toBeGreaterThan(0);
    expect(new Set(skipped)).toEqual(new Set(['skipping a round already run']));
    // Assess: the backend saw every probe; the region's verdicts and heartbeat are in the table
    expect([...hits.values()].reduce((a, b) => a + b, 0)).toBe(starts.length);
    const items = ((await dynamodb.send(new ScanCommand({ TableName: tableName }))).Items ?? []).map(
      (raw) => unmarshall(raw) as { pk: string; verdict?: string },
    );
    const verdicts = items.filter((item) => item.pk.startsWith(KeyPrefix.verdict));
    expect(verdicts.map((v) => v.verdict)).toEqual(['up', 'up', 'up', 'up']);
    expect(items.some((item) => item.pk === `${KeyPrefix.region}${REGION}`)).toBe(true);
  });
});
