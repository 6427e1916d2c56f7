/**
 * Static failover's votes (docs/adr/0011-static-failover.md, "Votes, alarms and checks"): a
 * probe worker with a vote sink publishes, in its own region's CloudWatch, each decided
 * target's vote (1 up, 0 down) of the profiles with static failover — at once on a change and
 * once a minute for every decided target, stamped with the minute, nothing while undecided,
 * at most 1,000 metrics a request — and a CloudWatch outage neither breaks a round nor stops
 * the votes once it is over. Against the local CloudWatch through the production client; the
 * alarms the plan defines follow the votes.
 */
import { PutMetricAlarmCommand, type MetricDatum } from '@aws-sdk/client-cloudwatch';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cloudWatchVoteSink } from '../../functions/probe/cloudwatch-vote-sink.js';
import { createProbeWorker } from '../../functions/probe/worker.js';
import { cloudWatchClient } from '../../functions/shared/aws-clients.js';
import { startLocalCloudWatch, type LocalCloudWatch } from '../../infra/local/cloudwatch/index.js';
import { planProbes } from '../../shared/probe/plan.js';
import type { Profile } from '../../shared/profile/types.js';
import { planStaticFailover } from '../../shared/static-failover/plan.js';
import { targetIdOf } from '../../shared/static-failover/identity.js';
import { STATIC_FAILOVER_NAMESPACE } from '../../shared/static-failover/types.js';
import { voteTargetsOf } from '../../shared/static-failover/votes.js';
import { AwsCallRecorder } from '../support/iam/recorder.js';
import { MemoryProbeStateStore } from '../support/memory-probe-state-store.js';
import {
  external,
  fakeClock,
  monitor,
  noSleep,
  profile as buildProfile,
  scriptedProber,
} from './worker.fixtures.js';

const REGION = 'eu-west-1';
const REGIONS = ['eu-west-1', 'us-east-1'];
const DEPLOYMENT = 'tm-test';
const ROUND = 10_000;
const MINUTE = 60_000;
/** The start of a minute. */
const T0 = 1_800_000_000_000;
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

let cloudWatch: LocalCloudWatch;
const clock = fakeClock(T0);

beforeAll(async () => {
  cloudWatch = await startLocalCloudWatch({ clock, evaluateOnTimer: false });
});
afterAll(async () => {
  await cloudWatch.stop();
});
beforeEach(() => {
  clock.set(T0);
  for (const region of cloudWatch.regionsDown()) cloudWatch.setRegionDown(region, false);
});

function endpoints(prefix: string, count: number) {
  return Array.from({ length: count }, (_, i) =>
    external(`${prefix}${i}`, `${prefix}${i}.example.net`, { priority: i + 1 }),
  );
}

/** A worker of REGION voting for `profiles`, its CloudWatch calls recorded. */
function setup(profiles: readonly Profile[]) {
  const recorder = new AwsCallRecorder();
  const client = cloudWatchClient({ endpoint: cloudWatch.endpoint, region: REGION, credentials });
  recorder.attach(client, 'cloudWatch', 'probe');
  const scripted = scriptedProber(clock);
  const warnings: string[] = [];
  const worker = createProbeWorker({
    region: REGION,
    store: new MemoryProbeStateStore(),
    prober: scripted.prober,
    clock,
    sleep: noSleep,
    votes: cloudWatchVoteSink(client),
    logger: { warn: (message) => warnings.push(message) },
  });
  const probes = planProbes(profiles, REGION, REGIONS);
  worker.setTargets(probes);
  /** Makes an endpoint's probe time out from now on. */
  const down = (name: string) => scripted.down.add(probes.find((p) => p.host === `${name}.example.net`)!.key);
  const targets = voteTargetsOf(profiles, { deployment: DEPLOYMENT, defaultProbeRegions: REGIONS }, REGION);
  worker.setVoteTargets(targets);
  /** The PutMetricData requests sent since the last call. */
  let seen = 0;
  const requests = () => {
    const puts = recorder.calls.filter((c) => c.operation === 'PutMetricData').slice(seen);
    seen += puts.length;
    return puts.map((c) => ({
      namespace: c.input.Namespace as string,
      data: c.input.MetricData as MetricDatum[],
      region: c.region,
    }));
  };
  const round = async () => {
    const report = await worker.runRound(clock.now(), ROUND);
    clock.advance(ROUND);
    return report;
  };
  return { worker, down, requests, round, targets, warnings, client };
}

/** A profile probed every 10 s that tolerates 2 failures (the third decides down). */
function profile(name: string, overrides: Partial<Profile> = {}): Profile {
  return buildProfile(name, {
    monitorConfig: monitor({ intervalInSeconds: 10, toleratedNumberOfFailures: 2 }),
    ...overrides,
  });
}

/** `{ target id: value }` of the votes in `data`. */
function votesOf(data: readonly MetricDatum[]): Record<string, number> {
  return Object.fromEntries(
    data.map((d) => [d.Dimensions?.find((x) => x.Name === 'Target')?.Value ?? '?', d.Value ?? NaN]),
  );
}

const shop = profile('shop', { endpoints: endpoints('shop', 2) });
const off = { ...profile('off', { endpoints: endpoints('off', 1) }), staticFailover: false };

