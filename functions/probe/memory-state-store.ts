/** An in-memory ProbeStateStore with the same conditional semantics as the DynamoDB one (tests, benchmarks). */
import type { HeartbeatItem, VerdictItem } from '../../shared/state/items.js';
import type { ProbeStateStore, WriteOutcome } from './state-store.js';

export class MemoryProbeStateStore implements ProbeStateStore {
  readonly verdicts = new Map<string, VerdictItem>();
  readonly heartbeats = new Map<string, HeartbeatItem>();
  /** Successful writes, for write-count assertions. */
  writes = 0;

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

  async putHeartbeat(item: HeartbeatItem): Promise<WriteOutcome> {
    // Shard 0's heartbeat is the region's, under the region's name.
    const id = item.shard ? `${item.region}\u0000${item.shard}` : item.region;
    const stored = this.heartbeats.get(id);
    if (stored !== undefined && stored.at >= item.at) return 'superseded';
    this.heartbeats.set(id, item);
    this.writes++;
    return 'written';
  }
}

function verdictId(targetKey: string, region: string): string {
  return `${targetKey}\u0000${region}`;
}
