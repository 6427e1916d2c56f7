/**
 * Which heartbeat holds a request's counts across reshards (shared/probe/checkpoint-claims.ts,
 * pure): the newest claim on the request, a released one included, and what a heartbeat
 * carries of the judges its shard released.
 */
import { describe, expect, it } from 'vitest';
import { claimsOf, holderOf, releasedCheckpoint } from '../../shared/probe/checkpoint-claims.js';
import { shardOf } from '../../shared/probe/shards.js';
import type { HeartbeatItem, RuleStateCheckpoint } from '../../shared/state/items.js';

const failures = (n: number): RuleStateCheckpoint => ({ kind: 'consecutiveFailures', failures: n });
const heartbeat = (fields: Partial<HeartbeatItem> & Pick<HeartbeatItem, 'at'>): HeartbeatItem => ({
  region: 'eu-west-1',
  targets: 0,
  periodMs: 60_000,
  checkpoint: {},
  ...fields,
});
/** A request key that shard 1 of 2 holds (shard 0 of 1 held it before). */
const moved = Array.from({ length: 20 }, (_, i) => `req-${i}`).find((key) => shardOf(key, 2) === 1)!;

describe('the claim holding a request’s counts', () => {
  it('is the newest claim on it, what a shard released included', () => {
    const heartbeats = [
      // Shard 1 of 2 counted the request long ago: 3 failures.
      heartbeat({ shard: 1, shards: 2, at: 1_000, checkpoint: { [moved]: failures(3) } }),
      // Shard 0 held it at 1 shard until 5,000 (clean: it answered), then released it.
      heartbeat({
        shard: 0,
        shards: 2,
        at: 6_000,
        released: { shards: 1, at: 5_000, releasedAt: 6_000, checkpoint: {} },
      }),
    ];
    const holder = holderOf(claimsOf(heartbeats), moved);
    expect(holder).toEqual({ shard: 0, shards: 1, at: 5_000, checkpoint: {} });
    expect(holderOf(claimsOf(heartbeats.slice(0, 1)), moved)?.checkpoint[moved]).toEqual(failures(3));
  });
});

describe('what a heartbeat carries of the judges its shard released', () => {
  const last = heartbeat({
    at: 5_000,
    checkpoint: { kept: failures(1), gone: failures(2), other: failures(4) },
  });
  const holds = (key: string) => key === 'kept';

  it('after a split change: the last heartbeat’s checkpoint of the judges no longer held, as of its time', () => {
    expect(releasedCheckpoint(last, { shards: 2, at: 6_000, periodMs: 60_000 }, holds, 10)).toEqual({
      shards: 1,
      at: 5_000,
      releasedAt: 6_000,
      checkpoint: { gone: failures(2), other: failures(4) },
    });
    expect(
      releasedCheckpoint(last, { shards: 2, at: 6_000, periodMs: 60_000 }, holds, 1)?.checkpoint,
    ).toEqual({
      gone: failures(2),
    });
  });

  it('under the same split: what the last one carried, for a heartbeat period after the change', () => {
    const after = heartbeat({
      shard: 0,
      shards: 2,
      at: 6_000,
      released: { shards: 1, at: 5_000, releasedAt: 6_000, checkpoint: { gone: failures(2) } },
    });
    const next = (at: number) => releasedCheckpoint(after, { shards: 2, at, periodMs: 60_000 }, holds, 10);
    expect(next(65_999)).toEqual(after.released);
    expect(next(66_000)).toBeUndefined();
    expect(releasedCheckpoint(last, { shards: 1, at: 6_000, periodMs: 60_000 }, holds, 10)).toBeUndefined();
    expect(
      releasedCheckpoint(undefined, { shards: 2, at: 6_000, periodMs: 60_000 }, holds, 10),
    ).toBeUndefined();
  });
});
