/**
 * The round handler's choices, driven in-process: which SQS-delivered rounds it runs and which
 * it acknowledges without probing (logged, never a failure of the batch, never a crash), and
 * which regions' targets it plans when the stored definitions name no default probe regions.
 */
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { MemoryProbeStateStore } from '../support/memory-probe-state-store.js';
import { createRoundHandler } from '../../functions/probe/round-handler.js';
import { createProbeWorker } from '../../functions/probe/worker.js';
import { COMPACT_SPREAD, type SpreadPolicy } from '../../shared/probe/round-schedule.js';
import {
  answered,
  external,
  fakeClock,
  monitor,
  noSleep,
  profile,
  scriptedProber,
} from './worker.fixtures.js';

const REGION = 'eu-west-1';
const PERIOD = 10_000;

function setup(
  options: {
    shard?: number;
    defaultProbeRegions?: string[];
    fallback?: string[];
    spread?: SpreadPolicy;
  } = {},
) {
  const metrics: { name: string; ms: number; dimensions?: Record<string, string> }[] = [];
  let flushes = 0;
  const clock = fakeClock();
  const script = scriptedProber(clock);
  const lines: { level: string; message: string; fields: Record<string, unknown> }[] = [];
  const record = (level: string) => (message: string, fields: Record<string, unknown>) =>
    void lines.push({ level, message, fields });
  const logger = { info: record('INFO'), warn: record('WARN') };
  const worker = createProbeWorker({
    region: REGION,
    shard: options.shard ?? 0,
    store: new MemoryProbeStateStore(),
    prober: script.prober,
    clock,
    sleep: noSleep,
    logger,
    spread: options.spread,
  });
  const config = {
    profiles: [
      profile('shop', {
        monitorConfig: monitor({ intervalInSeconds: 10, timeoutInSeconds: 5 }),
        endpoints: [external('east', 'east.example.net')],
      }),
    ],
    defaultProbeRegions: options.defaultProbeRegions ?? [REGION],
  };
  const handler = createRoundHandler({
    worker,
    clock,
    loadConfig: async () => config,
    fallbackProbeRegions: options.fallback ?? [],
    logger,
    metrics: {
      count: () => undefined,
      duration: (name, ms, dimensions) => void metrics.push({ name, ms, dimensions }),
      flush: () => void flushes++,
    },
  });
  const dueAt = Math.ceil(clock.now() / PERIOD) * PERIOD;
  return { clock, script, lines, handler, dueAt, metrics, flushes: () => flushes };
}

function event(...bodies: string[]): SQSEvent {
  return {
    Records: bodies.map((body, i) => ({ messageId: `m-${i}`, body }) as SQSEvent['Records'][number]),
  };
}

const round = (dueAt: number, shards = 1) => JSON.stringify({ dueAt, roundPeriodMs: PERIOD, shards });

