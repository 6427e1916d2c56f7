/**
 * Alarms that tell the truth: the evaluator tick emits every profile's and endpoint's health
 * gauge every minute, whether or not anything was evaluated, so a ProfileDegraded alarm stays
 * in ALARM for as long as the profile is Degraded — and clears in the minute it recovers.
 * The EMF documents are captured from Powertools' own output (stdout), minute by minute under
 * a fake clock, across a failover and a recovery; the evaluation in between runs on DynamoDB
 * Local's stream with the production handler.
 */
import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { powertoolsMetrics } from '../../functions/shared/powertools-metrics.js';
import { METRICS_NAMESPACE, MetricName, SERVICE_NAME } from '../../shared/contracts/metrics.js';
import { SHOP_DEFINITION, startEvaluatorHarness, type EvaluatorHarness } from './harness.js';

const MINUTE = 60_000;
const shop = SHOP_DEFINITION;

interface EmfDocument {
  readonly _aws: {
    readonly Timestamp: number;
    readonly CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[];
  };
  readonly [key: string]: unknown;
}

let h: EvaluatorHarness;
let emitted: EmfDocument[];
beforeEach(async () => {
  h = await startEvaluatorHarness();
  emitted = [];
  const write = process.stdout.write.bind(process.stdout);
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown, ...rest: unknown[]) => {
    for (const line of String(chunk).split('\n')) {
      if (line.includes('"_aws"')) emitted.push(JSON.parse(line) as EmfDocument);
    }
    return String(chunk).includes('"_aws"') ? true : write(chunk as string, ...(rest as []));
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await h.stop();
});

/** One tick per minute with the Lambda's Powertools adapter; the clock is the tick's. */
async function minute() {
  h.clock.now += MINUTE;
  await h.heartbeat();
  const metrics = powertoolsMetrics(
    new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME }),
    () => h.clock.now,
  );
  await h.tick(metrics);
  await h.settle();
}

/** The value of `metric` at `dimensions` in each minute's EMF output, keyed by minute. */
function series(metric: string, dimensions: Record<string, string>): Record<number, number[]> {
  const byMinute: Record<number, number[]> = {};
  for (const doc of emitted) {
    const directive = doc._aws.CloudWatchMetrics[0];
    if (directive?.Namespace !== METRICS_NAMESPACE) continue;
    if (!directive.Metrics.some((m) => m.Name === metric)) continue;
    if (!Object.entries(dimensions).every(([k, v]) => doc[k] === v)) continue;
    const names = new Set(directive.Dimensions.flat());
    if (!Object.keys(dimensions).every((k) => names.has(k))) continue;
    const at = Math.round((doc._aws.Timestamp - start) / MINUTE);
    (byMinute[at] ??= []).push(doc[metric] as number);
  }
  return byMinute;
}
let start = 0;

describe('health gauges every minute (EMF), across a failover and a recovery', () => {
  it('ProfileDegraded and EndpointDegraded are emitted each minute with the current status, not only when the profile is evaluated', async () => {
    h.clock.now = Math.floor(Date.now() / MINUTE) * MINUTE; // CloudWatch takes EMF timestamps of the last 14 days only
    await h.define([shop]);
    await h.heartbeat();
    await h.allUp();
    await h.settle();
    start = h.clock.now;

    await minute(); // 1: all Online
    await h.verdict('shop', 'east', 'down');
    await h.settle();
    await minute(); // 2: failover happened
    await minute(); // 3: nothing evaluated
    await minute(); // 4: nothing evaluated
    await h.verdict('shop', 'east', 'up');
    await h.settle();
    await minute(); // 5: recovered

    const expected = { 1: [0], 2: [1], 3: [1], 4: [1], 5: [0] };
    expect(series(MetricName.profileDegraded, { Profile: 'shop', service: SERVICE_NAME })).toEqual(expected);
    expect(series(MetricName.endpointDegraded, { Profile: 'shop', Endpoint: 'east' })).toEqual(expected);
    expect(series(MetricName.endpointDegraded, { Profile: 'shop', Endpoint: 'west' })).toEqual({
      1: [0],
      2: [0],
      3: [0],
      4: [0],
      5: [0],
    });
    expect(series(MetricName.staleRegions, {})).toEqual({ 1: [0], 2: [0], 3: [0], 4: [0], 5: [0] });
  });

  it("ProbeLatency comes each minute from the heartbeats' check summaries, with no verdict change", async () => {
    h.clock.now = Math.floor(Date.now() / MINUTE) * MINUTE;
    await h.define([shop]);
    await h.heartbeat();
    await h.allUp();
    await h.settle();
    start = h.clock.now;
    const tickAt = (m: number) => start + m * MINUTE;
    const metrics = () =>
      powertoolsMetrics(
        new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME }),
        () => h.clock.now,
      );

    // Minute 1: two judges checked in the last period; a third's last check is older than the
    // previous tick (its period was already reported) and is not counted again.
    h.clock.now = tickAt(1);
    await h.heartbeat(['us-east-1'], h.clock.now - 1_000, {
      a: [h.clock.now - 5_000, 6, 0, 12, 11],
      b: [h.clock.now - 8_000, 6, 1, 40, 30],
      old: [h.clock.now - 2 * MINUTE, 6, 0, 99, 99],
    });
    await h.tick(metrics());
    // Minute 2: the next period.
    h.clock.now = tickAt(2);
    await h.heartbeat(['us-east-1'], h.clock.now - 1_000, { a: [h.clock.now - 3_000, 6, 0, 14, 13] });
    await h.tick(metrics());

    const latency = series(MetricName.probeLatency, { Region: 'us-east-1' });
    expect(
      Object.fromEntries(Object.entries(latency).map(([m, v]) => [m, v.flat().sort((x, y) => x - y)])),
    ).toEqual({
      1: [11, 30],
      2: [13],
    });
  });

  it('the evaluation itself emits no health gauge (one writer per gauge: the tick)', async () => {
    const metrics = powertoolsMetrics(
      new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME }),
      () => h.clock.now,
    );
    Object.assign(h.deps, { metrics });
    h.clock.now = Date.now();
    await h.define([shop]);
    await h.heartbeat();
    await h.verdict('shop', 'east', 'down');
    await h.settle();
    metrics.flush();
    expect(emitted.filter((d) => MetricName.profileDegraded in d)).toEqual([]);
  });
});
