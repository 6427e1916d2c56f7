/**
 * Staleness (SPEC §3, DESIGN "fail static"): probe regions write verdicts only when they
 * change, so silence is told from health by the region's heartbeat. A region whose
 * heartbeat is older than STALE_AFTER_HEARTBEATS periods stops voting. See
 * docs/adr/0003-statuses-and-staleness.md.
 */
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

/** A region votes while its heartbeat is fresh; a region that never sent one is not fresh. */
export function isRegionFresh(heartbeat: HeartbeatItem | undefined, now: number): boolean {
  if (heartbeat === undefined) return false;
  return now - heartbeat.at <= staleAfterMs(heartbeat.periodMs);
}
