/**
 * Integration: the shard count follows the measured capacity of a shard. The real round
 * handlers measure their rounds' CPU (process CPU time, as deployed) and store their scale on
 * DynamoDB Local through the capacity store the Lambda uses; the real tick reads it the next
 * minute and sizes the region by it. The shards' rounds here cost at least 4× the CPU the
 * constants predict (every probe of a real loopback backend also burns 0.8 ms of CPU, against
 * the 0.2 ms an HTTP probe is predicted to cost), so the tick must grow the region, and every
 * target is still checked exactly once per interval across the reshard. Time is simulated
 * (moved to each message's visible time and to each of the worker's waits); the CPU is real,
 * and the assertions are counts and lower bounds that any machine meets.
 */
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoDbCapacityStore } from '../../functions/probe/capacity-store.js';
import { DynamoDbProbeStateStore } from '../../functions/probe/dynamodb-state-store.js';
import { probe } from '../../functions/probe/probers/registry.js';
import type { RoundQueue } from '../../functions/probe/sqs-round-queue.js';
import { createRoundHandler, type RoundHandler } from '../../functions/probe/round-handler.js';
import { createTickHandler, type TickResult } from '../../functions/probe/tick.js';
import { createProbeWorker } from '../../functions/probe/worker.js';
import { planProbes } from '../../shared/probe/plan.js';
import { COMPACT_SPREAD, MINUTE_MS } from '../../shared/probe/round-schedule.js';
import { PROBE_CPU_MS, planLoadOf, shardCountForLoad } from '../../shared/probe/shard-capacity.js';
import type { Profile } from '../../shared/profile/types.js';
import type { Prober } from '../../shared/probe/target.js';
import type { CapacityItem } from '../../shared/state/items.js';
import { freshTable } from '../support/dynamodb.js';
import { startLoopbackBackend, type LoopbackBackend } from '../support/loopback-backend.js';
import { external, fakeClock, monitor, profile } from './worker.fixtures.js';

const REGION = 'eu-south-1';
const MINUTE = Date.UTC(2030, 0, 1, 9, 0, 0);
const TARGETS = 150;
/** 128 MB: 7 % of a vCPU, so a few hundred HTTP requests already need more than one shard. */
const MEMORY_MB = 128;
const MAX_SHARDS = 12;
/** CPU each probe burns beyond its real request: 4× what the constants predict for an HTTP probe. */
const BURN_MS = 4 * PROBE_CPU_MS.HTTP;

let backend: LoopbackBackend;
beforeAll(async () => {
  backend = await startLoopbackBackend('127.0.0.1', (_req, res) => res.end('ok'));
});
afterAll(() => backend.close());

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
function burn(ms: number): void {
  const until = cpuMs() + ms;
  while (cpuMs() < until);
}

const profiles = (): Profile[] =>
  Array.from({ length: TARGETS }, (_, i) =>
    profile(`p${i}`, {
      probeRegions: [REGION],
      monitorConfig: monitor({
        intervalInSeconds: 10,
        timeoutInSeconds: 5,
        port: backend.port,
        path: `/p${i}`,
      }),
      endpoints: [external('e', '127.0.0.1')],
    }),
  );

