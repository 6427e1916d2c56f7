/**
 * The probe worker's port to its state (docs/adr/0002-table-layout.md): a region's
 * verdict items, and per shard its heartbeat, judge list, check summaries and certificates.
 * Writes are conditional on time moving forward, so a retried or overlapping writer can never
 * move state backwards.
 */
import type {
  CertificatesItem,
  CheckSummariesItem,
  HeartbeatItem,
  JudgeListItem,
  VerdictItem,
} from '../../shared/state/items.js';

/** `superseded`: the store already holds a newer item (not an error; nothing to retry). */
export type WriteOutcome = 'written' | 'superseded';

export interface ProbeStateStore {
  /** The region's stored verdicts for these targets (missing ones are absent). */
  loadVerdicts(region: string, targetKeys: readonly string[]): Promise<VerdictItem[]>;
  /** Every shard's heartbeat of the region. */
  loadHeartbeats(region: string): Promise<HeartbeatItem[]>;
  /** Written only if no item exists or the stored `checkedAt` is older. */
  putVerdict(item: VerdictItem): Promise<WriteOutcome>;
  /** Every shard's certificates item of the region. */
  loadCertificates(region: string): Promise<CertificatesItem[]>;
  /** Written only if no item exists or the stored `at` is older (so are the other items of a shard). */
  putHeartbeat(item: HeartbeatItem): Promise<WriteOutcome>;
  putJudgeList(item: JudgeListItem): Promise<WriteOutcome>;
  putCheckSummaries(item: CheckSummariesItem): Promise<WriteOutcome>;
  putCertificates(item: CertificatesItem): Promise<WriteOutcome>;
}
