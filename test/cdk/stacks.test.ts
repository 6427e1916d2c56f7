/**
 * The deployed shape (issue 6, STYLE 8 and 11): one TrafficManager with a home region and
 * two probe regions, synthesised once, asserted row by row against what the spec names.
 */
import { Vpc } from 'aws-cdk-lib/aws-ec2';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { TrafficManager } from '../../infra/cdk/traffic-manager.js';
import { OTHER_ZONE_ID, PROFILES, ZONE_ID } from './fixtures/profiles.js';
import {
  actionsOf,
  definitionsProperties,
  iamStatements,
  nagErrors,
  shippedDefinitions,
  testApp,
} from './support.js';

const ALARM_TOPIC = 'arn:aws:sns:us-east-1:123456789012:tm-alarms';
const NOTIFY_TOPIC = 'arn:aws:sns:us-east-1:123456789012:tm-status';

let tm: TrafficManager;
let assemblyDir: string;
let home: Template;
let probe: Template;
let probeNoVpc: Template;

beforeAll(() => {
  const app = testApp();
  tm = new TrafficManager(app, 'TrafficManager', {
    profiles: PROFILES,
    homeRegion: 'us-east-1',
    probeRegions: ['us-east-1', 'eu-west-1'],
    alarmTopicArn: ALARM_TOPIC,
    notificationTopicArn: NOTIFY_TOPIC,
    probeVpcs: {
      'eu-west-1': (scope) =>
        Vpc.fromVpcAttributes(scope, 'Vpc', {
          vpcId: 'vpc-0123456789abcdef0',
          availabilityZones: ['eu-west-1a', 'eu-west-1b'],
          privateSubnetIds: ['subnet-0aaaaaaaaaaaaaaaa', 'subnet-0bbbbbbbbbbbbbbbb'],
        }),
    },
  });
  assemblyDir = app.synth().directory;
  home = Template.fromStack(tm.home);
  probe = Template.fromStack(tm.probes.get('eu-west-1')!);
  probeNoVpc = Template.fromStack(tm.probes.get('us-east-1')!);
});

function functionByDescription(template: Template, prefix: string) {
  const found = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([, r]) =>
    String((r.Properties as { Description?: string }).Description ?? '').startsWith(prefix),
  );
  expect(found, prefix).toHaveLength(1);
  const [logicalId, resource] = found[0]!;
  return { logicalId, properties: resource.Properties as Record<string, unknown> };
}

describe('the stacks', () => {
  it('are one home stack and one probe stack per probe region, each in its region', () => {
    expect(tm.home.region).toBe('us-east-1');
    expect([...tm.probes].map(([region, stack]) => [region, stack.region])).toEqual([
      ['us-east-1', 'us-east-1'],
      ['eu-west-1', 'eu-west-1'],
    ]);
    expect([...tm.probes.values()].every((s) => s.dependencies.includes(tm.home))).toBe(true);
  });

  it.each([
    { name: 'home', stack: () => tm.home },
    { name: 'probe us-east-1', stack: () => tm.probes.get('us-east-1')! },
    { name: 'probe eu-west-1 (in a VPC)', stack: () => tm.probes.get('eu-west-1')! },
  ])('$name passes cdk-nag AwsSolutions (every suppression with a reason)', ({ stack }) => {
    expect(nagErrors(stack())).toEqual([]);
  });
});

describe('the state table', () => {
  it.each([
    {
      name: 'pk/sk string keys',
      props: {
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
      },
    },
    { name: 'on-demand billing', props: { BillingMode: 'PAY_PER_REQUEST' } },
    {
      name: 'a stream with new and old images',
      props: { StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' } },
    },
    {
      name: 'point-in-time recovery',
      props: { PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } },
    },
    {
      name: 'TTL on expiresAt (history)',
      props: { TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true } },
    },
    { name: 'deletion protection', props: { DeletionProtectionEnabled: true } },
    { name: 'a fixed name the probe regions address it by', props: { TableName: 'traffic-manager' } },
  ])('has $name', ({ props }) => {
    home.hasResourceProperties('AWS::DynamoDB::Table', props);
  });

  it('is retained when the stack is deleted', () => {
    home.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });
});

