/**
 * A probe region's memory size and most shards, from its requests by the cost model
 * (shared/probe/region-sizing.ts): wait-dominated small regions get less memory, CPU-bound
 * large ones a full vCPU, and room for shards up to `SIZING_CPU_SCALE` slower than the constants.
 */
import { describe, expect, it } from 'vitest';
import {
  PROBE_MEMORY_CHOICES_MB,
  shardMonthlyCost,
  SIZING_CPU_SCALE,
  sizeProbeRegion,
} from '../../shared/probe/region-sizing.js';
import {
  planLoadOf,
  PROBE_CPU_MS,
  shardCountForLoad,
  type PlanLoad,
} from '../../shared/probe/shard-capacity.js';
import type { ProbeProtocol } from '../../shared/profile/types.js';

function load(requests: number, protocol: ProbeProtocol, roundPeriodMs = 10_000): PlanLoad {
  return { requests, roundCpuMs: requests * PROBE_CPU_MS[protocol], roundPeriodMs };
}

describe('sizing a probe region', () => {
  it.each([
    {
      name: '10 HTTPS endpoints at 10 s: 512 MB, one shard',
      load: load(10, 'HTTPS'),
      memoryMb: 512,
      maxShards: 1,
    },
    {
      name: '10 HTTP endpoints at 30 s: 512 MB, one shard',
      load: load(10, 'HTTP', 30_000),
      memoryMb: 512,
      maxShards: 1,
    },
    {
      name: '100 HTTPS endpoints at 10 s: 1,024 MB, one shard',
      load: load(100, 'HTTPS'),
      memoryMb: 1_024,
      maxShards: 1,
    },
    {
      name: '300 HTTP endpoints at 10 s: 1,024 MB, one shard',
      load: load(300, 'HTTP'),
      memoryMb: 1_024,
      maxShards: 1,
    },
    {
      name: '1,000 HTTP endpoints at 10 s: a full vCPU, 2 shards',
      load: load(1_000, 'HTTP'),
      memoryMb: 1_769,
      maxShards: 2,
    },
    {
      name: '1,000 HTTPS endpoints at 10 s: a full vCPU, 6 shards',
      load: load(1_000, 'HTTPS'),
      memoryMb: 1_769,
      maxShards: 6,
    },
    {
      name: '10,000 HTTPS endpoints at 10 s: a full vCPU, the 50 shards a region may have',
      load: load(10_000, 'HTTPS'),
      memoryMb: 1_769,
      maxShards: 50,
    },
    {
      name: '10,000 HTTP endpoints at 10 s: a full vCPU, room for 6× the constants’ CPU (16 shards)',
      load: load(10_000, 'HTTP'),
      memoryMb: 1_769,
      maxShards: 16,
    },
    {
      name: '30,000 HTTPS endpoints: the 50 shards a region may have',
      load: load(30_000, 'HTTPS'),
      memoryMb: 1_769,
      maxShards: 50,
    },
  ])('$name', ({ load, memoryMb, maxShards }) => {
    const sizing = sizeProbeRegion(load);
    expect([sizing.memoryMb, sizing.maxShards]).toEqual([memoryMb, maxShards]);
  });

  it('chooses the cheapest size by the model: a small region’s rounds are mostly the wait for the slowest answer, billed by memory', () => {
    const small = load(10, 'HTTPS');
    const monthly = (memoryMb: number) =>
      shardMonthlyCost(small.requests, small.roundCpuMs * SIZING_CPU_SCALE, memoryMb, small.roundPeriodMs);
    expect(sizeProbeRegion(small).monthlyCost).toBeCloseTo(monthly(512), 6);
    expect(monthly(512)).toBeLessThan(monthly(1_024));
    expect(monthly(1_024)).toBeLessThan(monthly(1_769));
  });

  it('the most shards are what the sizing scale needs at the chosen size; the constants alone need fewer', () => {
    const region = load(10_000, 'HTTP');
    const sizing = sizeProbeRegion(region);
    expect(sizing.maxShards).toBe(shardCountForLoad(region, 50, sizing.memoryMb, SIZING_CPU_SCALE));
    expect(sizing.shardsAtConstants).toBe(shardCountForLoad(region, 50, sizing.memoryMb));
    expect(sizing.shardsAtConstants).toBeLessThan(sizing.maxShards);
  });

  it('never chooses a size the shard’s plan of a large region would crowd: 100,000 requests are not given 512 MB', () => {
    // At SIZING_CPU_SCALE every size caps at 50 shards here, so the cheapest would win on price alone.
    const sizing = sizeProbeRegion(load(100_000, 'TCP', 30_000), { maxShards: 50 });
    expect(sizing.memoryMb).toBeGreaterThan(512);
  });

  it('a given memory size is kept, and the shards follow it', () => {
    const sizing = sizeProbeRegion(load(1_000, 'HTTP'), { memoryMb: 3_538 });
    expect(sizing.memoryMb).toBe(3_538);
    expect(sizing.maxShards).toBe(shardCountForLoad(load(1_000, 'HTTP'), 50, 3_538, SIZING_CPU_SCALE));
  });

  it('a given cap is kept; when no size’s shards fit it, the largest size: the most CPU per shard', () => {
    const sizing = sizeProbeRegion(load(5_000, 'HTTPS'), { maxShards: 1 });
    expect(sizing.memoryMb).toBe(Math.max(...PROBE_MEMORY_CHOICES_MB));
    expect(sizing.maxShards).toBe(1);
    expect(sizing.shardsAtConstants).toBe(shardCountForLoad(load(5_000, 'HTTPS'), 50, sizing.memoryMb));
  });

  it('a region’s planned load counts exactly: 10,000 HTTP requests at 6× need 16 shards, not a 17th for a rounding error', () => {
    const due = Array.from({ length: 10_000 }, () => ({ protocol: 'HTTP' as const, intervalMs: 10_000 }));
    expect(sizeProbeRegion(planLoadOf(due, 10_000)).maxShards).toBe(16);
  });

  it('counts shards the constants need beyond the 50 a region may have', () => {
    expect(sizeProbeRegion(load(100_000, 'HTTPS')).shardsAtConstants).toBe(94);
  });
});
