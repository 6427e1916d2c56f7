import { describe, expect, it } from 'vitest';
import { jumpHash, shardCountFor, shardOf } from '../../shared/probe/shards.js';

const keys = Array.from({ length: 20_000 }, (_, i) => `HTTPS:host-${i}.example.net:443/health#0000abcd`);

describe('shard choice by request key', () => {
  it('spreads requests evenly over the shards', () => {
    const counts = new Array<number>(8).fill(0);
    for (const key of keys) counts[shardOf(key, 8)]! += 1;
    for (const count of counts) expect(Math.abs(count - keys.length / 8)).toBeLessThan(keys.length / 8 / 10);
  });

  it.each([1, 2, 3, 7, 16])(
    'growing from %i shards moves only ~1/(n+1) of the requests, all to the new shard',
    (n) => {
      const moved = keys.filter((key) => shardOf(key, n) !== shardOf(key, n + 1));
      expect(moved.every((key) => shardOf(key, n + 1) === n)).toBe(true);
      expect(Math.abs(moved.length - keys.length / (n + 1))).toBeLessThan(keys.length / (n + 1) / 8);
    },
  );

  it('shrinking moves only the removed shard’s requests', () => {
    const moved = keys.filter((key) => shardOf(key, 5) !== shardOf(key, 4));
    expect(moved.every((key) => shardOf(key, 5) === 4)).toBe(true);
  });

  it('one bucket is bucket 0; fewer than one is an error', () => {
    expect(jumpHash(12345, 1)).toBe(0);
    expect(() => jumpHash(1, 0)).toThrow(/buckets must be an integer ≥ 1, got 0/);
  });
});

describe('shard count', () => {
  it.each([
    { requests: 0, max: 4, shards: 1 },
    { requests: 2_000, max: 4, shards: 1 },
    { requests: 2_001, max: 4, shards: 2 },
    { requests: 30_000, max: 4, shards: 4 },
    { requests: 30_000, max: 50, shards: 15 },
  ])('$requests requests, at most $max shards: $shards', ({ requests, max, shards }) => {
    expect(shardCountFor(requests, max)).toBe(shards);
  });

  it('a cap below one is an error', () => {
    expect(() => shardCountFor(10, 0)).toThrow(/maxShards must be an integer ≥ 1, got 0/);
  });
});