describe('the probe round handler', () => {
  it('spreads a round over twice the time its measured CPU needs to start the probes, so none starts late against its own due time', async () => {
    // Prepare: 300 HTTPS requests every 30 s (the constants: 0.7 ms each, 210 ms a round); every
    // round costs 1,050 ms of CPU (5× the constants); the worker's waits move the clock
    const clock = fakeClock();
    const starts: number[] = [];
    const worker = createProbeWorker({
      region: REGION,
      store: new MemoryProbeStateStore(),
      prober: async (request, timeoutMs) => {
        starts.push(clock.now());
        return answered(clock.now(), timeoutMs);
      },
      clock,
      sleep: async (ms) => void clock.advance(ms),
      logger: { warn: () => undefined },
      spread: COMPACT_SPREAD,
    });
    const fleet = profile('fleet', {
      monitorConfig: monitor({ protocol: 'HTTPS', intervalInSeconds: 30, timeoutInSeconds: 10 }),
      endpoints: Array.from({ length: 300 }, (_, i) => external(`e${i}`, `h${i}.example.net`)),
    });
    let cpu = 0;
    const handler = createRoundHandler({
      worker,
      clock,
      loadConfig: async () => ({ profiles: [fleet], defaultProbeRegions: [REGION] }),
      fallbackProbeRegions: [],
      logger: { info: () => undefined, warn: () => undefined },
      capacity: { write: async () => undefined },
      cpuTimeMs: () => (cpu += 1_050),
    });
    const period = 30_000;
    const lastStart = async (dueAt: number) => {
      starts.length = 0;
      clock.set(dueAt);
      await handler(event(JSON.stringify({ dueAt, roundPeriodMs: period })));
      return Math.max(...starts) - dueAt;
    };
    const first = Math.ceil(clock.now() / period) * period;
    // Act: the first round is not measured, the second is (scale 5), the third is spread by it
    const unmeasured = [await lastStart(first), await lastStart(first + period)];
    const measured = await lastStart(first + 2 * period);
    // Assess: twice the expected start, so a round costing up to twice it starts on time: 420 ms
    // by the constants alone (more than 300 × 0.25 ms), 2,100 ms at the measured scale
    expect(Math.max(...unmeasured)).toBeLessThanOrEqual(420);
    expect(measured).toBeGreaterThan(1_800);
    expect(measured).toBeLessThanOrEqual(2_100);
  });

  it('reports each round’s start lateness, a round skipped a whole period late included, and publishes once per batch', async () => {
    // Prepare: the container wakes 12 s after a round's due time, 2 s after the next one's
    const { clock, handler, dueAt, metrics, flushes } = setup({ spread: COMPACT_SPREAD });
    clock.set(dueAt + PERIOD + 2_000);
    // Act
    await handler(event(round(dueAt), round(dueAt + PERIOD)));
    // Assess
    expect(metrics).toEqual([
      { name: 'ProbeStartLateness', ms: PERIOD + 2_000, dimensions: { Region: REGION } },
      { name: 'ProbeStartLateness', ms: 2_000, dimensions: { Region: REGION } },
    ]);
    expect(flushes()).toBe(1);
  });

  it('a round a whole period late is acknowledged and not probed; the round due now runs', async () => {
    // Prepare: the container wakes a full period after the round's due time
    const { clock, script, lines, handler, dueAt } = setup();
    clock.set(dueAt + PERIOD);
    // Act
    const response = await handler(event(round(dueAt), round(dueAt + PERIOD)));
    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect(lines).toContainEqual({
      level: 'WARN',
      message: 'skipping a round a whole period late',
      fields: { dueAt, lateMs: PERIOD },
    });
    expect(script.calls()).toBe(1);
    expect(lines.filter((l) => l.message === 'round').map((l) => l.fields.dueAt)).toEqual([dueAt + PERIOD]);
  });

  it('shard 1 skips a round split in one shard (the region shrank), and runs one split in two', async () => {
    const { clock, script, lines, handler, dueAt } = setup({ shard: 1 });
    clock.set(dueAt);
    await handler(event(round(dueAt, 1)));
    expect(script.calls()).toBe(0);
    expect(lines).toContainEqual({
      level: 'WARN',
      message: 'skipping a round for fewer shards than this one',
      fields: { dueAt, shard: 1, shards: 1 },
    });
    clock.set(dueAt + PERIOD);
    await handler(event(round(dueAt + PERIOD, 2)));
    expect(lines.filter((l) => l.message === 'round').map((l) => l.fields.dueAt)).toEqual([dueAt + PERIOD]);
  });

  it.each([
    { fallback: [REGION], probed: 1 },
    { fallback: ['ap-south-1'], probed: 0 },
  ])(
    'definitions without default probe regions probe where the function’s regions say ($fallback: $probed)',
    async ({ fallback, probed }) => {
      const { clock, script, handler, dueAt } = setup({ defaultProbeRegions: [], fallback });
      clock.set(dueAt);
      await handler(event(round(dueAt)));
      expect(script.calls()).toBe(probed);
    },
  );

  it.each([
    { body: 'not json', problem: 'body is not JSON' },
    { body: 'null', problem: 'body is not an object' },
    { body: '"a string"', problem: 'body is not an object' },
    { body: '{}', problem: 'dueAt must be epoch milliseconds, got undefined' },
    { body: '{"dueAt":-1,"roundPeriodMs":10000}', problem: 'dueAt must be epoch milliseconds, got -1' },
    { body: '{"dueAt":1.5,"roundPeriodMs":10000}', problem: 'dueAt must be epoch milliseconds, got 1.5' },
    { body: '{"dueAt":0,"roundPeriodMs":0}', problem: 'roundPeriodMs must be a positive integer, got 0' },
    {
      body: '{"dueAt":0,"roundPeriodMs":"10s"}',
      problem: 'roundPeriodMs must be a positive integer, got "10s"',
    },
    {
      body: '{"dueAt":0,"roundPeriodMs":10000,"shards":0}',
      problem: 'shards must be a positive integer, got 0',
    },
  ])(
    'a message $body is acknowledged and logged with its problem; the round beside it runs',
    async ({ body, problem }) => {
      const { clock, script, lines, handler, dueAt } = setup();
      clock.set(dueAt);
      const response = await handler(event(body, round(dueAt)));
      expect(response).toEqual({ batchItemFailures: [] });
      expect(lines).toContainEqual({
        level: 'WARN',
        message: 'ignoring a message that is not a round',
        fields: { messageId: 'm-0', problem },
      });
      expect(script.calls()).toBe(1);
    },
  );
});
