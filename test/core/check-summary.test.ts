import { describe, expect, it } from 'vitest';
import {
  addCheck,
  fromStoredSummary,
  latenciesSince,
  MAX_LATENCY_SAMPLES,
  toStoredSummary,
  type PeriodChecks,
  type StoredCheckSummary,
} from '../../shared/monitor/check-summary.js';
import { fromColumns, judgeListVersion, toColumns } from '../../shared/monitor/check-summary-columns.js';
import {
  histogramLatencies,
  latencyHistogram,
  periodHistogram,
} from '../../shared/monitor/latency-histogram.js';
import { withCurrentChecks } from '../../shared/status/current-checks.js';
import type { HeartbeatItem } from '../../shared/state/items.js';
import type { ProfileStatusReport } from '../../shared/status/report.js';

const T = Date.parse('2026-01-01T00:00:00Z');

function period(checks: { at: number; ok: boolean; latencyMs?: number }[]): PeriodChecks | undefined {
  let acc: PeriodChecks | undefined;
  for (const c of checks) acc = addCheck(acc, { startedAt: c.at, ok: c.ok, latencyMs: c.latencyMs });
  return acc;
}

describe('check summaries of a heartbeat period', () => {
  it('keeps the last check time, the latest and median latency, checks and failures', () => {
    // Act
    const summary = toStoredSummary(
      period([
        { at: T, ok: true, latencyMs: 10 },
        { at: T + 10_000, ok: true, latencyMs: 30.1234 },
        { at: T + 20_000, ok: false },
        { at: T + 30_000, ok: true, latencyMs: 20 },
      ])!,
    );

    // Assess
    expect(summary).toEqual([T + 30_000, 4, 1, 20, 20]);
    expect(fromStoredSummary(summary)).toEqual({
      lastCheckedAt: T + 30_000,
      checks: 4,
      failures: 1,
      latestLatencyMs: 20,
      medianLatencyMs: 20,
    });
  });

  it('a period without any latency (all timed out) has none to show', () => {
    // Act
    const summary = toStoredSummary(period([{ at: T, ok: false }])!);

    // Assess
    expect(summary).toEqual([T, 1, 1, null, null]);
    expect(fromStoredSummary(summary)).toEqual({ lastCheckedAt: T, checks: 1, failures: 1 });
  });

  it('an even number of latencies has the middle two averaged; samples are bounded', () => {
    // Act
    const even = toStoredSummary(
      period([1, 2, 3, 10].map((ms, i) => ({ at: T + i, ok: true, latencyMs: ms })))!,
    );
    const many = period(Array.from({ length: 200 }, (_, i) => ({ at: T + i, ok: true, latencyMs: i })))!;

    // Assess
    expect(even[4]).toBe(2.5);
    expect(many.latencies).toHaveLength(MAX_LATENCY_SAMPLES);
    expect(many.checks).toBe(200);
  });

  it("stores a shard's summaries as columns over its judge list, and reads them back only against that list", () => {
    // Prepare
    const keys = ['a', 'b', 'c'];
    const summaries = new Map<string, StoredCheckSummary>([
      ['a', [T - 1_234, 6, 1, 12.345, 118.7]],
      ['c', [T - 60_000, 1, 1, null, null]],
    ]);
    // Act
    const columns = toColumns(keys, summaries, T);
    // Assess: times to the tenth of a second towards the past, latencies to two significant digits,
    // a judge without a summary left out, nothing against another list
    expect(fromColumns(keys, columns, T)).toEqual({
      a: [T - 1_300, 6, 1, 12, 120],
      c: [T - 60_000, 1, 1, null, null],
    });
    expect(fromColumns(['a', 'b'], columns, T)).toEqual({});
    expect(judgeListVersion(keys)).not.toBe(judgeListVersion(['a', 'c', 'b']));
  });

  it("a heartbeat's histogram holds the medians of the judges checked in its period", () => {
    const histogram = periodHistogram(
      {
        a: [T - 5, 6, 0, 12, 11.4],
        b: [T - 50, 6, 0, 9, 11],
        c: [T - 70_000, 6, 0, 9, 9],
        d: [T - 1, 1, 1, null, null],
      },
      T,
      60_000,
    );
    expect(histogram).toEqual([[11, 2]]);
    expect(histogramLatencies(latencyHistogram([0.1234, 5, 5, 1_234]))).toEqual([0.12, 5, 5, 1_200]);
  });

  it('gives a minute reader each period once: those whose last check is newer than it', () => {
    expect(
      latenciesSince({ a: [T + 5, 6, 0, 12, 11], b: [T - 5, 6, 0, 9, 9], c: [T + 1, 1, 1, null, null] }, T),
    ).toEqual([11]);
    expect(latenciesSince(undefined, T)).toEqual([]);
  });
});

describe('status votes with the latest checks', () => {
  const report: ProfileStatusReport = {
    profile: 'shop',
    status: 'Online',
    since: T,
    stale: false,
    endpoints: [
      {
        endpoint: 'east',
        status: 'Online',
        since: T,
        reason: 'up in 2/2 regions',
        stale: false,
        targetKey: 'k',
        votes: [
          { region: 'r1', vote: 'up', since: T, checkedAt: T, latencyMs: 5, detail: 'check succeeded' },
          { region: 'r2', vote: 'up', since: T, checkedAt: T, latencyMs: 7, detail: 'check succeeded' },
        ],
      },
    ],
  };
  const heartbeat = (
    region: string,
    shard: number,
    summaries: HeartbeatItem['summaries'],
  ): HeartbeatItem => ({
    region,
    shard,
    shards: 2,
    at: T + 60_000,
    targets: 1,
    periodMs: 60_000,
    checkpoint: {},
    summaries,
  });

  it("takes each region's newest summary of the vote's judge (any shard) when it is newer than the verdict", () => {
    // Act
    const [current] = withCurrentChecks(
      [report],
      [
        heartbeat('r1', 0, { k: [T + 50_000, 6, 0, 150, 120] }),
        heartbeat('r1', 1, { k: [T + 40_000, 6, 0, 99, 99] }),
        heartbeat('r2', 0, { other: [T + 50_000, 6, 0, 1, 1] }),
      ],
    );

    // Assess
    expect(current?.endpoints[0]?.votes).toEqual([
      {
        region: 'r1',
        vote: 'up',
        since: T,
        checkedAt: T + 50_000,
        latencyMs: 150,
        detail: 'check succeeded',
        lastPeriod: { checks: 6, failures: 0, medianLatencyMs: 120 },
      },
      report.endpoints[0]?.votes[1],
    ]);
  });

  it('keeps the vote as it is when the summary is older than the verdict, or has no latency', () => {
    // Act
    const [older] = withCurrentChecks([report], [heartbeat('r1', 0, { k: [T - 1, 6, 0, 150, 120] })]);
    const [timedOut] = withCurrentChecks([report], [heartbeat('r1', 0, { k: [T + 9, 1, 1, null, null] })]);

    // Assess
    expect(older).toEqual(report);
    expect(timedOut?.endpoints[0]?.votes[0]).toEqual({
      region: 'r1',
      vote: 'up',
      since: T,
      checkedAt: T + 9,
      detail: 'check succeeded',
      lastPeriod: { checks: 1, failures: 1 },
    });
  });
});
