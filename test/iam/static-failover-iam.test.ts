/**
 * Static failover's grants, proven with the IAM policy simulator against the roles `cdk synth`
 * produces (docs/deploy.md, "Static failover"): a probe region's vote publishing — recorded from
 * a real worker publishing to the local CloudWatch through the production client — is allowed,
 * and denied in another namespace or another region; the evaluator's alarm and health-check
 * calls are allowed for the deployment's alarm names and denied for another alarm name or
 * namespace.
 */
import {
  DeleteAlarmsCommand,
  DescribeAlarmsCommand,
  PutMetricAlarmCommand,
  PutMetricDataCommand,
} from '@aws-sdk/client-cloudwatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudWatchVoteSink } from '../../functions/probe/cloudwatch-vote-sink.js';
import { createProbeWorker } from '../../functions/probe/worker.js';
import { cloudWatchClient } from '../../functions/shared/aws-clients.js';
import { startLocalCloudWatch, type LocalCloudWatch } from '../../infra/local/cloudwatch/index.js';
import { planProbes } from '../../shared/probe/plan.js';
import { fastNameOf, guardAlarmNameOf } from '../../shared/static-failover/identity.js';
import { planStaticFailover } from '../../shared/static-failover/plan.js';
import { EVALUATOR_METRIC, STATIC_FAILOVER_NAMESPACE } from '../../shared/static-failover/types.js';
import { voteTargetsOf } from '../../shared/static-failover/votes.js';
import { AwsCallRecorder, type RecordedCall } from '../support/iam/recorder.js';
import { requestsOf, type IamRequest } from '../support/iam/requests.js';
import { synthesizeRoles, TEST_ACCOUNT, verdicts, type SynthesizedRoles } from '../support/iam/simulate.js';
import { MemoryProbeStateStore } from '../support/memory-probe-state-store.js';
import { externalEndpoint, monitorConfig, profile, TEST_HOSTED_ZONE_ID } from '../support/profiles.js';

const HOME = 'us-east-1';
const REGIONS = ['us-east-1', 'eu-west-1'];
const DEPLOYMENT = 'traffic-manager';
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const setting = { account: TEST_ACCOUNT, tableNames: {} };
const profiles = [
  profile({
    name: 'shop',
    monitorConfig: monitorConfig({ intervalInSeconds: 10 }),
    endpoints: [
      externalEndpoint({ name: 'east', target: 'east.example.net', priority: 1 }),
      externalEndpoint({ name: 'west', target: 'west.example.net', priority: 2 }),
    ],
  }),
];

let cloudWatch: LocalCloudWatch;
let roles: SynthesizedRoles;
beforeAll(async () => {
  cloudWatch = await startLocalCloudWatch({ evaluateOnTimer: false });
  roles = synthesizeRoles(profiles, { homeRegion: HOME, probeRegions: REGIONS });
});
afterAll(async () => {
  await cloudWatch.stop();
});

const requestsFrom = (calls: readonly RecordedCall[]) => calls.flatMap((call) => requestsOf(call, setting));
const verdictsOf = async (requests: readonly IamRequest[]) => [
  ...new Set((await verdicts(roles, requests)).map((line) => line.split('  ')[0])),
];
const HEALTH_CHECK_ID = 'abcdef01-2345-6789-abcd-ef0123456789';
/** A Route 53 health-check call as the evaluator makes it. */
const healthCheck = (operation: string, input: Record<string, unknown>): RecordedCall => ({
  principal: 'evaluator',
  service: 'route53',
  operation,
  input,
  region: 'us-east-1',
});
/** The same request with other context values (described so a failure names it). */
function altered(request: IamRequest, changes: Partial<IamRequest>): IamRequest {
  const next = { ...request, ...changes };
  return {
    ...next,
    describe: `${next.principal} ${next.action} ${next.resource} ${JSON.stringify(next.context)}`,
  };
}

