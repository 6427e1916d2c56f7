/**
 * What a region's checks of one judge looked like over the last heartbeat period — last check
 * time, latest and median latency, checks and failures — so that `tm status` and the
 * ProbeLatency metric are current although verdicts are written on change only. The worker
 * keeps one per judge; each shard stores them every few heartbeat periods in one item,
 * positionally (check-summary-columns.ts), and its heartbeat carries the period's medians as
 * a histogram (latency-histogram.ts).
 */

/** [lastCheckedAt (epoch ms), checks, failures, latestLatencyMs | null, medianLatencyMs | null] */
export type StoredCheckSummary = readonly [number, number, number, number | null, number | null];

export interface CheckSummary {
  /** Epoch ms: start of the last check in the period. */
  readonly lastCheckedAt: number;
  readonly checks: number;
  readonly failures: number;
  /** Latency of the last check that got one, in the period. */
  readonly latestLatencyMs?: number;
  /** Median latency of the period's checks that got one. */
  readonly medianLatencyMs?: number;
}

/** One judge's checks of the current period (kept in the worker's memory). */
export interface PeriodChecks {
  readonly lastCheckedAt: number;
  readonly checks: number;
  readonly failures: number;
  /** The period's latencies, the newest last (at most MAX_LATENCY_SAMPLES). */
  readonly latencies: readonly number[];
}

/** Latency samples kept per judge and period: a 60 s heartbeat holds six 10 s checks. */
export const MAX_LATENCY_SAMPLES = 64;

/** The period's checks with one more check added. */
export function addCheck(
  period: PeriodChecks | undefined,
  check: { readonly startedAt: number; readonly ok: boolean; readonly latencyMs?: number },
): PeriodChecks {
  const latencies = period?.latencies ?? [];
  return {
    lastCheckedAt: Math.max(period?.lastCheckedAt ?? check.startedAt, check.startedAt),
    checks: (period?.checks ?? 0) + 1,
    failures: (period?.failures ?? 0) + (check.ok ? 0 : 1),
    latencies:
      check.latencyMs === undefined
        ? latencies
        : [...latencies, round(check.latencyMs)].slice(-MAX_LATENCY_SAMPLES),
  };
}

export function toStoredSummary(period: PeriodChecks): StoredCheckSummary {
  const latest = period.latencies.at(-1);
  return [
    period.lastCheckedAt,
    period.checks,
    period.failures,
    latest ?? null,
    latest === undefined ? null : median(period.latencies),
  ];
}

export function fromStoredSummary(stored: StoredCheckSummary): CheckSummary {
  const [lastCheckedAt, checks, failures, latest, middle] = stored;
  return {
    lastCheckedAt,
    checks,
    failures,
    ...(latest === null ? {} : { latestLatencyMs: latest }),
    ...(middle === null ? {} : { medianLatencyMs: middle }),
  };
}

/**
 * The ProbeLatency values a heartbeat gives a reader that comes every `sinceMs` (the evaluator
 * tick, each minute): each judge's median latency of its period, for periods whose last check
 * is newer than `sinceMs` — so a period is counted once although heartbeat and tick drift.
 */
export function latenciesSince(
  summaries: Readonly<Record<string, StoredCheckSummary>> | undefined,
  sinceMs: number,
): number[] {
  return Object.values(summaries ?? {}).flatMap(([lastCheckedAt, , , , middle]) =>
    lastCheckedAt > sinceMs && middle !== null ? [middle] : [],
  );
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const value =
    sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  return round(value);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
