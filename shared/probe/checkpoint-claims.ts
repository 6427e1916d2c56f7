/**
 * Which heartbeat holds a request's counts when requests move between shards
 * (docs/adr/0001-probe-cadence.md, "Sharded regions"). A heartbeat claims the requests of its
 * shard under its split, as of its `at`; for a heartbeat period after a reshard it also claims,
 * as of its previous heartbeat's `at`, the requests of its previous split (`released`). A
 * request's counts are in the newest claim on it: the one taken by the shard that counted its
 * last checks. Without `released`, a shard that lost requests and wrote its next heartbeat
 * before the gaining shard restored (a cold start, a late delivery) left the gaining shard an
 * older claim (counts lost, or counted again after a success) or none.
 */
import type { HeartbeatItem, ReleasedCheckpoint } from '../state/items.js';
import { isInShard } from './shards.js';

/** Every claim of the heartbeats, newest first. */
export function claimsOf(heartbeats: readonly HeartbeatItem[]) {
  return heartbeats
    .flatMap(({ shard = 0, shards = 1, at, checkpoint, released }) => [
      { shard, shards, at, checkpoint },
      ...(released === undefined
        ? []
        : [{ shard, shards: released.shards, at: released.at, checkpoint: released.checkpoint }]),
    ])
    .sort((a, b) => b.at - a.at);
}

/** The newest claim on the request (`claims` newest first). */
export function holderOf(claims: ReturnType<typeof claimsOf>, requestKey: string) {
  return claims.find((claim) => isInShard(requestKey, claim.shard, claim.shards));
}

/**
 * What a shard's next heartbeat, under `next.shards` at `next.at`, carries as `released`: after
 * a split change, the checkpoint of its last heartbeat (`last`, the one the next replaces) of the
 * judges it no longer `holds`; under an unchanged split, what `last` carried, until a heartbeat
 * period after the change (by then each gaining shard has heartbeat its own claim). At most
 * `room` entries: the heartbeat's own checkpoint and this share its entry budget.
 */
export function releasedCheckpoint(
  last: HeartbeatItem | undefined,
  next: { readonly shards: number; readonly at: number; readonly periodMs: number },
  holds: (judgeKey: string) => boolean,
  room: number,
): ReleasedCheckpoint | undefined {
  if (last === undefined) return undefined;
  const lastShards = last.shards ?? 1;
  const released =
    lastShards === next.shards
      ? last.released
      : { shards: lastShards, at: last.at, releasedAt: next.at, checkpoint: last.checkpoint };
  if (released === undefined || next.at - released.releasedAt >= next.periodMs) return undefined;
  const kept = Object.entries(released.checkpoint).filter(([judgeKey]) => !holds(judgeKey));
  return { ...released, checkpoint: Object.fromEntries(kept.slice(0, Math.max(0, room))) };
}
