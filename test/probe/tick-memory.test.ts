import { describe, expect, it } from 'vitest';
import { LAMBDA_MB_PER_VCPU } from '../../shared/probe/shard-capacity.js';
import { SHARD_CAPACITY } from '../../shared/probe/shards.js';
import {
  PLAN_CPU_MS_PER_REQUEST,
  TICK_PLAN_BUDGET_MS,
  tickMemoryMbFor,
} from '../../shared/probe/tick-memory.js';

describe('the probe tick’s memory size', () => {
  it('plans the most requests the shards carry within the budget, never below 128 MB', () => {
    for (const shards of [1, 2, 5, 6, 10, 25, 50]) {
      const memoryMb = tickMemoryMbFor(shards);
      const planMs = (shards * SHARD_CAPACITY * PLAN_CPU_MS_PER_REQUEST * LAMBDA_MB_PER_VCPU) / memoryMb;
      expect(memoryMb).toBeGreaterThanOrEqual(128);
      expect(memoryMb % 64).toBe(0);
      expect(planMs).toBeLessThanOrEqual(TICK_PLAN_BUDGET_MS);
    }
    expect(tickMemoryMbFor(1)).toBe(128);
    expect(tickMemoryMbFor(50)).toBe(768);
  });
});
