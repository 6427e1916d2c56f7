/**
 * Alarms that tell the truth: every alarm treats a period without data on purpose, the
 * health alarm reads the gauge the tick emits every minute (metric names from the contract
 * module), and the tick is told whether to emit the per-endpoint gauges.
 */
import { Duration } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { TrafficManager } from '../../infra/cdk/traffic-manager.js';
import { EnvironmentVariable as Env } from '../../shared/contracts/environment.js';
import { METRICS_NAMESPACE, MetricName } from '../../shared/contracts/metrics.js';
import { PROFILES } from './fixtures/profiles.js';
import { testApp } from './support.js';

function synth(extra: { endpointMetrics?: boolean; reconcileInterval?: Duration } = {}) {
  const app = testApp({ nag: false });
  const tm = new TrafficManager(app, 'TrafficManager', {
    profiles: PROFILES,
    homeRegion: 'us-east-1',
    probeRegions: ['us-east-1'],
    ...extra,
  });
  app.synth();
  return { home: Template.fromStack(tm.home), probe: Template.fromStack(tm.probes.get('us-east-1')!) };
}

let home: Template;
let probe: Template;
beforeAll(() => {
  ({ home, probe } = synth());
});

function alarm(template: Template, id: string): Record<string, unknown> {
  const found = Object.entries(template.findResources('AWS::CloudWatch::Alarm')).filter(([key]) =>
    key.includes(id),
  );
  expect(found, id).toHaveLength(1);
  return found[0]![1].Properties as Record<string, unknown>;
}

describe('every alarm treats missing data on purpose', () => {
  it.each([
    {
      name: 'ProfileDegraded keeps its state through a gap (the tick emits the gauge every minute)',
      id: 'ProfileDegraded',
      treat: 'ignore',
    },
    {
      name: 'StaleProbeRegions breaches when the tick stops emitting',
      id: 'StaleProbeRegions',
      treat: 'breaching',
    },
    {
      name: 'EvaluatorDeadLetters: no data is an idle, empty queue',
      id: 'EvaluatorDeadLetters',
      treat: 'notBreaching',
    },
    { name: 'EvaluatorErrors: no data is no invocation', id: 'EvaluatorErrors', treat: 'notBreaching' },
    {
      name: 'EvaluatorTickErrors: no data is no invocation',
      id: 'EvaluatorTickErrors',
      treat: 'notBreaching',
    },
    {
      name: 'ChangesRejected: emitted only when Route 53 refuses a change',
      id: 'ChangesRejected',
      treat: 'notBreaching',
    },
    {
      name: 'EventsUndelivered: emitted by every drain; no data is an empty outbox',
      id: 'EventsUndelivered',
      treat: 'notBreaching',
    },
    {
      name: 'DriftRepaired: a minute without a reconcile is not drift',
      id: 'DriftRepaired',
      treat: 'notBreaching',
    },
    {
      name: 'CertificateExpiring keeps its state through a gap (the tick emits the count every minute)',
      id: 'CertificateExpiring',
      treat: 'ignore',
    },
  ])('$name', ({ id, treat }) => {
    expect(alarm(home, id).TreatMissingData).toBe(treat);
  });

  it.each([
    { id: 'RoundDeadLettersAlarm', treat: 'notBreaching' },
    { id: 'ProbeErrorsAlarm', treat: 'notBreaching' },
    { id: 'ProbeRoundsLate', treat: 'notBreaching' },
  ])('probe region: $id is $treat', ({ id, treat }) => {
    expect(alarm(probe, id).TreatMissingData).toBe(treat);
  });

  it('the health alarms query the contract’s metric names over every dimension', () => {
    const expressions = (id: string) =>
      (alarm(home, id).Metrics as { Expression?: string }[]).map((m) => m.Expression);
    expect(expressions('ProfileDegraded')).toEqual([
      `SELECT MAX(${MetricName.profileDegraded}) FROM ${METRICS_NAMESPACE}`,
    ]);
    expect(expressions('ChangesRejected')).toEqual([
      `SELECT SUM(${MetricName.changesRejected}) FROM ${METRICS_NAMESPACE}`,
    ]);
    expect(expressions('EventsUndelivered')).toEqual([
      `SELECT MAX(${MetricName.outboxPending}) FROM ${METRICS_NAMESPACE}`,
    ]);
    expect(alarm(home, 'EventsUndelivered').EvaluationPeriods).toBe(20);
    expect(expressions('DriftRepaired')).toEqual([
      `SELECT SUM(${MetricName.driftRepaired}) FROM ${METRICS_NAMESPACE}`,
    ]);
  });

  it('ProbeRoundsLate: the region’s latest probe starts more than 1 s after its own due time in 3 of 5 minutes (the start-lateness target), over every shard', () => {
    const late = alarm(probe, 'ProbeRoundsLate');
    expect((late.Metrics as { Expression?: string }[]).map((m) => m.Expression)).toEqual([
      `SELECT MAX(${MetricName.probeStartLateness}) FROM ${METRICS_NAMESPACE} WHERE Region = 'us-east-1'`,
    ]);
    expect(late).toMatchObject({
      Threshold: 1_000,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 5,
      DatapointsToAlarm: 3,
    });
  });

  it('CertificateExpiring fires when any endpoint’s certificate is within its profile’s window', () => {
    const certificate = alarm(home, 'CertificateExpiring');
    expect((certificate.Metrics as { Expression?: string }[]).map((m) => m.Expression)).toEqual([
      `SELECT MAX(${MetricName.certificatesExpiring}) FROM ${METRICS_NAMESPACE}`,
    ]);
    expect(certificate).toMatchObject({
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 1,
    });
  });
});