describe('the evaluator stream event source', () => {
  const mapping = () => {
    const found = Object.values(home.findResources('AWS::Lambda::EventSourceMapping'));
    expect(found).toHaveLength(1);
    return found[0]!.Properties as Record<string, unknown>;
  };

  it('admits only CONFIG, VERDICT#, TICK and CONTROL items, so its own writes and heartbeats never trigger it', () => {
    const patterns = (mapping().FilterCriteria as { Filters: { Pattern: string }[] }).Filters.map((f) =>
      JSON.parse(f.Pattern),
    );
    expect(patterns).toEqual([
      { dynamodb: { Keys: { pk: { S: ['CONFIG'] } } } },
      { dynamodb: { Keys: { pk: { S: [{ prefix: 'VERDICT#' }] } } } },
      { dynamodb: { Keys: { pk: { S: ['TICK'] } } } },
      { dynamodb: { Keys: { pk: { S: ['CONTROL'] } } } },
    ]);
  });

  it.each([
    { name: 'reports batch item failures', key: 'FunctionResponseTypes', value: ['ReportBatchItemFailures'] },
    { name: 'bisects a batch on error', key: 'BisectBatchOnFunctionError', value: true },
    { name: 'bounds retries', key: 'MaximumRetryAttempts', value: 5 },
    { name: 'bounds record age (1 h)', key: 'MaximumRecordAgeInSeconds', value: 3600 },
    { name: 'waits at most 2 s to fill a batch', key: 'MaximumBatchingWindowInSeconds', value: 2 },
    { name: 'takes a whole storm in one batch (10,000 records)', key: 'BatchSize', value: 10_000 },
    { name: 'starts at the latest record', key: 'StartingPosition', value: 'LATEST' },
  ])('$name', ({ key, value }) => {
    expect(mapping()[key]).toEqual(value);
  });

  it('sends batches that failed every retry to an SQS on-failure queue', () => {
    const destination = (
      mapping().DestinationConfig as { OnFailure: { Destination: { 'Fn::GetAtt': string[] } } }
    ).OnFailure.Destination['Fn::GetAtt'];
    expect(home.toJSON().Resources[destination[0]!].Type).toBe('AWS::SQS::Queue');
  });
});

describe('schedules', () => {
  it.each([
    {
      name: 'the evaluator tick (staleness) runs every minute',
      template: () => home,
      fn: 'traffic-manager: applies staleness',
    },
    { name: 'the probe tick runs every minute', template: () => probe, fn: 'traffic-manager: enqueues' },
  ])('$name, without retries of a stale minute', ({ template, fn }) => {
    const target = functionByDescription(template(), fn);
    template().hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'rate(1 minute)',
      Target: {
        Arn: { 'Fn::GetAtt': [target.logicalId, 'Arn'] },
        RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 },
      },
    });
  });
});

describe('functions', () => {
  const ours = (template: Template) =>
    Object.values(template.findResources('AWS::Lambda::Function'))
      .map((r) => r.Properties as Record<string, unknown>)
      .filter((p) => String(p.Description ?? '').startsWith('traffic-manager'));

  it.each([
    { name: 'home', template: () => home, count: 3 },
    { name: 'probe', template: () => probe, count: 2 },
  ])(
    '$name functions run nodejs22.x on arm64 with Powertools configured by environment',
    ({ template, count }) => {
      const functions = ours(template());
      expect(functions).toHaveLength(count);
      for (const fn of functions) {
        expect(fn).toMatchObject({
          Runtime: 'nodejs22.x',
          Architectures: ['arm64'],
          Environment: {
            Variables: {
              POWERTOOLS_SERVICE_NAME: 'traffic-manager',
              POWERTOOLS_METRICS_NAMESPACE: 'TrafficManager',
              POWERTOOLS_LOG_LEVEL: 'INFO',
            },
          },
        });
      }
    },
  );

  it.each([
    { name: 'home', template: () => home },
    { name: 'probe', template: () => probe },
  ])('$name log groups keep logs one month', ({ template }) => {
    const groups = Object.values(template().findResources('AWS::Logs::LogGroup'));
    expect(groups.length).toBeGreaterThan(0);
    for (const group of groups) expect(group.Properties).toMatchObject({ RetentionInDays: 30 });
  });

  it('the logLevel prop reaches every function of every stack', () => {
    const app = testApp({ nag: false });
    const debug = new TrafficManager(app, 'Debug', {
      profiles: PROFILES,
      homeRegion: 'us-east-1',
      probeRegions: ['us-east-1', 'eu-west-1'],
      logLevel: 'DEBUG',
    });
    const stacks = [debug.home, ...debug.probes.values()].map((stack) => Template.fromStack(stack));
    const levels = stacks.flatMap((t) =>
      ours(t).map(
        (fn) => (fn.Environment as { Variables: Record<string, string> }).Variables.POWERTOOLS_LOG_LEVEL,
      ),
    );
    expect(levels).toEqual(Array(3 + 2 + 2).fill('DEBUG'));
  });

  it('the evaluator gets the table, bus and default probe regions from its environment, and nothing it does not read', () => {
    const environment = functionByDescription(home, 'traffic-manager: evaluates').properties.Environment;
    expect(environment).toMatchObject({
      Variables: {
        TABLE_NAME: { Ref: expect.stringMatching(/^StateTable/) },
        EVENT_BUS_NAME: { Ref: expect.stringMatching(/^StatusEvents/) },
        PROBE_REGIONS: 'us-east-1,eu-west-1',
      },
    });
    expect((environment as { Variables: object }).Variables).not.toHaveProperty('HOSTED_ZONE_IDS');
  });
});

