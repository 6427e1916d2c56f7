/**
 * Staleness (SPEC §3, DESIGN "fail static"): probe regions write verdicts only when they
 * change, so silence is told from health by the region's heartbeats — one per shard of the
 * region. A region whose heartbeats are older than STALE_AFTER_HEARTBEATS periods stops
 * voting. See docs/adr/0003-statuses-and-staleness.md.
 */
import { groupBy } from '../group-by.js';
import type { HeartbeatItem } from '../state/items.js';

/**
 * Three missed heartbeats: one late round (a slow invocation, a cold start) or two never
 * silences a region, and a dead region stops voting within 3 periods (3 min at the
 * default 60 s heartbeat) — before a 30 s-interval endpoint could even be failed over twice.
 */
export const STALE_AFTER_HEARTBEATS = 3;

/** The age (ms) beyond which a heartbeat of this period is stale. */
export function staleAfterMs(periodMs: number): number {
  return STALE_AFTER_HEARTBEATS * periodMs;
}

/** One shard's heartbeat is fresh while younger than the window of the period it promised; none is not fresh. */
export function isHeartbeatFresh(heartbeat: HeartbeatItem | undefined, now: number): boolean {
  if (heartbeat === undefined) return false;
  return now - heartbeat.at <= staleAfterMs(heartbeat.periodMs);
}

/**
 * A region votes while every shard of its current split has a fresh heartbeat: a silent shard
 * leaves its targets' verdicts frozen, so the region's votes are not current. The current
 * split is the one its newest heartbeat was written under (a shard outside it — the region
 * shrank — is not waited for); a shard of the split that never heartbeat is not fresh. A
 * region that never sent a heartbeat is not fresh.
 */
export function isRegionFresh(heartbeats: readonly HeartbeatItem[], now: number): boolean {
  if (heartbeats.length === 0) return false;
  const newest = heartbeats.reduce((a, b) => (b.at > a.at ? b : a));
  for (let shard = 0; shard < (newest.shards ?? 1); shard++) {
    const own = heartbeats.find((h) => (h.shard ?? 0) === shard);
    if (!isHeartbeatFresh(own, now)) return false;
  }
  return true;
}

/** Heartbeat items (any regions, every shard) by region. */
export function heartbeatsByRegion(
  heartbeats: readonly HeartbeatItem[],
): ReadonlyMap<string, readonly HeartbeatItem[]> {
  return groupBy(heartbeats, (heartbeat) => heartbeat.region);
}