describe('the tick emits the health gauges', () => {
  const tickEnvironment = (template: Template) => {
    const [tick] = Object.values(template.findResources('AWS::Lambda::Function')).filter((f) =>
      String((f.Properties as { Description?: string }).Description).includes('health gauges'),
    );
    return (tick?.Properties as { Environment: { Variables: Record<string, unknown> } }).Environment
      .Variables;
  };

  it.each([
    { name: 'per-endpoint gauges by default', props: {}, value: 'true' },
    {
      name: 'no per-endpoint gauges with endpointMetrics: false',
      props: { endpointMetrics: false },
      value: 'false',
    },
  ])('$name', ({ props, value }) => {
    const template = Object.keys(props).length === 0 ? home : synth(props).home;
    expect(tickEnvironment(template)[Env.endpointMetrics]).toBe(value);
  });
});

describe('reconcileInterval', () => {
  const tickVariables = (template: Template) =>
    (
      Object.values(template.findResources('AWS::Lambda::Function')).find((f) =>
        String((f.Properties as { Description?: string }).Description).includes('requests reconciles'),
      )?.Properties as { Environment: { Variables: Record<string, unknown> } }
    ).Environment.Variables;

  it('reaches the tick in seconds; 5 minutes by default', () => {
    expect(tickVariables(home)[Env.reconcileIntervalSeconds]).toBe('300');
    expect(
      tickVariables(synth({ reconcileInterval: Duration.minutes(15) }).home)[Env.reconcileIntervalSeconds],
    ).toBe('900');
  });

  it.each([
    { name: 'fails when shorter than the tick', interval: Duration.seconds(30), got: '30 seconds' },
    { name: 'fails when not whole minutes', interval: Duration.seconds(90), got: '90 seconds' },
  ])('$name', ({ interval, got }) => {
    expect(() => synth({ reconcileInterval: interval })).toThrow(
      `reconcileInterval: must be a whole number of minutes, at least 1 (the tick that requests reconciles runs every minute), got ${got}`,
    );
  });
});

describe('probe alarms cover every shard', () => {
  it("each shard's round queue dead-letters into the queue RoundDeadLettersAlarm watches, and each shard's function has its ProbeErrorsAlarm", () => {
    const app = testApp({ nag: false });
    const tm = new TrafficManager(app, 'Sharded', {
      profiles: PROFILES,
      homeRegion: 'us-east-1',
      probeRegions: ['us-east-1'],
      maxProbeShards: 3,
    });
    app.synth();
    const template = Template.fromStack(tm.probes.get('us-east-1')!);
    const queues = template.findResources('AWS::SQS::Queue');
    const dlq = Object.keys(queues).find((id) => id.startsWith('RoundDeadLetters'));
    const rounds = Object.entries(queues).filter(([id]) => id.startsWith('Rounds'));
    expect(rounds).toHaveLength(3);
    for (const [, queue] of rounds)
      expect(JSON.stringify(queue.Properties)).toContain(
        `"deadLetterTargetArn":{"Fn::GetAtt":["${dlq}","Arn"]}`,
      );
    expect(JSON.stringify(alarm(template, 'RoundDeadLettersAlarm').Dimensions)).toContain(`"${dlq}"`);

    const functions = template.findResources('AWS::Lambda::Function');
    const shardFunctions = Object.entries(functions)
      .filter(([, r]) =>
        String((r.Properties as { Description?: string }).Description).startsWith(
          'traffic-manager: one probe round',
        ),
      )
      .map(([id]) => id)
      .sort();
    expect(shardFunctions).toHaveLength(3);
    const watched = Object.values(template.findResources('AWS::CloudWatch::Alarm'))
      .filter((r) => (r.Properties as { MetricName?: string }).MetricName === 'Errors')
      .map((r) => JSON.stringify((r.Properties as { Dimensions?: unknown }).Dimensions))
      .map((dimensions) => shardFunctions.find((id) => dimensions.includes(`"${id}"`)))
      .sort();
    expect(watched).toEqual(shardFunctions);
  });
});
