/**
 * A sharded probe region is alive only while every shard of its current split is: each shard
 * heartbeats under its own item, and a silent shard leaves its targets' verdicts frozen. The
 * evaluator tick and the evaluation read every shard's heartbeat (DynamoDB Local, the
 * production store), count the region stale (StaleProbeRegions, fail static) when any shard
 * of the split is silent, and emit ProbeLatency from every shard's check summaries.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EvaluatorMetrics } from '../../functions/evaluator/ports.js';
import { MetricName } from '../../shared/contracts/metrics.js';
import { SHOP_DEFINITION, startEvaluatorHarness, type EvaluatorHarness } from './harness.js';

const MINUTE = 60_000;
const [EAST, WEST, ASIA] = ['us-east-1', 'eu-west-1', 'ap-southeast-1'] as const;

let h: EvaluatorHarness;
beforeEach(async () => {
  h = await startEvaluatorHarness();
});
afterEach(async () => {
  await h.stop();
});

/** What a tick emitted: counts and durations by metric name, with their dimensions. */
function recordingMetrics() {
  const emitted: { name: string; value: number; dimensions: Record<string, string> }[] = [];
  const metrics: EvaluatorMetrics = {
    count: (name, value, dimensions = {}) => void emitted.push({ name, value, dimensions }),
    duration: (name, value, dimensions = {}) => void emitted.push({ name, value, dimensions }),
    flush: () => undefined,
  };
  return { metrics, emitted };
}

/** Every region as shard 0 and 1 of 2, all fresh and all up: the shop is Online. */
async function twoShardsEverywhere() {
  await h.define([SHOP_DEFINITION]);
  await h.heartbeat(undefined, h.clock.now, undefined, { shard: 0, shards: 2 });
  await h.heartbeat(undefined, h.clock.now, undefined, { shard: 1, shards: 2 });
  await h.allUp();
  await h.settle();
  expect((await h.tick()).stale).toEqual([]);
}

/** Ten minutes on, every region's shards heartbeat again except `silent` ones (region/shard). */
async function tenMinutesLater(silent: readonly string[], shards = 2) {
  h.clock.now += 10 * MINUTE;
  for (const region of [EAST, WEST, ASIA]) {
    for (let shard = 0; shard < shards; shard++) {
      if (!silent.includes(`${region}/${shard}`))
        await h.heartbeat([region], h.clock.now, undefined, { shard, shards });
    }
  }
}

describe('sharded regions: every shard heartbeat counts', () => {
  it('shard 1 silent while shard 0 runs: the region is stale (StaleProbeRegions, its votes frozen), shard 0 alone is not enough', async () => {
    await twoShardsEverywhere();
    await tenMinutesLater([`${ASIA}/1`]);
    const { metrics, emitted } = recordingMetrics();
    const tick = await h.tick(metrics);
    await h.settle();

    expect(tick.stale).toEqual([ASIA]);
    expect(tick.fresh).toEqual([WEST, EAST]);
    expect(emitted.filter((m) => m.name === MetricName.staleRegions).map((m) => m.value)).toEqual([1]);
    const report = (await h.deps.store.loadStatuses()).get('shop')?.report;
    const votes = report?.endpoints.map((e) => e.votes.find((v) => v.region === ASIA)?.vote);
    expect(votes).toEqual(['stale', 'stale']);
    expect(report?.endpoints.every((e) => e.status === 'Online')).toBe(true);
  });

  it('a shard of the split that never heartbeat makes its region stale', async () => {
    await h.define([SHOP_DEFINITION]);
    await h.heartbeat(undefined, h.clock.now, undefined, { shard: 0, shards: 2 });
    await h.heartbeat([EAST, WEST], h.clock.now, undefined, { shard: 1, shards: 2 });
    expect((await h.tick()).stale).toEqual([ASIA]);
  });

  it("a shard outside the current split (the region shrank) is not waited for: its old heartbeat doesn't make the region stale", async () => {
    await h.define([SHOP_DEFINITION]);
    await h.heartbeat(undefined, h.clock.now, undefined, { shard: 2, shards: 3 });
    await tenMinutesLater([]);
    expect((await h.tick()).stale).toEqual([]);
  });

  it("ProbeLatency comes from every shard's check summaries", async () => {
    await twoShardsEverywhere();
    h.clock.now += MINUTE;
    await h.heartbeat(
      [EAST],
      h.clock.now - 1_000,
      { a: [h.clock.now - 5_000, 6, 0, 12, 11] },
      { shard: 0, shards: 2 },
    );
    await h.heartbeat(
      [EAST],
      h.clock.now - 1_000,
      { b: [h.clock.now - 4_000, 6, 0, 40, 30] },
      { shard: 1, shards: 2 },
    );
    const { metrics, emitted } = recordingMetrics();
    await h.tick(metrics);
    const latency = emitted.filter((m) => m.name === MetricName.probeLatency);
    expect(latency.map((m) => [m.dimensions.Region, m.value]).sort()).toEqual([
      [EAST, 11],
      [EAST, 30],
    ]);
  });
});
