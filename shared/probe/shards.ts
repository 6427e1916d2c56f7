/**
 * Which shard of a region sends a request: jump
 * consistent hashing (Lamping & Veach, 2014) of a stable hash of the request key. When the
 * count grows from n to n+1 only ~1/(n+1) of the requests move (all to the new shard), and
 * shrinking moves only the removed shard's requests. All judges of a request go with it.
 */
import { stableHash32 } from './plan.js';

const SHARD_SALT = 0x5a17_0001;

/** The shard in [0, shards) that probes `requestKey`. */
export function shardOf(requestKey: string, shards: number): number {
  return jumpHash(stableHash32(requestKey, SHARD_SALT), shards);
}

/**
 * Jump consistent hash with a 32-bit xorshift generator seeded by `seed` (the algorithm
 * needs only a fixed pseudo-random sequence per key, not the paper's 64-bit LCG).
 */
export function jumpHash(seed: number, buckets: number): number {
  if (!Number.isInteger(buckets) || buckets < 1)
    throw new RangeError(`buckets must be an integer ≥ 1, got ${buckets}`);
  let state = seed >>> 0 || 0x9e37_79b9;
  let bucket = 0;
  let next = 0;
  while (next < buckets) {
    bucket = next;
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    next = Math.floor((bucket + 1) / ((state + 1) / 0x1_0000_0001));
  }
  return bucket;
}

/**
 * Requests one shard probes per round at most (the round handler's measured capacity:
 * docs/adr/0001-probe-cadence.md, "Sharded regions"). Beyond it a region gets another shard.
 */
export const SHARD_CAPACITY = 2_000;

/** Shards per region a stack may deploy (each is a queue, a function and its role and log group). */
export const MAX_PROBE_SHARDS = 50;

/** How many shards a region with `requests` distinct requests runs: enough for the capacity, at most `maxShards`. */
export function shardCountFor(requests: number, maxShards: number, capacity = SHARD_CAPACITY): number {
  if (!Number.isInteger(maxShards) || maxShards < 1)
    throw new RangeError(`maxShards must be an integer ≥ 1, got ${maxShards}`);
  return Math.min(maxShards, Math.max(1, Math.ceil(requests / capacity)));
}

/** True when the shard `shard` of `shards` claims `requestKey` (it probes it and checkpoints its judges). */
export function isInShard(requestKey: string, shard: number, shards: number): boolean {
  return shardOf(requestKey, shards) === shard;
}
