/**
 * The writer of a shard's check summaries: the judge list (when it changed) and the summaries
 * positional over it (shared/monitor/check-summary-columns.ts), every SUMMARY_EVERY_PERIODS
 * heartbeat periods.
 */
import type { StoredCheckSummary } from '../../../shared/monitor/check-summary.js';
import { judgeListVersion, toColumns } from '../../../shared/monitor/check-summary-columns.js';
import type { PlannedJudge } from '../../../shared/probe/target.js';
import type { ProbeStateStore } from '../dynamodb-state-store.js';
import { ITEM_BUDGET_BYTES, SUMMARY_EVERY_PERIODS } from './limits.js';

/** The shard's judges, sorted, as many as the judge list's budget holds. */
function judgeListOf(judges: readonly PlannedJudge[]): string[] {
  let used = 0;
  return [...new Set(judges.map((j) => j.key))]
    .sort()
    .filter((key) => (used += key.length + 3) <= ITEM_BUDGET_BYTES);
}

export class SummaryWriter {
  private lastSummaryDueAt: number | undefined;
  /** The version of the judge list last written (a new worker writes its own once). */
  private judgeListWritten: string | undefined;

  constructor(
    private readonly store: Pick<ProbeStateStore, 'putJudgeList' | 'putCheckSummaries'>,
    private readonly region: string,
    private readonly shard: number,
    private readonly heartbeatPeriodMs: number,
  ) {}

  /** Whether the round due at `dueAt` writes the summaries (there are some, and their period has come). */
  isDue(dueAt: number, summaries: ReadonlyMap<string, StoredCheckSummary>): boolean {
    return (
      summaries.size > 0 &&
      (this.lastSummaryDueAt === undefined ||
        dueAt - this.lastSummaryDueAt >= SUMMARY_EVERY_PERIODS * this.heartbeatPeriodMs)
    );
  }

  /** The judge list (when it changed), then the summaries positional over it. */
  async write(
    dueAt: number,
    at: number,
    judges: readonly PlannedJudge[],
    summaries: ReadonlyMap<string, StoredCheckSummary>,
  ): Promise<void> {
    const keys = judgeListOf(judges);
    const version = judgeListVersion(keys);
    const own = this.shard === 0 ? {} : { shard: this.shard };
    if (version !== this.judgeListWritten) {
      await this.store.putJudgeList({ region: this.region, ...own, at, version, keys });
      this.judgeListWritten = version;
    }
    await this.store.putCheckSummaries({
      region: this.region,
      ...own,
      at,
      judges: version,
      columns: toColumns(keys, summaries, at),
    });
    this.lastSummaryDueAt = dueAt;
  }
}
