/**
 * The verdict writer: writes a judge's VerdictItem, and keeps a failed write to retry at the
 * start of the next round (only the latest change per judge: an older one is superseded).
 */
import type { VerdictItem } from '../../../shared/state/items.js';
import type { ProbeStateStore } from '../dynamodb-state-store.js';
import type { WorkerLogger } from './types.js';

export class VerdictWriter {
  private readonly pending = new Map<string, VerdictItem>();

  constructor(
    private readonly store: Pick<ProbeStateStore, 'putVerdict'>,
    private readonly region: string,
    private readonly logger: WorkerLogger,
  ) {}

  /** Verdict writes that failed and wait for a retry. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Writes `item`; true when it was written (not superseded, not failed). */
  readonly write = async (item: VerdictItem): Promise<boolean> => {
    try {
      const outcome = await this.store.putVerdict(item);
      if (this.pending.get(item.targetKey) === item) this.pending.delete(item.targetKey);
      if (outcome === 'superseded')
        this.logger.warn('verdict write superseded by a newer one', {
          key: item.targetKey,
          region: this.region,
        });
      return outcome === 'written';
    } catch (error) {
      // Keep the latest change only: an older pending one is superseded by it.
      const pending = this.pending.get(item.targetKey);
      if (pending === undefined || pending.checkedAt <= item.checkedAt)
        this.pending.set(item.targetKey, item);
      this.logger.warn('verdict write failed; retrying next round', {
        key: item.targetKey,
        region: this.region,
        error: String(error),
      });
      return false;
    }
  };

  /** Retries every pending write; resolves with whether each was written. */
  retryPending(): Promise<boolean[]> {
    return Promise.all([...this.pending.values()].map(this.write));
  }

  /** Forgets the pending writes of judges not in `held`. */
  retain(held: ReadonlyMap<string, unknown>): void {
    for (const key of this.pending.keys()) if (!held.has(key)) this.pending.delete(key);
  }
}