describe('IAM: a probe region’s votes', () => {
  let votes: IamRequest[] = [];
  beforeAll(async () => {
    const region = 'eu-west-1';
    const recorder = new AwsCallRecorder();
    const client = cloudWatchClient({ endpoint: cloudWatch.endpoint, region, credentials });
    recorder.attach(client, 'cloudWatch', `probe:${region}`);
    const worker = createProbeWorker({
      region,
      store: new MemoryProbeStateStore(),
      prober: async (_request, timeoutMs) => ({
        answered: true,
        startedAt: Date.now(),
        durationMs: 1,
        timeoutMs,
        timings: {},
        latencyMs: 1,
        statusCode: 200,
      }),
      clock: { now: () => Date.now() },
      sleep: async () => undefined,
      votes: cloudWatchVoteSink(client),
      logger: { warn: () => undefined },
    });
    worker.setTargets(planProbes(profiles, region, REGIONS));
    worker.setVoteTargets(
      voteTargetsOf(profiles, { deployment: DEPLOYMENT, defaultProbeRegions: REGIONS }, region),
    );
    await worker.runRound(Math.floor(Date.now() / 10_000) * 10_000, 10_000);
    votes = requestsFrom(recorder.calls);
  });

  it('every PutMetricData it made is allowed by the probe role of its region', async () => {
    expect(votes.map((r) => r.action)).toContain('cloudwatch:PutMetricData');
    expect(await verdictsOf(votes)).toEqual(['Allowed']);
  });

  it('another namespace, or another region’s CloudWatch, is denied', async () => {
    const [vote] = votes;
    const denied = [
      altered(vote!, { context: { ...vote!.context, 'cloudwatch:namespace': 'TrafficManager' } }),
      altered(vote!, { context: { ...vote!.context, 'aws:RequestedRegion': 'us-east-1' } }),
    ];
    expect(await verdicts(roles, denied)).toEqual(denied.map((r) => `ImplicitlyDenied  ${r.describe}`));
  });
});

