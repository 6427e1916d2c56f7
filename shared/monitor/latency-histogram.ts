/**
 * The period's latencies of a probe region shard as a histogram, carried in its heartbeat for
 * the evaluator tick's ProbeLatency metric: one value per judge checked in the last period (its
 * median), rounded to two significant digits, so a full shard's latencies take a few hundred
 * bytes instead of a summary per judge. The heartbeat is written every period whatever the
 * number of targets, so it must stay small (a write unit is 1 KB).
 */

import { latenciesSince, type StoredCheckSummary } from './check-summary.js';

/** [latency ms (two significant digits), judges] pairs, the smallest latency first. */
export type LatencyHistogram = readonly (readonly [number, number])[];

/** A latency as the heartbeat's histogram and the check summaries keep it: two significant digits. */
export function roundLatency(ms: number): number {
  return ms <= 0 ? 0 : Number(ms.toPrecision(2));
}

export function latencyHistogram(latencies: readonly number[]): LatencyHistogram {
  const counts = new Map<number, number>();
  for (const ms of latencies) {
    const value = roundLatency(ms);
    counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts].sort(([a], [b]) => a - b);
}

/** Each latency of the histogram as often as it was seen. */
export function histogramLatencies(histogram: LatencyHistogram): number[] {
  return histogram.flatMap(([ms, count]) => Array.from({ length: count }, () => ms));
}

/** What a heartbeat written at `at` carries: the medians of the judges checked in the period before it. */
export function periodHistogram(
  summaries: Readonly<Record<string, StoredCheckSummary>>,
  at: number,
  periodMs: number,
): LatencyHistogram {
  return latencyHistogram(latenciesSince(summaries, at - periodMs));
}