describe('the shard count follows the measured capacity of a shard', () => {
  it('shards whose rounds take 4× the predicted CPU make the next tick choose more shards; every target is checked once per interval across the reshard', async () => {
    // Prepare
    const { dynamodb, tableName } = await freshTable('tm-capacity');
    const config = { profiles: profiles(), defaultProbeRegions: [REGION] };
    const plan = planProbes(config.profiles, REGION, [REGION]);
    expect(plan).toHaveLength(TARGETS);
    const clock = fakeClock(MINUTE);
    const sleep = async (ms: number) => void clock.advance(Math.max(0, ms));
    const capacity = dynamoDbCapacityStore(dynamodb, tableName);
    const writes: CapacityItem[] = [];
    const queued: { visibleAt: number; shard: number; body: string }[] = [];
    const queues: RoundQueue[] = Array.from({ length: MAX_SHARDS }, (_, shard) => ({
      sendRounds: async (entries) => {
        for (const entry of entries)
          queued.push({ visibleAt: clock.now() + entry.DelaySeconds * 1000, shard, body: entry.MessageBody });
      },
    }));
    const tick = createTickHandler({
      region: REGION,
      clock,
      queues,
      loadConfig: async () => config,
      fallbackProbeRegions: [REGION],
      probeMemoryMb: MEMORY_MB,
      sleep,
      capacity,
    });
    const starts: { key: string; at: number }[] = [];
    const prober: Prober = async (request, timeoutMs) => {
      const at = clock.now();
      starts.push({ key: request.key, at });
      burn(BURN_MS);
      return { ...(await probe(request, timeoutMs)), startedAt: at };
    };
    const quiet = { warn: () => undefined, info: () => undefined };
    const shards = new Map<number, RoundHandler>();
    const shardHandler = (shard: number): RoundHandler => {
      let handler = shards.get(shard);
      if (handler === undefined)
        shards.set(
          shard,
          (handler = createRoundHandler({
            worker: createProbeWorker({
              region: REGION,
              shard,
              store: new DynamoDbProbeStateStore(dynamodb, tableName),
              prober,
              clock,
              spread: COMPACT_SPREAD,
              sleep,
              logger: quiet,
            }),
            clock,
            loadConfig: async () => config,
            fallbackProbeRegions: [REGION],
            logger: quiet,
            capacity: {
              write: async (item) => {
                writes.push(item);
                await capacity.write(item);
              },
            },
          })),
        );
      return handler;
    };

    // Act: the tick each minute (its first run 30.4 s into minute 0: it sends that minute's
    // last three rounds and the next minute's), the rounds run as they become visible, each on
    // its shard, until two rounds of minute 2 (the new split) have run
    const ticks = [MINUTE + 30_400, MINUTE + MINUTE_MS + 400, MINUTE + 2 * MINUTE_MS + 400];
    const from = MINUTE + 30_000;
    const results: TickResult[] = [];
    const end = MINUTE + 2 * MINUTE_MS + 20_000;
    const intervals = (end - from) / 10_000;
    for (;;) {
      queued.sort((a, b) => a.visibleAt - b.visibleAt || a.shard - b.shard);
      const next = queued[0];
      const tickAt = ticks[0];
      if (tickAt !== undefined && (next === undefined || tickAt <= next.visibleAt)) {
        ticks.shift();
        clock.set(Math.max(clock.now(), tickAt));
        results.push(await tick());
        continue;
      }
      if (next === undefined || next.visibleAt >= end) break;
      queued.shift();
      clock.set(Math.max(clock.now(), next.visibleAt));
      await shardHandler(next.shard)({
        Records: [{ messageId: `${next.shard}-${next.visibleAt}`, body: next.body }],
      } as unknown as SQSEvent);
    }

    // Assess: the first tick had no measurement (the constants: 1 shard); the next one read a
    // scale of at least 4 and chose the shards that scale needs — more
    const load = planLoadOf(plan, 10_000);
    expect(results[0]!.cpuScale).toBeUndefined();
    expect(results[0]!.shards).toBe(shardCountForLoad(load, MAX_SHARDS, MEMORY_MB));
    expect(results[0]!.shards).toBe(1);
    const grown = results[1]!;
    expect(grown.shards).toBeGreaterThan(results[0]!.shards);
    expect(grown.cpuScale).toBeGreaterThanOrEqual(4);
    expect(grown.shards).toBe(shardCountForLoad(load, MAX_SHARDS, MEMORY_MB, grown.cpuScale));
    expect(grown.shards).toBeGreaterThanOrEqual(shardCountForLoad(load, MAX_SHARDS, MEMORY_MB, 4));
    // The minute-2 rounds ran on the grown split: every shard of it got and ran them.
    expect([...shards.keys()].sort((a, b) => a - b)).toEqual(
      Array.from({ length: grown.shards }, (_, i) => i),
    );
    // Assess: every target checked exactly once in each 10 s interval
    for (const target of plan) {
      const times = starts.filter((s) => s.key === target.key).map((s) => s.at);
      const perInterval = Array.from(
        { length: intervals },
        (_, k) => times.filter((t) => Math.floor((t - from) / 10_000) === k).length,
      );
      expect(perInterval).toEqual(new Array<number>(intervals).fill(1));
    }
    // Assess: the scales were stored on change, not every round, each under the shard's split
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.length).toBeLessThan(starts.length / TARGETS);
    const stored = await capacity.read(REGION);
    expect(stored.map((s) => s.shard).sort()).toEqual([...new Set(writes.map((w) => w.shard))].sort());
    for (const item of stored) expect(item.scale).toBeGreaterThanOrEqual(4);
  }, 120_000);
});