describe('probe votes', () => {
  it('publishes the votes of decided targets of static-failover profiles only, with the plan’s metric', async () => {
    const { down, requests, round, targets } = setup([shop, off]);
    down('shop1');

    const report = await round();

    const sent = requests();
    expect(sent).toHaveLength(1);
    const [request] = sent;
    expect(request?.region).toBe(REGION);
    expect(request?.namespace).toBe(STATIC_FAILOVER_NAMESPACE);
    // shop0 is up; shop1 has failed once (undecided); `off` has static failover off.
    const up = [...targets.entries()].find(([key]) => key.includes('shop0.'))!;
    expect(votesOf(request!.data)).toEqual({ [up[1].targetId]: 1 });
    // The plan's metric, dimensions in the plan's order, stamped with the minute.
    const structure = planStaticFailover([shop], { deployment: DEPLOYMENT, defaultProbeRegions: REGIONS });
    const planned = structure.metrics.find(
      (m) => m.region === REGION && m.dimensions.some((d) => d.value === up[1].targetId),
    )!;
    expect(request!.data[0]).toMatchObject({
      MetricName: planned.metricName,
      Dimensions: planned.dimensions.map((d) => ({ Name: d.name, Value: d.value })),
      Timestamp: new Date(T0),
      StorageResolution: 60,
    });
    expect(up[1].targetId).toBe(targetIdOf(up[0]));
    expect(targets.size).toBe(2);
    expect(report.votes).toBe(1);
  });

  it('publishes a change at once, nothing more within the minute, and every decided vote the next minute', async () => {
    const { down, requests, round, targets } = setup([shop]);
    down('shop1');
    const idOf = (name: string) =>
      [...targets.entries()].find(([key]) => key.includes(`${name}.`))![1].targetId;

    await round(); // T0: shop0 decides up
    expect(requests().map((r) => votesOf(r.data))).toEqual([{ [idOf('shop0')]: 1 }]);
    await round(); // T0 + 10 s: shop1 failed twice, still undecided (2 failures tolerated)
    expect(requests()).toEqual([]);
    await round(); // T0 + 20 s: shop1's third failure decides it down: published at once
    expect(requests().map((r) => votesOf(r.data))).toEqual([{ [idOf('shop1')]: 0 }]);
    await round(); // T0 + 30 s
    await round(); // T0 + 40 s
    await round(); // T0 + 50 s
    expect(requests()).toEqual([]);

    await round(); // T0 + 60 s: a new minute: every decided vote, stamped with it
    const next = requests();
    expect(next.map((r) => votesOf(r.data))).toEqual([{ [idOf('shop0')]: 1, [idOf('shop1')]: 0 }]);
    expect(next[0]!.data.every((d) => d.Timestamp?.getTime() === T0 + MINUTE)).toBe(true);
  });

  it('the plan’s alarms follow the votes: ALARM for a down vote, OK for an up one', async () => {
    const { down, round, targets, client } = setup([shop]);
    down('shop1');
    const structure = planStaticFailover([shop], { deployment: DEPLOYMENT, defaultProbeRegions: REGIONS });
    for (const alarm of structure.alarms.filter((a) => a.region === REGION))
      await client.send(
        new PutMetricAlarmCommand({
          AlarmName: alarm.name,
          Namespace: alarm.namespace,
          MetricName: alarm.metricName,
          Dimensions: alarm.dimensions.map((d) => ({ Name: d.name, Value: d.value })),
          Statistic: alarm.statistic,
          Period: alarm.periodSeconds,
          EvaluationPeriods: alarm.evaluationPeriods,
          DatapointsToAlarm: alarm.datapointsToAlarm,
          Threshold: alarm.threshold,
          ComparisonOperator: alarm.comparisonOperator,
          TreatMissingData: alarm.treatMissingData,
        }),
      );
    for (let i = 0; i < 6; i++) await round();
    cloudWatch.evaluate(T0 + MINUTE);
    const alarmOf = (name: string) =>
      `${DEPLOYMENT}-vote-${[...targets.entries()].find(([key]) => key.includes(`${name}.`))![1].targetId}`;
    expect(cloudWatch.stateOf(REGION, alarmOf('shop0'))).toBe('OK');
    expect(cloudWatch.stateOf(REGION, alarmOf('shop1'))).toBe('ALARM');
  });

  it('sends at most 1,000 metrics a request', async () => {
    const profiles = Array.from({ length: 8 }, (_, p) =>
      profile(`many${p}`, { endpoints: endpoints(`m${p}x`, 150) }),
    );
    const { requests, round } = setup(profiles);

    const report = await round();

    const sizes = requests().map((r) => r.data.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(1_200);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1_000);
    expect(report.votes).toBe(1_200);
  });

  it('a CloudWatch outage does not break the round; the votes go out once it is over', async () => {
    const { down, requests, round, targets, warnings } = setup([shop]);
    cloudWatch.setRegionDown(REGION, true);

    const during = await round();

    expect(during).toMatchObject({ restoreFailed: false, probed: 2, votes: 0 });
    expect(warnings.some((w) => w.includes('publishing votes failed'))).toBe(true);
    requests(); // the refused attempts
    // Still down while shop1 goes down: the change waits too.
    down('shop1');
    for (let i = 0; i < 3; i++) expect((await round()).probed).toBe(2);
    requests();

    cloudWatch.setRegionDown(REGION, false);
    const after = await round();

    const idOf = (name: string) =>
      [...targets.entries()].find(([key]) => key.includes(`${name}.`))![1].targetId;
    expect(after.votes).toBe(2);
    expect(requests().map((r) => votesOf(r.data))).toEqual([{ [idOf('shop0')]: 1, [idOf('shop1')]: 0 }]);
  });
});
