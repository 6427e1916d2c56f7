/**
 * The round handler wires the votes: with `staticFailoverDeployment` (the probe function's
 * `STATIC_FAILOVER_DEPLOYMENT`) it gives the worker the targets of the profiles with static
 * failover in its region, named by the deployment; without it no vote is published. Against
 * the local CloudWatch through the production client.
 */
import type { MetricDatum } from '@aws-sdk/client-cloudwatch';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudWatchVoteSink } from '../../functions/probe/cloudwatch-vote-sink.js';
import { createRoundHandler } from '../../functions/probe/round-handler.js';
import { createProbeWorker } from '../../functions/probe/worker.js';
import { cloudWatchClient } from '../../functions/shared/aws-clients.js';
import { startLocalCloudWatch, type LocalCloudWatch } from '../../infra/local/cloudwatch/index.js';
import { endpointVerdictKey } from '../../shared/probe/target.js';
import type { ExternalEndpoint, Profile } from '../../shared/profile/types.js';
import { targetIdOf } from '../../shared/static-failover/identity.js';
import { AwsCallRecorder } from '../support/iam/recorder.js';
import { MemoryProbeStateStore } from '../support/memory-probe-state-store.js';
import { external, fakeClock, monitor, noSleep, profile, scriptedProber } from './worker.fixtures.js';

const REGION = 'eu-west-1';
const PERIOD = 10_000;
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
let cloudWatch: LocalCloudWatch;

beforeAll(async () => {
  cloudWatch = await startLocalCloudWatch({ evaluateOnTimer: false });
});
afterAll(async () => {
  await cloudWatch.stop();
});

const fast = monitor({ intervalInSeconds: 10, timeoutInSeconds: 5 });
const profiles: Profile[] = [
  profile('shop', { monitorConfig: fast, endpoints: [external('east', 'east.example.net')] }),
  {
    ...profile('cheap', { monitorConfig: fast, endpoints: [external('west', 'west.example.net')] }),
    staticFailover: false,
  } as Profile,
  profile('elsewhere', {
    monitorConfig: fast,
    probeRegions: ['us-east-1'],
    endpoints: [external('far', 'far.example.net')],
  }),
];

async function oneRound(staticFailoverDeployment: string | undefined) {
  const clock = fakeClock(Date.now());
  const recorder = new AwsCallRecorder();
  const client = cloudWatchClient({ endpoint: cloudWatch.endpoint, region: REGION, credentials });
  recorder.attach(client, 'cloudWatch', 'probe');
  const worker = createProbeWorker({
    region: REGION,
    store: new MemoryProbeStateStore(),
    prober: scriptedProber(clock).prober,
    clock,
    sleep: noSleep,
    votes: cloudWatchVoteSink(client),
    logger: { warn: () => undefined },
  });
  const handler = createRoundHandler({
    worker,
    clock,
    loadConfig: async () => ({ profiles, defaultProbeRegions: [REGION, 'us-east-1'] }),
    fallbackProbeRegions: [],
    ...(staticFailoverDeployment === undefined ? {} : { staticFailoverDeployment }),
    logger: { info: () => undefined, warn: () => undefined },
  });
  const dueAt = Math.floor(clock.now() / PERIOD) * PERIOD;
  const event: SQSEvent = {
    Records: [
      {
        messageId: 'm',
        body: JSON.stringify({ dueAt, roundPeriodMs: PERIOD, shards: 1 }),
      } as SQSEvent['Records'][number],
    ],
  };
  await handler(event);
  return recorder.calls
    .filter((c) => c.operation === 'PutMetricData')
    .flatMap((c) => c.input.MetricData as MetricDatum[]);
}

describe('the round handler and votes', () => {
  it('votes for the static-failover profiles probed in its region, under the deployment’s name', async () => {
    const data = await oneRound('prod');

    expect(data).toHaveLength(1);
    const [datum] = data;
    const target = datum?.Dimensions?.find((d) => d.Name === 'Target')?.Value;
    expect(datum?.Dimensions?.find((d) => d.Name === 'Deployment')?.Value).toBe('prod');
    expect(datum?.Value).toBe(1);
    // The one target of `shop` (east): its verdict key's id.
    const [shop] = profiles;
    expect(target).toBe(targetIdOf(endpointVerdictKey(shop!, shop!.endpoints[0] as ExternalEndpoint)));
  });

  it('publishes nothing without a deployment name', async () => {
    expect(await oneRound(undefined)).toEqual([]);
  });
});
