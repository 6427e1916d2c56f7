/**
 * Evaluates recorded AWS calls against the synthesized role policies with an IAM policy
 * simulator (`@cloud-copilot/iam-simulate`, AGPL-3.0: a devDependency used by tests only).
 * The CDK app is synthesized for the test's profiles; CloudFormation intrinsics in the
 * policies are resolved to a test account and the stacks' regions.
 */
import { runSimulation } from '@cloud-copilot/iam-simulate';
import type { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { TrafficManager } from '../../../infra/cdk/traffic-manager.js';
import type { Profile } from '../../../shared/profile/types.js';
import { testApp } from '../../cdk/support.js';
import type { IamRequest } from './requests.js';

export const TEST_ACCOUNT = '123456789012';

type Json = Record<string, unknown>;
type Resources = Record<string, { Type: string; Properties?: Json }>;

/** Functions by the start of their description → the principal names the recorder uses. */
const PRINCIPALS = {
  'traffic-manager: evaluates': 'evaluator',
  'traffic-manager: applies staleness': 'evaluatorTick',
  'traffic-manager: writes the deployed profile': 'configWriter',
  'traffic-manager: one probe round': 'probe',
  'traffic-manager: enqueues': 'probeTick',
} as const;

export interface SynthesizedRoles {
  /** principal (`evaluator`, `probe:eu-west-1`, …) → its identity policy documents. */
  readonly policies: ReadonlyMap<string, readonly unknown[]>;
  /** The cloud assembly directory and the home stack's template (the definitions asset). */
  readonly assemblyDir: string;
  readonly homeTemplate: { Resources: Record<string, unknown> };
}

export function synthesizeRoles(
  profiles: readonly Profile[],
  options: { homeRegion: string; probeRegions: readonly string[] },
): SynthesizedRoles {
  const app: App = testApp({ nag: false });
  const tm = new TrafficManager(app, 'TrafficManager', {
    profiles: [...profiles],
    homeRegion: options.homeRegion,
    probeRegions: [...options.probeRegions],
  });
  const assemblyDir = app.synth().directory;
  const policies = new Map<string, unknown[]>();
  const stacks = [
    { stack: tm.home, suffix: '' },
    ...[...tm.probes].map(([region, stack]) => ({ stack, suffix: `:${region}` })),
  ];
  for (const { stack, suffix } of stacks) {
    const resources = Template.fromStack(stack).toJSON().Resources as Resources;
    const resolve = resolver(resources, stack.region);
    for (const fn of Object.values(resources).filter((r) => r.Type === 'AWS::Lambda::Function')) {
      const description = String(fn.Properties?.Description ?? '');
      const entry = Object.entries(PRINCIPALS).find(([prefix]) => description.startsWith(prefix));
      if (entry === undefined) continue;
      const role = (fn.Properties?.Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
      const documents = Object.values(resources)
        .filter((r) => r.Type === 'AWS::IAM::Policy')
        .filter((r) => (r.Properties?.Roles as { Ref: string }[]).some((ref) => ref.Ref === role))
        .map((r) => resolve(r.Properties?.PolicyDocument));
      policies.set(`${entry[1]}${suffix}`, documents);
    }
  }
  return {
    policies,
    assemblyDir,
    homeTemplate: Template.fromStack(tm.home).toJSON() as { Resources: Record<string, unknown> },
  };
}

/** Resolves Ref / Fn::GetAtt / Fn::Join to what they are in TEST_ACCOUNT and the stack's region. */
function resolver(resources: Resources, region: string) {
  const physicalName = (id: string): string => {
    const r = resources[id];
    const p = r?.Properties ?? {};
    switch (r?.Type) {
      case 'AWS::DynamoDB::Table':
        return String(p.TableName);
      case 'AWS::Events::EventBus':
        return String(p.Name);
      case 'AWS::SQS::Queue':
        return String(p.QueueName ?? id);
      default:
        return id;
    }
  };
  const arnOf = (id: string, attribute: string): string => {
    const type = resources[id]?.Type;
    const name = physicalName(id);
    if (type === 'AWS::DynamoDB::Table') {
      const table = `arn:aws:dynamodb:${region}:${TEST_ACCOUNT}:table/${name}`;
      return attribute === 'StreamArn' ? `${table}/stream/2026-01-01T00:00:00.000` : table;
    }
    if (type === 'AWS::Events::EventBus') return `arn:aws:events:${region}:${TEST_ACCOUNT}:event-bus/${name}`;
    if (type === 'AWS::SQS::Queue') return `arn:aws:sqs:${region}:${TEST_ACCOUNT}:${name}`;
    if (type === 'AWS::Lambda::Function') return `arn:aws:lambda:${region}:${TEST_ACCOUNT}:function:${id}`;
    return `arn:aws:unknown:${region}:${TEST_ACCOUNT}:${id}/${attribute}`;
  };
  const pseudo: Record<string, string> = {
    'AWS::Partition': 'aws',
    'AWS::AccountId': TEST_ACCOUNT,
    'AWS::Region': region,
    'AWS::URLSuffix': 'amazonaws.com',
  };
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value === null || typeof value !== 'object') return value;
    const object = value as Json;
    if ('Ref' in object) return pseudo[object.Ref as string] ?? physicalName(object.Ref as string);
    if ('Fn::GetAtt' in object) {
      const [id, attribute] = object['Fn::GetAtt'] as [string, string];
      return arnOf(id, attribute);
    }
    if ('Fn::Sub' in object && typeof object['Fn::Sub'] === 'string') {
      return object['Fn::Sub'].replace(
        /\$\{([^}]+)\}/g,
        (_, name: string) => pseudo[name] ?? physicalName(name),
      );
    }
    if ('Fn::Join' in object) {
      const [separator, parts] = object['Fn::Join'] as [string, unknown[]];
      return parts.map(resolve).join(separator);
    }
    return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, resolve(v)]));
  };
  return resolve;
}

