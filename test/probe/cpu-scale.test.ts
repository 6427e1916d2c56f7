/**
 * The measured capacity of a shard (shared/probe/cpu-scale.ts, pure): a shard's rounds give a
 * smoothed CPU scale against the constants' prediction, stored only when it moved materially
 * (or to stay fresh); the tick takes the worst fresh one, clamped, and sizes with hysteresis.
 * Then the handlers: a round handler stores what its rounds measure, and a measured overload
 * makes the tick choose more shards.
 */
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { MemoryProbeStateStore } from '../support/memory-probe-state-store.js';
import { createRoundHandler } from '../../functions/probe/round-handler.js';
import { createTickHandler } from '../../functions/probe/tick.js';
import { createProbeWorker } from '../../functions/probe/worker.js';
import type { CapacityItem } from '../../shared/state/items.js';
import {
  clampCpuScale,
  CPU_SCALE_MAX_AGE_MS,
  CPU_SCALE_RANGE,
  CPU_SCALE_REFRESH_MS,
  CPU_SCALE_WEIGHT,
  isCpuScaleWriteDue,
  MIN_MEASURED_ROUND_CPU_MS,
  nextCpuScale,
  regionCpuScale,
  shardCountWithHysteresis,
  SHRINK_HEADROOM,
  type CpuScaleReading,
} from '../../shared/probe/cpu-scale.js';
import { PROBE_CPU_MS, roundCpuBudgetMs, shardCountForLoad } from '../../shared/probe/shard-capacity.js';
import { external, fakeClock, monitor, noSleep, profile, scriptedProber } from './worker.fixtures.js';

const NOW = Date.UTC(2030, 0, 1, 8, 0, 0);
const reading = (shard: number, scale: number, ageMs = 0, shards = 5): CpuScaleReading => ({
  shard,
  shards,
  scale,
  at: NOW - ageMs,
});

describe('a shard’s CPU scale', () => {
  it('starts at the first measured ratio, then moves by the newest round’s weight', () => {
    const first = nextCpuScale(undefined, 400, 100);
    expect(first).toBe(4);
    expect(nextCpuScale(first, 200, 100)).toBeCloseTo(4 + CPU_SCALE_WEIGHT * (2 - 4));
  });

  it('ignores a round the constants predict too small to tell (its fixed costs dominate)', () => {
    expect(nextCpuScale(undefined, 20, MIN_MEASURED_ROUND_CPU_MS - 1)).toBeUndefined();
    expect(nextCpuScale(3, 20, MIN_MEASURED_ROUND_CPU_MS - 1)).toBe(3);
    expect(nextCpuScale(3, Number.NaN, 100)).toBe(3);
  });

  it('is clamped to a sane range: a broken meter cannot size a region to nothing or to everything', () => {
    expect(nextCpuScale(undefined, 0, 100)).toBe(CPU_SCALE_RANGE.min);
    expect(nextCpuScale(undefined, 1e9, 100)).toBe(CPU_SCALE_RANGE.max);
    expect(clampCpuScale(Number.NaN)).toBe(1);
    expect(clampCpuScale(2.5)).toBe(2.5);
  });

  it('is written when there is none yet, when it moved by more than 15 %, or to refresh it', () => {
    expect(isCpuScaleWriteDue(undefined, 4, NOW)).toBe(true);
    const stored = { scale: 4, at: NOW };
    expect(isCpuScaleWriteDue(stored, 4.5, NOW + 10_000)).toBe(false);
    expect(isCpuScaleWriteDue(stored, 3.5, NOW + 10_000)).toBe(false);
    expect(isCpuScaleWriteDue(stored, 4.7, NOW + 10_000)).toBe(true);
    expect(isCpuScaleWriteDue(stored, 3.3, NOW + 10_000)).toBe(true);
    expect(isCpuScaleWriteDue(stored, 4, NOW + CPU_SCALE_REFRESH_MS - 1)).toBe(false);
    expect(isCpuScaleWriteDue(stored, 4, NOW + CPU_SCALE_REFRESH_MS)).toBe(true);
  });

  it('a steady shard writes a handful of times an hour, not every round', () => {
    let stored: { scale: number; at: number } | undefined;
    let scale: number | undefined;
    let writes = 0;
    for (let round = 0; round < 360; round++) {
      const at = NOW + round * 10_000;
      // ±10 % noise around 4× the prediction
      scale = nextCpuScale(scale, 100 * (4 + 0.4 * Math.sin(round)), 100);
      if (isCpuScaleWriteDue(stored, scale!, at)) {
        stored = { scale: scale!, at };
        writes++;
      }
    }
    expect(writes).toBeLessThanOrEqual(4);
  });
});