describe('Route 53 rate: one evaluator at a time, the only caller', () => {
  it('the evaluator function has reserved concurrency 1, so its one in-process limiter holds the account’s 5 requests/s', () => {
    expect(functionByDescription(home, 'traffic-manager: evaluates').properties).toMatchObject({
      ReservedConcurrentExecutions: 1,
    });
  });

  it('reads one batch per stream shard at a time (parallelization factor 1)', () => {
    const [mapping] = Object.values(home.findResources('AWS::Lambda::EventSourceMapping'));
    expect(mapping?.Properties).toMatchObject({ ParallelizationFactor: 1 });
  });

  it('no role but the evaluator function’s may call Route 53', () => {
    const evaluatorRole = (
      functionByDescription(home, 'traffic-manager: evaluates').properties.Role as {
        'Fn::GetAtt': [string, string];
      }
    )['Fn::GetAtt'][0];
    for (const template of [home, probe, probeNoVpc]) {
      for (const [id, policy] of Object.entries(template.findResources('AWS::IAM::Policy'))) {
        const statements = (
          policy.Properties as { PolicyDocument: { Statement: { Action: string | string[] }[] } }
        ).PolicyDocument.Statement;
        const route53 = statements.some((s) => actionsOf(s).some((a) => a.startsWith('route53:')));
        const roles = (policy.Properties as { Roles: { Ref: string }[] }).Roles.map((r) => r.Ref);
        if (route53) expect(roles, id).toEqual([evaluatorRole]);
      }
    }
  });
});

