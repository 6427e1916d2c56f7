import { describe, expect, it } from 'vitest';
import { vcpusOf } from '../../shared/probe/shard-capacity.js';
import { MAX_PROBE_SHARDS, SHARD_CAPACITY } from '../../shared/probe/shards.js';
import {
  PLAN_CPU_MS_PER_REQUEST,
  READ_CPU_MS_PER_REQUEST,
  TICK_PLAN_BUDGET_MS,
  tickMemoryMbFor,
} from '../../shared/probe/tick-memory.js';

describe('the probe tick’s memory size', () => {
  it('reads the whole config and plans the most requests the shards carry within the budget, never below 128 MB', () => {
    for (const shards of [1, 2, 5, 6, 10, 25, MAX_PROBE_SHARDS]) {
      const memoryMb = tickMemoryMbFor(shards);
      const cpuMs = shards * SHARD_CAPACITY * (READ_CPU_MS_PER_REQUEST + PLAN_CPU_MS_PER_REQUEST);
      expect(memoryMb).toBeGreaterThanOrEqual(128);
      expect(memoryMb % 64).toBe(0);
      expect(cpuMs / vcpusOf(memoryMb), `${shards} shards at ${memoryMb} MB`).toBeLessThanOrEqual(
        TICK_PLAN_BUDGET_MS,
      );
    }
  });
});
