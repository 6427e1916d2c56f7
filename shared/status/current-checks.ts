/**
 * Status reports are written when a status changes, so each region's vote carries the check
 * that decided it, possibly long ago. Each probe region shard stores its judges' checks of
 * their last period every few heartbeat periods (shared/monitor/check-summary.ts,
 * region-checks.ts); this puts them into the votes, so `tm status` shows the latest check
 * time and latency, and the period's median, checks and failures.
 */
import type { RegionVote } from '../monitor/aggregate.js';
import { fromStoredSummary, type CheckSummary } from '../monitor/check-summary.js';
import type { RegionChecks } from '../monitor/region-checks.js';
import type { ProfileStatusReport } from './report.js';

/** A vote with its region's last period of checks, when a heartbeat reported one. */
export type CurrentVote = RegionVote & {
  readonly lastPeriod?: Omit<CheckSummary, 'lastCheckedAt' | 'latestLatencyMs'>;
};

/**
 * `reports` with each vote's `checkedAt` and `latencyMs` taken from the newest summary of its
 * judge (`targetKey`) in its region's summaries (every shard), when that is newer.
 */
export function withCurrentChecks<R extends ProfileStatusReport>(
  reports: readonly R[],
  regionChecks: readonly RegionChecks[],
): R[] {
  const newest = new Map<string, CheckSummary>();
  for (const checks of regionChecks) {
    for (const [key, stored] of Object.entries(checks.summaries ?? {})) {
      const summary = fromStoredSummary(stored);
      const id = `${checks.region}\n${key}`;
      if ((newest.get(id)?.lastCheckedAt ?? -Infinity) < summary.lastCheckedAt) newest.set(id, summary);
    }
  }
  return reports.map((report) => ({
    ...report,
    endpoints: report.endpoints.map((endpoint) => ({
      ...endpoint,
      votes: endpoint.votes.map((vote): CurrentVote => {
        const summary =
          endpoint.targetKey === undefined ? undefined : newest.get(`${vote.region}\n${endpoint.targetKey}`);
        if (summary === undefined || summary.lastCheckedAt <= (vote.checkedAt ?? -Infinity)) return vote;
        const { lastCheckedAt, latestLatencyMs, ...lastPeriod } = summary;
        const { latencyMs: _decidingLatency, ...rest } = vote;
        return {
          ...rest,
          checkedAt: lastCheckedAt,
          ...(latestLatencyMs === undefined ? {} : { latencyMs: latestLatencyMs }),
          lastPeriod,
        };
      }),
    })),
  }));
}
