import { describe, expect, it } from 'vitest';
import { isRegionFresh, STALE_AFTER_HEARTBEATS, staleAfterMs } from '../../shared/monitor/staleness.js';
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
    // Act / Assess
    expect(isRegionFresh(heartbeat('us-east-1', now - age, period), now)).toBe(fresh);
  });

  it('a region that never sent a heartbeat is not fresh', () => {
    expect(isRegionFresh(undefined, 0)).toBe(false);
  });

  it('the window scales with the period the region promised (local time scale)', () => {
    // Prepare: a 0.1-scaled heartbeat of 6 s
    const scaled = heartbeat('us-east-1', 0, 6_000);
    // Act / Assess
    expect(STALE_AFTER_HEARTBEATS).toBe(3);
    expect(staleAfterMs(6_000)).toBe(18_000);
    expect(isRegionFresh(scaled, 18_000)).toBe(true);
    expect(isRegionFresh(scaled, 18_001)).toBe(false);
  });
});