describe('the region’s CPU scale the tick sizes with', () => {
  it('is the worst fresh entry, with the split of the latest one', () => {
    expect(
      regionCpuScale([reading(0, 2, 60_000, 4), reading(1, 4.3, 120_000, 4), reading(2, 3, 0, 5)], NOW, 50),
    ).toEqual({ scale: 4.3, shards: 5 });
  });

  it('ignores entries older than the freshness age and shards beyond the deployed queues', () => {
    const stale = reading(1, 9, CPU_SCALE_MAX_AGE_MS + 1);
    const beyond = reading(7, 9);
    expect(regionCpuScale([reading(0, 2), stale, beyond], NOW, 5)).toEqual({ scale: 2, shards: 5 });
    expect(regionCpuScale([stale, beyond], NOW, 5)).toBeUndefined();
    expect(regionCpuScale([], NOW, 5)).toBeUndefined();
  });

  it('ignores malformed entries and clamps the rest', () => {
    const junk = [
      { shard: 0, shards: 5, scale: Number.NaN, at: NOW },
      { shard: 1, shards: 5, scale: 3 } as unknown as CpuScaleReading,
      { shard: 2, shards: 0.5, scale: 3, at: NOW },
      { shard: 3, shards: 5, scale: 3, at: 'x' } as unknown as CpuScaleReading,
    ];
    expect(regionCpuScale(junk, NOW, 50)).toBeUndefined();
    expect(regionCpuScale([...junk, reading(4, 1e6)], NOW, 50)?.scale).toBe(CPU_SCALE_RANGE.max);
  });
});

describe('sizing with the measured scale and hysteresis', () => {
  /** 10,000 HTTP requests every 10 s at one vCPU. */
  const load = { requests: 10_000, roundPeriodMs: 10_000, roundCpuMs: 10_000 * PROBE_CPU_MS.HTTP };
  const needed = (scale: number) => shardCountForLoad(load, 50, undefined, scale);

  it('the measured scale multiplies the CPU the constants predict', () => {
    expect(needed(1)).toBe(5);
    expect(needed(4.3)).toBe(Math.ceil((10_000 * PROBE_CPU_MS.HTTP * 4.3) / roundCpuBudgetMs(1_769)));
    expect(needed(20)).toBe(50);
    // Never below the request count's shards, however fast the shards measured.
    expect(needed(0.5)).toBe(5);
  });

  it('grows at once when the measured need exceeds the count', () => {
    expect(shardCountWithHysteresis(needed, 4.3, 5)).toBe(12);
  });

  it('shrinks only when the need at 1.25× the scale is below the count', () => {
    // 12 shards at 4.3; the scale falls to 3.9 (need 11) but at 1.25× it needs 13: stays 12.
    expect(needed(3.9)).toBe(11);
    expect(needed(3.9 * SHRINK_HEADROOM)).toBeGreaterThanOrEqual(12);
    expect(shardCountWithHysteresis(needed, 3.9, 12)).toBe(12);
    // At 2.5 (need 7; at 1.25× 8.3 → 9): shrinks to 9, the count with headroom.
    expect(shardCountWithHysteresis(needed, 2.5, 12)).toBe(needed(2.5 * SHRINK_HEADROOM));
    expect(needed(2.5 * SHRINK_HEADROOM)).toBe(9);
  });

  it('without a current count (a new tick container) takes the need at the scale', () => {
    expect(shardCountWithHysteresis(needed, 1, undefined)).toBe(5);
  });
});

