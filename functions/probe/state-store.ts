/**
 * The probe worker's port to its state (docs/adr/0002-table-layout.md): a region's
 * verdict items and its heartbeat. Writes are conditional on time moving forward, so a
 * retried or overlapping writer can never move state backwards.
 */
import type { HeartbeatItem, VerdictItem } from '../../shared/state/items.js';

/** `superseded`: the store already holds a newer item (not an error; nothing to retry). */
export type WriteOutcome = 'written' | 'superseded';

export interface ProbeStateStore {
  /** The region's stored verdicts for these targets (missing ones are absent). */
  loadVerdicts(region: string, targetKeys: readonly string[]): Promise<VerdictItem[]>;
  /** Every shard's heartbeat of the region. */
  loadHeartbeats(region: string): Promise<HeartbeatItem[]>;
  /** Written only if no item exists or the stored `checkedAt` is older. */
  putVerdict(item: VerdictItem): Promise<WriteOutcome>;
  /** Written only if no item exists or the stored `at` is older. */
  putHeartbeat(item: HeartbeatItem): Promise<WriteOutcome>;
}