/**
 * A KMS key is usable only as its key policy allows: the default key policy, which lets the
 * account's IAM policies decide (what a customer-managed key needs, docs/deploy.md).
 */
const DEFAULT_KEY_POLICY = {
  Version: '2012-10-17',
  Statement: [
    {
      Sid: 'Enable IAM User Permissions',
      Effect: 'Allow',
      Principal: { AWS: `arn:aws:iam::${TEST_ACCOUNT}:root` },
      Action: 'kms:*',
      Resource: '*',
    },
  ],
};

/** The simulator's verdict for one request under the principal's synthesized policies. */
export async function simulate(roles: SynthesizedRoles, request: IamRequest): Promise<string> {
  const documents = roles.policies.get(request.principal);
  if (documents === undefined) throw new Error(`no synthesized role for ${request.principal}`);
  const result = await runSimulation(
    {
      request: {
        principal: `arn:aws:iam::${TEST_ACCOUNT}:role/${request.principal.replace(/[^A-Za-z0-9]/g, '-')}`,
        action: request.action,
        resource: { resource: request.resource, accountId: TEST_ACCOUNT },
        contextVariables: { ...request.context },
      },
      identityPolicies: documents.map((policy, i) => ({ name: `policy-${i}`, policy })),
      ...(request.action.startsWith('kms:') ? { resourcePolicy: DEFAULT_KEY_POLICY } : {}),
      serviceControlPolicies: [],
      resourceControlPolicies: [],
    },
    {},
  );
  if (result.resultType === 'error') throw new Error(`${request.describe}: ${result.errors.message}`);
  return result.overallResult;
}

/** Every request's verdict, as `verdict  request` lines (readable in a failed assertion). */
export async function verdicts(roles: SynthesizedRoles, requests: readonly IamRequest[]): Promise<string[]> {
  const lines: string[] = [];
  for (const request of requests) lines.push(`${await simulate(roles, request)}  ${request.describe}`);
  return [...new Set(lines)];
}