describe('the probe region', () => {
  it('takes one round per message, serially: batch size 1, reserved concurrency 1', () => {
    const fn = functionByDescription(probe, 'traffic-manager: one probe round');
    expect(fn.properties.ReservedConcurrentExecutions).toBe(1);
    probe.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fn.logicalId },
      BatchSize: 1,
      ScalingConfig: { MaximumConcurrency: 2 },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('writes to the home table cross-region, named in its environment', () => {
    expect(
      functionByDescription(probe, 'traffic-manager: one probe round').properties.Environment,
    ).toMatchObject({
      Variables: {
        TABLE_NAME: 'traffic-manager',
        TABLE_REGION: 'us-east-1',
        PROBE_REGION: 'eu-west-1',
        PROBE_REGIONS: 'us-east-1,eu-west-1',
      },
    });
    expect(functionByDescription(probe, 'traffic-manager: enqueues').properties).toMatchObject({
      Handler: 'index.tickHandler',
    });
    expect(functionByDescription(probe, 'traffic-manager: enqueues').properties.Environment).toMatchObject({
      Variables: {
        TABLE_REGION: 'us-east-1',
        PROBE_REGION: 'eu-west-1',
        ROUND_QUEUE_URL: { Ref: expect.stringMatching(/^Rounds/) },
      },
    });
  });

  it('round queue: SSL enforced, a dead-letter queue, visibility not shorter than the probe timeout', () => {
    const fn = functionByDescription(probe, 'traffic-manager: one probe round');
    probe.hasResourceProperties('AWS::SQS::Queue', {
      QueueName: 'traffic-manager-rounds',
      VisibilityTimeout: fn.properties.Timeout,
      RedrivePolicy: { deadLetterTargetArn: Match.anyValue(), maxReceiveCount: 5 },
    });
    const queues = Object.keys(probe.findResources('AWS::SQS::Queue'));
    for (const queue of queues) {
      probe.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: queue }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      });
    }
  });

  it('maxProbeShards: one round queue and one serial probe function per shard, the tick sends to each', () => {
    const app = testApp();
    const sharded = new TrafficManager(app, 'Sharded', {
      profiles: PROFILES,
      homeRegion: 'us-east-1',
      probeRegions: ['us-east-1'],
      maxProbeShards: 3,
    });
    app.synth();
    const template = Template.fromStack(sharded.probes.get('us-east-1')!);
    const shards = Object.values(template.findResources('AWS::Lambda::Function'))
      .map((r) => r.Properties as Record<string, { Variables?: Record<string, unknown> } & unknown>)
      .filter((p) => String(p.Description).startsWith('traffic-manager: one probe round'));
    expect(
      shards.map((p) => [
        p.FunctionName,
        p.ReservedConcurrentExecutions,
        p.Environment?.Variables?.PROBE_SHARD,
      ]),
    ).toEqual([
      ['traffic-manager-probe', 1, '0'],
      ['traffic-manager-probe-1', 1, '1'],
      ['traffic-manager-probe-2', 1, '2'],
    ]);
    for (const name of ['traffic-manager-rounds', 'traffic-manager-rounds-1', 'traffic-manager-rounds-2'])
      template.hasResourceProperties('AWS::SQS::Queue', { QueueName: name });
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 3);
    const tick = functionByDescription(template, 'traffic-manager: enqueues');
    expect(JSON.stringify(tick.properties.Environment)).toMatch(
      /ROUND_QUEUE_URL.*Fn::Join.*Rounds.*Rounds1.*Rounds2/,
    );
    expect(tick.properties.MemorySize).toBe(128);
    expect(() => {
      const bad = testApp();
      new TrafficManager(bad, 'Bad', {
        profiles: PROFILES,
        homeRegion: 'us-east-1',
        probeRegions: ['us-east-1'],
        maxProbeShards: 0,
      });
    }).toThrow(/maxProbeShards must be an integer 1–50, got 0/);
  });

  it('probeMemorySize: the probe functions get it (by default sized from the definitions: 512 MB for these few endpoints) and the tick sizes shards by it', () => {
    const shardMemory = (template: Template) =>
      Object.values(template.findResources('AWS::Lambda::Function'))
        .map((r) => r.Properties as { Description?: string; MemorySize?: number })
        .filter((p) => String(p.Description).startsWith('traffic-manager: one probe round'))
        .map((p) => p.MemorySize);
    const tickMemoryVariable = (template: Template) =>
      (
        functionByDescription(template, 'traffic-manager: enqueues').properties.Environment as {
          Variables?: Record<string, string>;
        }
      ).Variables?.PROBE_MEMORY_MB;
    expect(shardMemory(probe)).toEqual([512]);
    expect(tickMemoryVariable(probe)).toBe('512');
    const app = testApp();
    const larger = new TrafficManager(app, 'Larger', {
      profiles: PROFILES,
      homeRegion: 'us-east-1',
      probeRegions: ['us-east-1'],
      maxProbeShards: 2,
      probeMemorySize: 3538,
    });
    app.synth();
    const template = Template.fromStack(larger.probes.get('us-east-1')!);
    expect(shardMemory(template)).toEqual([3538, 3538]);
    expect(tickMemoryVariable(template)).toBe('3538');
  });

  it('the probe tick gets the CPU to read the config and plan what maxProbeShards carry (2,000 requests a shard) within 10 s: 128 MB up to 10 shards, 576 MB at 50', () => {
    const tickMemory = (maxProbeShards: number) => {
      const app = testApp();
      const stack = new TrafficManager(app, `Shards${maxProbeShards}`, {
        profiles: PROFILES,
        homeRegion: 'us-east-1',
        probeRegions: ['us-east-1'],
        maxProbeShards,
      });
      app.synth();
      const template = Template.fromStack(stack.probes.get('us-east-1')!);
      return functionByDescription(template, 'traffic-manager: enqueues').properties.MemorySize;
    };
    expect(functionByDescription(probe, 'traffic-manager: enqueues').properties.MemorySize).toBe(128);
    expect([10, 25, 50].map(tickMemory)).toEqual([128, 320, 576]);
  });

  it('places the probe function in the VPC given for its region only', () => {
    expect(
      functionByDescription(probe, 'traffic-manager: one probe round').properties.VpcConfig,
    ).toMatchObject({
      SubnetIds: ['subnet-0aaaaaaaaaaaaaaaa', 'subnet-0bbbbbbbbbbbbbbbb'],
    });
    expect(
      functionByDescription(probeNoVpc, 'traffic-manager: one probe round').properties.VpcConfig,
    ).toBeUndefined();
  });
});