describe('IAM: the evaluator’s structure', () => {
  const structure = planStaticFailover(profiles, { deployment: DEPLOYMENT, defaultProbeRegions: REGIONS });
  let calls: RecordedCall[] = [];
  beforeAll(async () => {
    const recorder = new AwsCallRecorder();
    for (const region of REGIONS) {
      const client = cloudWatchClient({ endpoint: cloudWatch.endpoint, region, credentials });
      recorder.attach(client, 'cloudWatch', 'evaluator');
      const alarms = structure.alarms.filter((alarm) => alarm.region === region);
      for (const alarm of alarms)
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
      await client.send(new DescribeAlarmsCommand({ AlarmNames: alarms.map((a) => a.name) }));
      await client.send(
        new PutMetricDataCommand({
          Namespace: STATIC_FAILOVER_NAMESPACE,
          MetricData: [
            {
              MetricName: EVALUATOR_METRIC,
              Dimensions: [{ Name: 'Deployment', Value: DEPLOYMENT }],
              Value: 1,
            },
          ],
        }),
      );
      await client.send(new DeleteAlarmsCommand({ AlarmNames: alarms.map((a) => a.name) }));
    }
    // The health-check calls the evaluator makes (functions/evaluator/health-check-gateway.ts).
    calls = [
      ...recorder.calls,
      healthCheck('CreateHealthCheck', { CallerReference: 'tm-r-0123456789abcdef#1' }),
      healthCheck('ListHealthChecks', {}),
      healthCheck('UpdateHealthCheck', { HealthCheckId: HEALTH_CHECK_ID }),
      healthCheck('DeleteHealthCheck', { HealthCheckId: HEALTH_CHECK_ID }),
    ];
  });

  it('its alarm, heartbeat and health-check calls are allowed', async () => {
    const requests = requestsFrom(calls);
    expect(new Set(requests.map((r) => r.action))).toEqual(
      new Set([
        'cloudwatch:PutMetricAlarm',
        'cloudwatch:DescribeAlarms',
        'cloudwatch:PutMetricData',
        'cloudwatch:DeleteAlarms',
        'route53:CreateHealthCheck',
        'route53:ListHealthChecks',
        'route53:UpdateHealthCheck',
        'route53:DeleteHealthCheck',
      ]),
    );
    expect(await verdictsOf(requests)).toEqual(['Allowed']);
  });

  it('a health-check operation it never calls (a read, its status, its tags) is denied', async () => {
    const unused = requestsFrom([
      healthCheck('GetHealthCheck', { HealthCheckId: HEALTH_CHECK_ID }),
      healthCheck('GetHealthCheckStatus', { HealthCheckId: HEALTH_CHECK_ID }),
      healthCheck('ListTagsForResource', { ResourceType: 'healthcheck', ResourceId: HEALTH_CHECK_ID }),
      healthCheck('ChangeTagsForResource', { ResourceType: 'healthcheck', ResourceId: HEALTH_CHECK_ID }),
    ]);
    expect(unused).toHaveLength(4);
    expect(await verdicts(roles, unused)).toEqual(unused.map((r) => `ImplicitlyDenied  ${r.describe}`));
  });

  it('an alarm outside the deployment’s names, another namespace or a region with no probes is denied', async () => {
    const requests = requestsFrom(calls);
    const put = requests.find((r) => r.action === 'cloudwatch:PutMetricAlarm')!;
    const metric = requests.find((r) => r.action === 'cloudwatch:PutMetricData')!;
    const alarmIn = (region: string, name: string) =>
      `arn:aws:cloudwatch:${region}:${TEST_ACCOUNT}:alarm:${name}`;
    const denied = [
      altered(put, { resource: alarmIn('eu-west-1', 'billing-alarm') }),
      altered(put, { resource: alarmIn('eu-west-1', 'other-deployment-vote-t-0123456789abcdef') }),
      altered(put, { resource: alarmIn('ap-south-1', guardAlarmNameOf(DEPLOYMENT)) }),
      altered(
        requests.find((r) => r.action === 'cloudwatch:DeleteAlarms')!,
        { resource: alarmIn('us-east-1', 'TrafficManagerProbeRoundsLate') },
      ),
      altered(metric, { context: { ...metric.context, 'cloudwatch:namespace': 'AWS/Lambda' } }),
      altered(metric, { context: { ...metric.context, 'aws:RequestedRegion': 'ap-south-1' } }),
    ];
    expect(await verdicts(roles, denied)).toEqual(denied.map((r) => `ImplicitlyDenied  ${r.describe}`));
  });
});

describe('IAM: the evaluator’s static-failover records', () => {
  const structure = planStaticFailover(profiles, { deployment: DEPLOYMENT, defaultProbeRegions: REGIONS });
  const change = (names: readonly string[]): RecordedCall => ({
    principal: 'evaluator',
    service: 'route53',
    operation: 'ChangeResourceRecordSets',
    input: {
      HostedZoneId: TEST_HOSTED_ZONE_ID,
      ChangeBatch: {
        Changes: names.map((name) => ({
          Action: 'UPSERT',
          ResourceRecordSet: { Name: `${name}.`, Type: 'CNAME' },
        })),
      },
    },
    region: 'us-east-1',
  });

  it('one change of the profile’s name, its _fast name and every name of its _static structure is allowed', async () => {
    const names = [...new Set([fastNameOf('shop.example.com'), ...structure.records.map((r) => r.name)])];
    expect(names).toEqual(
      expect.arrayContaining(['shop.example.com', '_fast.shop.example.com', '_static.shop.example.com']),
    );

    expect(await verdictsOf(requestsOf(change(names), setting))).toEqual(['Allowed']);
  });

  it('a _fast or _static name of a name no profile owns is denied', async () => {
    for (const name of [
      '_fast.other.example.com',
      '_static.other.example.com',
      '_x._static.shop.example.com',
    ])
      expect(await verdictsOf(requestsOf(change([name]), setting))).toEqual(['ImplicitlyDenied']);
  });
});
