/**
 * Static failover in the CDK app (docs/deploy.md, "Static failover"): the `staticFailover`
 * prop is the deployment's default of each profile's field; while any profile has it on, the
 * probe functions of its regions and the evaluator get `STATIC_FAILOVER_DEPLOYMENT` and their
 * least-privilege grants; and `cdk synth` warns (never fails) past the default quota of 200
 * Route 53 health checks, naming the number.
 */
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { contextOptions } from '../../infra/cdk/context.js';
import { METRICS_NAMESPACE, MetricName } from '../../shared/contracts/metrics.js';
import { TrafficManager, type TrafficManagerProps } from '../../infra/cdk/traffic-manager.js';
import { parseDefinitionsOrThrow } from '../support/parse-definitions.js';
import type { ProfileInput } from '../../shared/profile/schema.js';
import { footprintOf } from '../../shared/static-failover/cost.js';
import { planStaticFailover } from '../../shared/static-failover/plan.js';
import { actionsOf, iamStatements, nagErrors, testApp } from './support.js';

const REGIONS = ['us-east-1', 'eu-west-1'];

function written(name: string, endpoints: number, extra: Partial<ProfileInput> = {}): ProfileInput {
  return {
    name,
    trafficRoutingMethod: 'Priority',
    dnsConfig: { zoneName: 'example.com', hostedZoneId: 'Z123', relativeName: name },
    monitorConfig: { protocol: 'HTTP', path: '/health' },
    endpoints: Array.from({ length: endpoints }, (_, i) => ({
      name: `e${i}`,
      target: `${name}-${i}.example.net`,
      priority: i + 1,
    })),
    ...extra,
  } as ProfileInput;
}

function synth(props: Partial<TrafficManagerProps> & Pick<TrafficManagerProps, 'profiles'>, nag = false) {
  const app = testApp({ nag });
  const tm = new TrafficManager(app, 'Static', { homeRegion: 'us-east-1', probeRegions: REGIONS, ...props });
  app.synth();
  return tm;
}

type Fn = { Description?: string; Environment?: { Variables?: Record<string, unknown> } };
function functionsOf(stack: TrafficManager['home'], prefix: string): Fn[] {
  return Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function'))
    .map((r) => r.Properties as Fn)
    .filter((p) => String(p.Description).startsWith(prefix));
}
const variable = (fn: Fn) => fn.Environment?.Variables?.STATIC_FAILOVER_DEPLOYMENT;

describe('the staticFailover prop', () => {
  it('default true: probe functions and the evaluator carry STATIC_FAILOVER_DEPLOYMENT (the deployment name)', () => {
    const tm = synth({ profiles: [written('shop', 2)], deploymentName: 'prod' });
    for (const region of REGIONS)
      expect(functionsOf(tm.probes.get(region)!, 'traffic-manager: one probe round').map(variable)).toEqual([
        'prod',
      ]);
    expect(functionsOf(tm.home, 'traffic-manager: evaluates').map(variable)).toEqual(['prod']);
    expect(functionsOf(tm.home, 'traffic-manager: applies staleness').map(variable)).toEqual(['prod']);
  });

  it('false: no profile has it, so no variable and no CloudWatch or health-check grant', () => {
    const tm = synth({ profiles: [written('shop', 2)], staticFailover: false });
    expect(
      functionsOf(tm.probes.get('eu-west-1')!, 'traffic-manager: one probe round').map(variable),
    ).toEqual([undefined]);
    expect(functionsOf(tm.home, 'traffic-manager: evaluates').map(variable)).toEqual([undefined]);
    const actions = [tm.home, ...tm.probes.values()].flatMap((stack) =>
      iamStatements(Template.fromStack(stack)).flatMap(actionsOf),
    );
    expect(actions.filter((a) => /^cloudwatch:|HealthCheck/.test(a))).toEqual([]);
  });

  it('false as the default, a profile that sets it true still gets it — in its probe regions only', () => {
    const tm = synth({
      profiles: [
        written('shop', 1, { staticFailover: true, probeRegions: ['eu-west-1'] } as Partial<ProfileInput>),
      ],
      staticFailover: false,
    });
    expect(
      functionsOf(tm.probes.get('eu-west-1')!, 'traffic-manager: one probe round').map(variable),
    ).toEqual(['traffic-manager']);
    expect(
      functionsOf(tm.probes.get('us-east-1')!, 'traffic-manager: one probe round').map(variable),
    ).toEqual([undefined]);
  });
});

describe('the StaticFailoverFrozen alarm', () => {
  const frozenAlarms = (tm: TrafficManager) =>
    Object.entries(Template.fromStack(tm.home).findResources('AWS::CloudWatch::Alarm'))
      .filter(([id]) => id.includes('StaticFailoverFrozen'))
      .map(([, alarm]) => alarm.Properties as Record<string, unknown>);

  it('with static failover: fires when the tick counts a frozen profile 2 minutes running, and keeps its state through a gap', () => {
    const [alarm] = frozenAlarms(synth({ profiles: [written('shop', 2)] }));
    expect((alarm?.Metrics as { Expression?: string }[]).map((m) => m.Expression)).toEqual([
      `SELECT MAX(${MetricName.staticFailoverFrozen}) FROM ${METRICS_NAMESPACE}`,
    ]);
    expect(alarm).toMatchObject({
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 2,
      TreatMissingData: 'ignore',
    });
  });

  it('without static failover: no such alarm', () => {
    expect(frozenAlarms(synth({ profiles: [written('shop', 2)], staticFailover: false }))).toEqual([]);
  });
});