describe('least privilege', () => {
  it.each([
    { name: 'home', template: () => home },
    { name: 'probe', template: () => probe },
  ])('$name grants no "*" actions', ({ template }) => {
    const actions = iamStatements(template()).flatMap(actionsOf);
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.filter((a) => a === '*' || a.endsWith(':*'))).toEqual([]);
  });

  it.each([
    {
      name: 'example.com profiles',
      zone: ZONE_ID,
      // With static failover (on by default) each profile's `_fast` and `_static` names too.
      names: ['api.example.com', 'office.example.com', 'shop.example.com']
        .flatMap((n) => [`_fast.${n}`, `_static.${n}`, n])
        .sort(),
    },
    {
      name: 'example.org profiles',
      zone: OTHER_ZONE_ID,
      names: ['_fast.status.example.org', '_static.status.example.org', 'status.example.org'],
    },
  ])(
    'ChangeResourceRecordSets only in the hosted zone of the $name, only on their normalized record names',
    ({ zone, names }) => {
      const statements = iamStatements(home).filter((s) =>
        actionsOf(s).includes('route53:ChangeResourceRecordSets'),
      );
      const forZone = statements.filter((s) =>
        JSON.stringify(s.Resource).includes(`:route53:::hostedzone/${zone}`),
      );
      // Only the evaluator holds the grant; the tick never publishes.
      expect(forZone).toHaveLength(1);
      for (const statement of forZone) {
        expect(actionsOf(statement)).toEqual(['route53:ChangeResourceRecordSets']);
        expect(statement.Condition).toEqual({
          'ForAllValues:StringEquals': { 'route53:ChangeResourceRecordSetsNormalizedRecordNames': names },
        });
      }
      expect(statements.every((s) => s.Condition !== undefined)).toBe(true);
    },
  );

  it.each([
    {
      name: 'ListResourceRecordSets only on the profiles’ zones',
      action: 'route53:ListResourceRecordSets',
      resource: `hostedzone/${ZONE_ID}`,
    },
    {
      name: 'GetHostedZone only on the profiles’ zones',
      action: 'route53:GetHostedZone',
      resource: `hostedzone/${ZONE_ID}`,
    },
    { name: 'GetChange on change ids', action: 'route53:GetChange', resource: ':route53:::change/*' },
    {
      name: 'change CIDR collections (a Subnet profile exists)',
      action: 'route53:ChangeCidrCollection',
      resource: ':route53:::cidrcollection/*',
    },
    {
      name: 'create CIDR collections (no resource type: "*")',
      action: 'route53:CreateCidrCollection',
      resource: '"*"',
    },
    { name: 'PutEvents on the status bus', action: 'events:PutEvents', resource: 'StatusEvents' },
  ])('the evaluator may $name', ({ action, resource }) => {
    const statement = iamStatements(home).find((s) => actionsOf(s).includes(action));
    expect(JSON.stringify(statement?.Resource)).toContain(resource);
  });

  const dynamoStatements = (template: Template) =>
    iamStatements(template).filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));
  const roleStatements = (template: Template, description: string) => {
    const role = (functionByDescription(template, description).properties.Role as { 'Fn::GetAtt': [string] })[
      'Fn::GetAtt'
    ][0];
    return Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => (p.Properties as { Roles: { Ref: string }[] }).Roles.some((r) => r.Ref === role))
      .flatMap(
        (p) => (p.Properties as { PolicyDocument: { Statement: Statement[] } }).PolicyDocument.Statement,
      );
  };
  type Statement = ReturnType<typeof iamStatements>[number];
  const leadingKeys = (statements: Statement[], action: string) =>
    statements
      .filter((s) => actionsOf(s).includes(action))
      .map(
        (s) =>
          (s.Condition as Record<string, Record<string, string[]>>)['ForAllValues:StringLike']?.[
            'dynamodb:LeadingKeys'
          ],
      );

  it.each([
    { name: 'home', template: () => home },
    { name: 'probe (VPC)', template: () => probe },
    { name: 'probe', template: () => probeNoVpc },
  ])('$name: every DynamoDB item action is conditioned on dynamodb:LeadingKeys', ({ template }) => {
    const items = dynamoStatements(template()).filter((s) =>
      actionsOf(s).some((a) => /Item|Query|Scan/.test(a)),
    );
    expect(items.length).toBeGreaterThan(0);
    for (const statement of items) {
      expect(JSON.stringify(statement.Condition ?? {}), JSON.stringify(statement)).toContain(
        'dynamodb:LeadingKeys',
      );
      expect(actionsOf(statement)).not.toContain('dynamodb:Scan');
    }
  });

  it.each([
    {
      name: 'the probe function in eu-west-1 writes only its own verdicts and heartbeat',
      template: () => probe,
      fn: 'traffic-manager: one probe round',
      writes: ['VERDICT#eu-west-1#*', 'REGION#eu-west-1'],
      reads: [
        'CONFIG',
        'CONTROL',
        'REVISION#CONFIG',
        'REVISION#CONTROL',
        'VERDICT#eu-west-1#*',
        'REGION#eu-west-1',
      ],
    },
    {
      name: 'the probe function in us-east-1 writes only its own verdicts and heartbeat',
      template: () => probeNoVpc,
      fn: 'traffic-manager: one probe round',
      writes: ['VERDICT#us-east-1#*', 'REGION#us-east-1'],
      reads: [
        'CONFIG',
        'CONTROL',
        'REVISION#CONFIG',
        'REVISION#CONTROL',
        'VERDICT#us-east-1#*',
        'REGION#us-east-1',
      ],
    },
    {
      name: 'the probe tick only reads the config and the runtime controls (and their revision counters), and its own region’s shard capacities',
      template: () => probe,
      fn: 'traffic-manager: enqueues',
      writes: undefined,
      reads: ['CONFIG', 'CONTROL', 'REVISION#CONFIG', 'REVISION#CONTROL', 'REGION#eu-west-1'],
    },
    {
      name: 'the evaluator writes statuses, their outbox, history and zone reconciles, reads config, controls, verdicts, heartbeats, statuses and the outbox',
      template: () => home,
      fn: 'traffic-manager: evaluates',
      writes: ['STATUS', 'OUTBOX', 'HISTORY#*', 'ZONE#*', 'STATIC'],
      reads: ['STATIC', 'CONFIG', 'CONTROL', 'VERDICT#*', 'REGION#*', 'STATUS', 'OUTBOX'],
    },
    {
      name: 'the evaluator tick writes only the TICK items (regions, outbox trigger, reconcile request), expired overrides (moving the CONTROL revision) and certificate warnings with their event, and reads the statuses for the health gauges and whether the outbox waits',
      template: () => home,
      fn: 'traffic-manager: applies staleness',
      writes: ['TICK', 'CONTROL', 'REVISION#CONTROL', 'OUTBOX', 'CERTIFICATE'],
      reads: ['CONFIG', 'CONTROL', 'REGION#*', 'TICK', 'STATUS', 'OUTBOX', 'CERTIFICATE', 'STATIC'],
    },
    {
      name: 'the config writer touches CONFIG items only (and moves their revision)',
      template: () => home,
      fn: 'traffic-manager: writes the deployed profile',
      writes: ['CONFIG', 'REVISION#CONFIG'],
      reads: ['CONFIG'],
    },
  ])('$name (dynamodb:LeadingKeys)', ({ template, fn, writes, reads }) => {
    const statements = roleStatements(template(), fn);
    expect(leadingKeys(statements, 'dynamodb:PutItem')).toEqual(writes === undefined ? [] : [writes]);
    expect(leadingKeys(statements, 'dynamodb:Query')).toEqual([reads]);
    for (const action of ['dynamodb:GetItem', 'dynamodb:BatchGetItem'])
      for (const keys of leadingKeys(statements, action)) expect(keys).toEqual(reads);
    const resources = JSON.stringify(
      statements.filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:'))),
    );
    if (template() !== home) {
      expect(resources).toContain(':dynamodb:us-east-1:');
      expect(resources).toContain(':table/traffic-manager');
    }
  });

  it.each([
    { name: 'home', template: () => home },
    { name: 'probe', template: () => probe },
  ])('$name: scheduler roles may be assumed only for this account (aws:SourceAccount)', ({ template }) => {
    const roles = Object.values(template().findResources('AWS::IAM::Role')).filter((r) =>
      JSON.stringify(r.Properties?.AssumeRolePolicyDocument).includes('scheduler.amazonaws.com'),
    );
    expect(roles.length).toBeGreaterThan(0);
    for (const role of roles) {
      expect(role.Properties?.AssumeRolePolicyDocument).toMatchObject({
        Statement: [
          {
            Action: 'sts:AssumeRole',
            Principal: { Service: 'scheduler.amazonaws.com' },
            Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
          },
        ],
      });
    }
  });
});

