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
import type { StoredCertificate } from '../../shared/monitor/certificate-summary.js';
import { fromColumns, judgeListVersion, toColumns } from '../../shared/monitor/check-summary-columns.js';
import {
  histogramLatencies,
  latencyHistogram,
  periodHistogram,
} from '../../shared/monitor/latency-histogram.js';
import { regionChecksOf } from '../../shared/monitor/region-checks.js';
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

describe("a probe region's recent checks, shard by shard", () => {
  const keys = ['HTTPS:a.example.net:443/#1', 'HTTPS:b.example.net:443/#1'];
  const summary = (key: string, at: number): StoredCheckSummary => [at, 3, 1, 20, 20];
  const columnsAt = (at: number, shardKeys: readonly string[]) =>
    toColumns(shardKeys, new Map(shardKeys.map((k) => [k, summary(k, at - 1_000)])), at);
  const heartbeat = (fields: Partial<HeartbeatItem>): HeartbeatItem => ({
    region: 'eu-west-1',
    at: T,
    targets: 2,
    periodMs: 60_000,
    checkpoint: {},
    ...fields,
  });
  const certificate: StoredCertificate = [T + 30 * 86_400_000, 'CN=a.example.net', 'CN=Test CA'];

  it('reads each summary against the judge list it names, for the shards of the newest heartbeat’s split only', () => {
    const checks = regionChecksOf({
      heartbeats: [heartbeat({ shard: 0, shards: 4, at: T - 60_000 }), heartbeat({ shard: 1, shards: 2 })],
      judgeLists: [
        { region: 'eu-west-1', shard: 0, at: T, version: judgeListVersion([keys[0]!]), keys: [keys[0]!] },
        { region: 'eu-west-1', shard: 1, at: T, version: judgeListVersion([keys[1]!]), keys: [keys[1]!] },
        { region: 'eu-west-1', shard: 3, at: T, version: judgeListVersion(keys), keys },
      ],
      checkSummaries: [
        {
          region: 'eu-west-1',
          shard: 0,
          at: T,
          judges: judgeListVersion([keys[0]!]),
          columns: columnsAt(T, [keys[0]!]),
        },
        {
          region: 'eu-west-1',
          shard: 1,
          at: T,
          judges: judgeListVersion([keys[1]!]),
          columns: columnsAt(T, [keys[1]!]),
        },
        // shard 3 of the earlier split of 4: the region shrank, its items stay behind
        { region: 'eu-west-1', shard: 3, at: T, judges: judgeListVersion(keys), columns: columnsAt(T, keys) },
      ],
      certificates: [
        { region: 'eu-west-1', shard: 0, at: T, certificates: { [keys[0]!]: certificate } },
        { region: 'eu-west-1', shard: 3, at: T, certificates: { [keys[1]!]: certificate } },
      ],
    });
    expect(checks).toEqual([
      { region: 'eu-west-1', summaries: { [keys[0]!]: summary(keys[0]!, T - 1_000) } },
      { region: 'eu-west-1', summaries: { [keys[1]!]: summary(keys[1]!, T - 1_000) } },
      { region: 'eu-west-1', certificates: { [keys[0]!]: certificate } },
    ]);
  });

  it('a summary whose judge list was replaced, or is of another shard, gives nothing (the votes show their own checks)', () => {
    const checks = regionChecksOf({
      heartbeats: [heartbeat({})],
      judgeLists: [
        { region: 'eu-west-1', at: T, version: judgeListVersion([keys[0]!]), keys: [keys[0]!] },
        { region: 'eu-west-1', shard: 1, at: T, version: judgeListVersion(keys), keys },
      ],
      checkSummaries: [
        { region: 'eu-west-1', at: T, judges: judgeListVersion(keys), columns: columnsAt(T, keys) },
      ],
      certificates: [],
    });
    expect(checks).toEqual([]);
  });

  it('a heartbeat written before the SUMMARY and CERTIFICATES items is read as it is; no heartbeat at all: every shard’s items', () => {
    const old = regionChecksOf({
      heartbeats: [
        heartbeat({ summaries: { [keys[0]!]: summary(keys[0]!, T) } }),
        heartbeat({ region: 'us-east-1', certificates: { [keys[1]!]: certificate } }),
        heartbeat({ region: 'ap-south-1' }),
      ],
      judgeLists: [],
      checkSummaries: [],
      certificates: [],
    });
    expect(old).toEqual([
      { region: 'eu-west-1', summaries: { [keys[0]!]: summary(keys[0]!, T) } },
      { region: 'us-east-1', certificates: { [keys[1]!]: certificate } },
    ]);

    const none = regionChecksOf({
      heartbeats: [],
      judgeLists: [],
      checkSummaries: [],
      certificates: [{ region: 'eu-west-1', shard: 7, at: T, certificates: { [keys[0]!]: certificate } }],
    });
    expect(none).toEqual([{ region: 'eu-west-1', certificates: { [keys[0]!]: certificate } }]);
  });
});