describe('static failover grants', () => {
  it('a probe role may PutMetricData only in the static-failover namespace and its own region', () => {
    const tm = synth({ profiles: [written('shop', 1)] });
    const statements = iamStatements(Template.fromStack(tm.probes.get('eu-west-1')!)).filter((s) =>
      actionsOf(s).includes('cloudwatch:PutMetricData'),
    );
    expect(statements).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Resource: '*',
        Condition: {
          StringEquals: {
            'cloudwatch:namespace': 'TrafficManager/StaticFailover',
            'aws:RequestedRegion': ['eu-west-1'],
          },
        },
      }),
    ]);
  });

  it('the evaluator manages health checks by ARN, only the deployment’s alarms in the probe regions, and publishes in the namespace', () => {
    const tm = synth({ profiles: [written('shop', 1)], deploymentName: 'prod' });
    const statements = iamStatements(Template.fromStack(tm.home));
    const bySid = (sid: string) => statements.find((s) => s.Sid === sid);
    expect(bySid('ManageHealthChecks')?.Resource).toEqual({
      'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':route53:::healthcheck/*']],
    });
    expect(actionsOf(bySid('CreateAndListHealthChecks')!).sort()).toEqual([
      'route53:CreateHealthCheck',
      'route53:ListHealthChecks',
    ]);
    const alarms = JSON.stringify(bySid('ManageStaticFailoverAlarms')?.Resource);
    for (const region of REGIONS) {
      expect(alarms).toContain(`:cloudwatch:${region}:`);
      expect(alarms).toContain(':alarm:prod-vote-t-*');
      expect(alarms).toContain(':alarm:prod-evaluator-publishing');
    }
    expect(bySid('PublishEvaluatorHeartbeat')?.Condition).toEqual({
      StringEquals: {
        'cloudwatch:namespace': 'TrafficManager/StaticFailover',
        'aws:RequestedRegion': REGIONS.toSorted(),
      },
    });
  });

  it('cdk-nag finds nothing unexplained in the home and probe stacks', () => {
    const tm = synth({ profiles: [written('shop', 1)] }, true);
    for (const stack of [tm.home, ...tm.probes.values()]) expect(nagErrors(stack)).toEqual([]);
  });
});

describe('the health-check quota warning', () => {
  const warnings = (tm: TrafficManager) =>
    Annotations.fromStack(tm.home)
      .findWarning('*', Match.stringLikeRegexp('health checks'))
      .map((w) => String(w.entry.data));

  it('warns, naming the number, past 200 health checks — and the synth succeeds', () => {
    const profiles = Array.from({ length: 8 }, (_, i) => written(`big${i}`, 10));
    const tm = synth({ profiles });
    const { healthChecks } = footprintOf(
      planStaticFailover(parseDefinitionsOrThrow(profiles), {
        deployment: 'traffic-manager',
        defaultProbeRegions: REGIONS,
      }),
    );
    expect(healthChecks).toBeGreaterThan(200);
    expect(warnings(tm)).toEqual([
      expect.stringContaining(
        `static failover needs ${healthChecks} Route 53 health checks, more than the account default of 200`,
      ),
    ]);
  });

  it('no warning within 200, nor with static failover off', () => {
    expect(warnings(synth({ profiles: [written('small', 10)] }))).toEqual([]);
    const profiles = Array.from({ length: 8 }, (_, i) => written(`big${i}`, 10));
    expect(warnings(synth({ profiles, staticFailover: false }))).toEqual([]);
  });
});

describe('the CDK app’s context', () => {
  const base: Record<string, unknown> = {
    'traffic-manager:definitions': 'examples/definitions.ts',
    'traffic-manager:homeRegion': 'us-east-1',
    'traffic-manager:probeRegions': 'us-east-1',
  };
  it.each([
    { name: 'unset: the prop’s default', value: undefined, expected: undefined },
    { name: '-c traffic-manager:staticFailover=false', value: 'false', expected: false },
    { name: 'cdk.json true', value: true, expected: true },
  ])('$name', ({ value, expected }) => {
    const options = contextOptions((key) => (key === 'traffic-manager:staticFailover' ? value : base[key]));
    expect(options.staticFailover).toBe(expected);
  });

  it('fails when traffic-manager:staticFailover is not true or false', () => {
    expect(() =>
      contextOptions((key) => (key === 'traffic-manager:staticFailover' ? 'no' : base[key])),
    ).toThrow('context traffic-manager:staticFailover: must be true or false, got "no"');
  });
});