describe('definitions custom resource', () => {
  it('ships the hosted-zone-bound profiles as an asset, and the default probe regions, to the table', () => {
    const template = home.toJSON() as { Resources: Record<string, unknown> };
    const props = definitionsProperties(template);
    expect(shippedDefinitions(assemblyDir, template)).toEqual(JSON.parse(JSON.stringify(PROFILES)));
    expect(props.DefinitionsHash).toMatch(/^[0-9a-f]{64}$/);
    expect(props.DefinitionsBucket).toEqual({ 'Fn::Sub': expect.stringContaining('cdk-hnb659fds-assets-') });
    expect(props.DefinitionsKey).toBe(`${props.DefinitionsHash}.json`);
    expect(props.DefaultProbeRegions).toBe('us-east-1,eu-west-1');
    expect(props.TableName).toEqual({ Ref: expect.stringMatching(/^StateTable/) });
    expect(JSON.stringify(props)).not.toContain('shop.example.com');
  });

  it("the config writer may read the definitions' object and nothing else of S3", () => {
    const statements = Object.entries(home.findResources('AWS::IAM::Policy'))
      .filter(([id]) => id.includes('ProfilesWriter'))
      .map(([, policy]) => policy)
      .flatMap(
        (p) =>
          (p.Properties as { PolicyDocument: { Statement: { Action: unknown; Resource: unknown }[] } })
            .PolicyDocument.Statement,
      )
      .filter((s) => JSON.stringify(s.Action).includes('s3:'));
    const { DefinitionsHash } = definitionsProperties(
      home.toJSON() as { Resources: Record<string, unknown> },
    );
    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: 's3:GetObject',
        Resource: {
          'Fn::Join': [
            '',
            [
              'arn:',
              { Ref: 'AWS::Partition' },
              ':s3:::',
              { 'Fn::Sub': 'cdk-hnb659fds-assets-${AWS::AccountId}-us-east-1' },
              `/${DefinitionsHash}.json`,
            ],
          ],
        },
      },
    ]);
  });
});

