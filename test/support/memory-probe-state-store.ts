/** An in-memory ProbeStateStore with the same conditional semantics as the DynamoDB one (tests, benchmarks). */
import type {
  CertificatesItem,
  CheckSummariesItem,
  HeartbeatItem,
  JudgeListItem,
  VerdictItem,
} from '../../shared/state/items.js';
import type { ProbeStateStore, WriteOutcome } from '../../functions/probe/dynamodb-state-store.js';

export class MemoryProbeStateStore implements ProbeStateStore {
  readonly verdicts = new Map<string, VerdictItem>();
  readonly heartbeats = new Map<string, HeartbeatItem>();
  readonly judgeLists = new Map<string, JudgeListItem>();
  readonly checkSummaries = new Map<string, CheckSummariesItem>();
  readonly certificates = new Map<string, CertificatesItem>();
  /** Successful writes, for write-count assertions (`heartbeatWrites`: of heartbeats alone). */
  writes = 0;
  heartbeatWrites = 0;

  async loadVerdicts(region: string, targetKeys: readonly string[]): Promise<VerdictItem[]> {
    return targetKeys.flatMap((key) => {
      const item = this.verdicts.get(verdictId(key, region));
      return item === undefined ? [] : [item];
    });
  }

  async loadHeartbeats(region: string): Promise<HeartbeatItem[]> {
    return [...this.heartbeats.values()].filter((item) => item.region === region);
  }

  async putVerdict(item: VerdictItem): Promise<WriteOutcome> {
    const id = verdictId(item.targetKey, item.region);
    const stored = this.verdicts.get(id);
    if (stored !== undefined && stored.checkedAt >= item.checkedAt) return 'superseded';
    this.verdicts.set(id, item);
    this.writes++;
    return 'written';
  }

  async loadCertificates(region: string): Promise<CertificatesItem[]> {
    return [...this.certificates.values()].filter((item) => item.region === region);
  }

  async putHeartbeat(item: HeartbeatItem): Promise<WriteOutcome> {
    const outcome = this.putIfNewer(this.heartbeats, item);
    if (outcome === 'written') this.heartbeatWrites++;
    return outcome;
  }

  async putJudgeList(item: JudgeListItem): Promise<WriteOutcome> {
    return this.putIfNewer(this.judgeLists, item);
  }

  async putCheckSummaries(item: CheckSummariesItem): Promise<WriteOutcome> {
    return this.putIfNewer(this.checkSummaries, item);
  }

  async putCertificates(item: CertificatesItem): Promise<WriteOutcome> {
    return this.putIfNewer(this.certificates, item);
  }

  private putIfNewer<T extends { region: string; shard?: number; at: number }>(
    items: Map<string, T>,
    item: T,
  ): WriteOutcome {
    // Shard 0's items are the region's, under the region's name.
    const id = item.shard ? `${item.region}\u0000${item.shard}` : item.region;
    const stored = items.get(id);
    if (stored !== undefined && stored.at >= item.at) return 'superseded';
    items.set(id, item);
    this.writes++;
    return 'written';
  }
}

function verdictId(targetKey: string, region: string): string {
  return `${targetKey}\u0000${region}`;
}
