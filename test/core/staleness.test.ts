import { describe, expect, it } from 'vitest';
import {
  heartbeatsByRegion,
  isHeartbeatFresh,
  isRegionFresh,
  STALE_AFTER_HEARTBEATS,
  staleAfterMs,
} from '../../shared/monitor/staleness.js';
import type { HeartbeatItem } from '../../shared/state/items.js';
import { heartbeat } from './evaluate-fixtures.js';

describe('staleness: a region votes while its heartbeat is fresh', () => {
  const period = 60_000;
  it.each([
    { name: 'a heartbeat just written is fresh', age: 0, fresh: true },
    { name: 'one missed heartbeat is still fresh', age: 2 * period, fresh: true },
    { name: 'exactly three periods old is still fresh', age: 3 * period, fresh: true },
    { name: 'older than three periods is stale', age: 3 * period + 1, fresh: false },
    { name: 'a heartbeat from the future (clock skew) is fresh', age: -5_000, fresh: true },
  ])('$name', ({ age, fresh }) => {
    // Prepare
    const now = 10_000_000;
    const item = heartbeat('us-east-1', now - age, period);
    // Act / Assess
    expect(isHeartbeatFresh(item, now)).toBe(fresh);
    expect(isRegionFresh([item], now)).toBe(fresh);
  });

  it('a region that never sent a heartbeat is not fresh', () => {
    expect(isHeartbeatFresh(undefined, 0)).toBe(false);
    expect(isRegionFresh([], 0)).toBe(false);
  });

  it('the window scales with the period the region promised (local time scale)', () => {
    // Prepare: a 0.1-scaled heartbeat of 6 s
    const scaled = heartbeat('us-east-1', 0, 6_000);
    // Act / Assess
    expect(STALE_AFTER_HEARTBEATS).toBe(3);
    expect(staleAfterMs(6_000)).toBe(18_000);
    expect(isRegionFresh([scaled], 18_000)).toBe(true);
    expect(isRegionFresh([scaled], 18_001)).toBe(false);
  });
});

describe('staleness of a sharded region: every shard of its current split must be fresh', () => {
  const now = 10_000_000;
  const stale = now - 4 * 60_000;
  const shard = (n: number, shards: number, at: number): HeartbeatItem => ({
    ...heartbeat('us-east-1', at),
    shard: n,
    shards,
  });

  it.each([
    { name: 'both shards of 2 fresh', items: [shard(0, 2, now), shard(1, 2, now)], fresh: true },
    {
      name: 'shard 1 of 2 silent, shard 0 fresh',
      items: [shard(0, 2, now), shard(1, 2, stale)],
      fresh: false,
    },
    {
      name: 'shard 0 of 2 silent, shard 1 fresh',
      items: [shard(0, 2, stale), shard(1, 2, now)],
      fresh: false,
    },
    { name: 'shard 1 of 2 never heartbeat', items: [shard(0, 2, now)], fresh: false },
    {
      name: 'a silent shard outside the split (shrunk from 3 to 2)',
      items: [shard(0, 2, now), shard(1, 2, now), shard(2, 3, stale)],
      fresh: true,
    },
    {
      name: 'a shard still on the old split is alive by its own heartbeat',
      items: [shard(0, 3, now), shard(1, 2, now - 1_000), shard(2, 3, now)],
      fresh: true,
    },
    {
      name: 'an unsharded heartbeat (no shard fields) is shard 0 of 1',
      items: [heartbeat('us-east-1', now), shard(1, 2, stale)],
      fresh: true,
    },
  ])('$name: fresh $fresh', ({ items, fresh }) => {
    expect(isRegionFresh(items, now)).toBe(fresh);
  });

  it('groups heartbeats by region, every shard kept', () => {
    const items = [shard(0, 2, now), heartbeat('eu-west-1', now), shard(1, 2, now)];
    expect(heartbeatsByRegion(items)).toEqual(
      new Map([
        ['us-east-1', [items[0], items[2]]],
        ['eu-west-1', [items[1]]],
      ]),
    );
  });
});