describe('events and alarms', () => {
  it('status events on the bus go to the notification topic', () => {
    home.hasResourceProperties('AWS::Events::Rule', {
      EventBusName: { Ref: Match.anyValue() },
      Targets: [Match.objectLike({ Arn: NOTIFY_TOPIC })],
    });
  });

  it.each([
    {
      name: 'dead-letter queue depth > 0',
      id: 'EvaluatorDeadLetters',
      metric: { MetricName: 'ApproximateNumberOfMessagesVisible' },
    },
    { name: 'evaluator errors > 0', id: 'EvaluatorErrors', metric: { MetricName: 'Errors' } },
    { name: 'evaluator tick errors > 0', id: 'EvaluatorTickErrors', metric: { MetricName: 'Errors' } },
  ])('alarm: $name, notifying the alarm topic', ({ id, metric }) => {
    const [alarm] = Object.entries(home.findResources('AWS::CloudWatch::Alarm')).filter(([key]) =>
      key.includes(id),
    );
    expect(alarm?.[1].Properties).toMatchObject({
      ...metric,
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      AlarmActions: [ALARM_TOPIC],
    });
  });

  it.each([
    {
      name: 'stale probe regions',
      id: 'StaleProbeRegions',
      query: 'SELECT MAX(StaleRegions) FROM TrafficManager',
    },
    {
      name: 'a profile Degraded',
      id: 'ProfileDegraded',
      query: 'SELECT MAX(ProfileDegraded) FROM TrafficManager',
    },
  ])('alarm: $name (a Metrics Insights query over every dimension)', ({ id, query }) => {
    const [alarm] = Object.entries(home.findResources('AWS::CloudWatch::Alarm')).filter(([key]) =>
      key.includes(id),
    );
    expect(alarm?.[1].Properties).toMatchObject({
      Metrics: [expect.objectContaining({ Expression: query })],
      Threshold: 0,
      AlarmActions: [ALARM_TOPIC],
    });
  });

  it('probe regions alarm on dead-lettered rounds, late rounds and probe errors; they notify the topic only in its own region', () => {
    const actions = (template: Template) =>
      Object.values(template.findResources('AWS::CloudWatch::Alarm')).map(
        (a) => (a.Properties as { AlarmActions?: unknown }).AlarmActions,
      );
    expect(actions(probeNoVpc)).toEqual([[ALARM_TOPIC], [ALARM_TOPIC], [ALARM_TOPIC]]);
    expect(actions(probe)).toEqual([undefined, undefined, undefined]);
  });

  it("the dashboard's probe widgets cover every shard's function: Invocations and Errors summed, Duration the slowest", () => {
    const app = testApp();
    const sharded = new TrafficManager(app, 'ShardedDashboard', {
      profiles: PROFILES,
      homeRegion: 'us-east-1',
      probeRegions: ['us-east-1', 'eu-west-1'],
      maxProbeShards: 3,
    });
    app.synth();
    const [dashboard] = Object.values(
      Template.fromStack(sharded.home).findResources('AWS::CloudWatch::Dashboard'),
    );
    const body = JSON.parse(
      (dashboard?.Properties as { DashboardBody: { 'Fn::Join': [string, unknown[]] } }).DashboardBody[
        'Fn::Join'
      ][1]
        .map((part) => (typeof part === 'string' ? part : ''))
        .join(''),
    ) as { widgets: { properties: { title: string; metrics: unknown[][] } }[] };
    const widget = body.widgets.find((w) => w.properties.title === 'probe eu-west-1: rounds');
    const lines = widget?.properties.metrics ?? [];
    const expressions = lines.flatMap((line) => {
      const options = line.at(-1) as { expression?: string; label?: string };
      return options.expression === undefined ? [] : [[options.expression, options.label]];
    });
    expect(expressions).toEqual([
      ['SUM([invocations0, invocations1, invocations2])', 'eu-west-1 Invocations (SUM of 3 shards)'],
      ['SUM([errors0, errors1, errors2])', 'eu-west-1 Errors (SUM of 3 shards)'],
      ['MAX([duration0, duration1, duration2])', 'eu-west-1 Duration (MAX of 3 shards)'],
    ]);
    const functions = lines
      .filter((line) => line.includes('FunctionName'))
      .map((line) => [line[1], line[3], (line.at(-1) as { region?: string }).region]);
    for (const metric of ['Invocations', 'Errors', 'Duration'])
      for (const name of ['traffic-manager-probe', 'traffic-manager-probe-1', 'traffic-manager-probe-2'])
        expect(functions).toContainEqual([metric, name, 'eu-west-1']);
  });

  it('a dashboard shows the home metrics and every probe region', () => {
    const body = JSON.stringify(home.findResources('AWS::CloudWatch::Dashboard'));
    for (const text of ['probe us-east-1', 'probe eu-west-1', 'traffic-manager-probe', 'StaleRegions']) {
      expect(body).toContain(text);
    }
  });
});