describe('the tick sizes a region by what its shards measured', () => {
  const fleet = profile('fleet', {
    monitorConfig: monitor({ protocol: 'HTTP', intervalInSeconds: 10, timeoutInSeconds: 9 }),
    endpoints: Array.from({ length: 10_000 }, (_, i) => external(`e${i}`, `h${i}.example.net`)),
  });
  const config = { profiles: [fleet], defaultProbeRegions: ['us-east-1'] };
  const warnings: string[] = [];
  const tickWith = (
    readings: () => CpuScaleReading[],
    deployedShards = 50,
    warn: (message: string, fields: Record<string, unknown>) => void = (message) =>
      void warnings.push(message),
  ) => {
    const clock = fakeClock(NOW + 200);
    const queues = Array.from({ length: deployedShards }, () => ({ sendRounds: async () => undefined }));
    return {
      clock,
      tick: createTickHandler({
        region: 'us-east-1',
        clock,
        queues,
        loadConfig: async () => config,
        fallbackProbeRegions: [],
        sleep: async (ms) => void clock.advance(ms),
        capacity: { read: async () => readings() },
        logger: { warn },
      }),
    };
  };

  it('10,000 HTTP requests: 5 shards by the constants; 12 once the shards measure 4.3× their CPU', async () => {
    let readings: CpuScaleReading[] = [];
    const { clock, tick } = tickWith(() => readings);
    const first = await tick();
    expect(first.shards).toBe(5);
    expect(first.cpuScale).toBeUndefined();
    clock.set(NOW + 60_200);
    readings = [0, 1, 2, 3, 4].map((shard) => ({
      shard,
      shards: 5,
      scale: shard === 3 ? 4.3 : 3.8,
      at: NOW + 30_000,
    }));
    const second = await tick();
    expect(second.shards).toBe(12);
    expect(second.cpuScale).toBe(4.3);
    // Every round the tick sent names the new split.
    expect(second.enqueued.every((entry) => JSON.parse(entry.MessageBody).shards === 12)).toBe(true);
  });

  it('a failed read keeps the count; entries gone stale let it shrink back only with headroom', async () => {
    let readings: () => CpuScaleReading[] = () => [{ shard: 0, shards: 5, scale: 4.3, at: NOW }];
    const { clock, tick } = tickWith(() => readings());
    expect((await tick()).shards).toBe(12);
    clock.set(NOW + 60_200);
    readings = () => {
      throw new Error('ProvisionedThroughputExceededException');
    };
    expect((await tick()).shards).toBe(12);
    expect(warnings).toEqual(['reading the shards’ measured CPU failed; the shard count stays']);
    clock.set(NOW + CPU_SCALE_MAX_AGE_MS + 120_200);
    readings = () => [{ shard: 0, shards: 12, scale: 4.3, at: NOW }];
    // No fresh entry: the constants (5 shards; at 1.25× still 5) — below 12, so it shrinks.
    expect((await tick()).shards).toBe(5);
  });

  it('a region whose measured need exceeds its deployed shards uses them all and says its rounds start late', async () => {
    const told: { message: string; fields: Record<string, unknown> }[] = [];
    const { tick } = tickWith(
      () => [{ shard: 0, shards: 5, scale: 4.3, at: NOW }],
      8,
      (message, fields) => void told.push({ message, fields }),
    );
    expect((await tick()).shards).toBe(8);
    expect(told).toEqual([
      {
        message: 'the region needs more shards than it has: its rounds start late',
        fields: { region: 'us-east-1', shardsNeeded: 12, shards: 8, cpuScale: 4.3, requests: 10_000 },
      },
    ]);
  });

  it('a new tick container starts from the split the shards last reported', async () => {
    const { tick } = tickWith(() => [{ shard: 0, shards: 12, scale: 3.9, at: NOW }]);
    // At 3.9 the need is 11, but with headroom 13: the 12 shards stay.
    expect((await tick()).shards).toBe(12);
  });
});

describe('the round handler measures its rounds', () => {
  const PERIOD = 10_000;
  function setup(write: (item: CapacityItem) => Promise<void>) {
    const clock = fakeClock(NOW);
    const script = scriptedProber(clock);
    const lines: string[] = [];
    const logger = { info: () => undefined, warn: (message: string) => void lines.push(message) };
    const worker = createProbeWorker({
      region: 'eu-west-1',
      store: new MemoryProbeStateStore(),
      prober: script.prober,
      clock,
      sleep: noSleep,
      logger,
    });
    const config = {
      profiles: [
        profile('shop', {
          monitorConfig: monitor({ intervalInSeconds: 10, timeoutInSeconds: 5 }),
          endpoints: Array.from({ length: 500 }, (_, i) => external(`e${i}`, `h${i}.example.net`)),
        }),
      ],
      defaultProbeRegions: ['eu-west-1'],
    };
    // 500 HTTP requests are predicted 100 ms a round; each round "takes" 400 ms of CPU.
    let cpu = 0;
    const handler = createRoundHandler({
      worker,
      clock,
      loadConfig: async () => config,
      fallbackProbeRegions: [],
      logger,
      capacity: { write },
      // Read before and after each round: 400 ms between the two.
      cpuTimeMs: () => (cpu += 400),
    });
    const run = async (round: number) => {
      const dueAt = NOW + round * PERIOD;
      clock.set(dueAt);
      await handler({
        Records: [{ messageId: `m-${round}`, body: JSON.stringify({ dueAt, roundPeriodMs: PERIOD }) }],
      } as unknown as SQSEvent);
    };
    return { run, lines };
  }

  it('stores the scale from the second round on, once while it holds, and retries a failed write after the next round', async () => {
    const written: CapacityItem[] = [];
    let fail = true;
    const { run, lines } = setup(async (item) => {
      if (fail) {
        fail = false;
        throw new Error('ProvisionedThroughputExceededException');
      }
      written.push(item);
    });
    // The container's first round is not measured.
    await run(0);
    expect(lines).toEqual([]);
    // The second is, and its write fails: told, retried after the third.
    await run(1);
    expect(lines).toEqual(['storing the shard’s measured CPU scale failed']);
    await run(2);
    await run(3);
    await run(4);
    expect(written).toEqual([
      { region: 'eu-west-1', shard: 0, shards: 1, scale: expect.closeTo(4, 6), at: NOW + 2 * PERIOD },
    ]);
  });
});
