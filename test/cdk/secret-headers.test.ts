/**
 * Header values by reference in the CDK app: the synthesized templates carry the
 * reference (the config resource's definition, the probe role's grant) and never a value;
 * a probe role may read only the references of the profiles it probes; a credential-like
 * header written inline is a synth warning.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, describe, expect, it } from 'vitest';
import { TrafficManager } from '../../infra/cdk/traffic-manager.js';
import type { Profile } from '../../shared/profile/types.js';
import { profile } from './fixtures/profiles.js';
import { iamStatements, nagErrors } from './support.js';

const SECRET = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:shop/probe-token-AbCdEf';
const PARAMETER = '/shop/api-key';
const INLINE_VALUE = 'Bearer inline-credential-1234';

function withHeaders(
  p: Profile,
  customHeaders: Profile['monitorConfig']['customHeaders'],
  probeRegions?: string[],
): Profile {
  return {
    ...p,
    monitorConfig: { ...p.monitorConfig, customHeaders },
    ...(probeRegions ? { probeRegions } : {}),
  };
}

const profiles = [
  withHeaders(
    profile('shop'),
    [
      { name: 'Authorization', value: { secret: SECRET } },
      { name: 'X-Api-Key', value: { parameter: PARAMETER } },
    ],
    ['us-east-1'],
  ),
  withHeaders(profile('blog'), [{ name: 'X-Probe', value: 'tm' }]),
];

const outdirs: string[] = [];
afterAll(async () => {
  for (const dir of outdirs) await rm(dir, { recursive: true, force: true });
});

async function synthesize(list: readonly Profile[]) {
  const outdir = await mkdtemp(join(tmpdir(), 'tm-secret-synth-'));
  const app = new App({
    outdir,
    builtinCloudFormationValidation: false,
    context: { 'aws:cdk:bundling-stacks': [] },
  });
  Aspects.of(app).add(new AwsSolutionsChecks());
  const tm = new TrafficManager(app, 'TrafficManager', {
    profiles: list,
    homeRegion: 'us-east-1',
    probeRegions: ['us-east-1', 'eu-west-1'],
  });
  app.synth();
  const files = (await readdir(outdir, { recursive: true })).filter((f) => f.endsWith('.json'));
  const everything = (await Promise.all(files.map((f) => readFile(join(outdir, f), 'utf8')))).join('\n');
  outdirs.push(outdir);
  return { tm, everything };
}

describe('header references in the synthesized app', () => {
  it('the cloud assembly holds the references, and the probe role of a region probing them may read exactly those', async () => {
    // Act
    const { tm, everything } = await synthesize(profiles);

    // Assess
    expect(everything).toContain(SECRET);
    const probe = (region: string) => iamStatements(Template.fromStack(tm.probes.get(region)!));
    const reads = (region: string) =>
      probe(region).filter((s) =>
        ['secretsmanager:GetSecretValue', 'ssm:GetParameter', 'kms:Decrypt'].includes(String(s.Action)),
      );
    expect(reads('us-east-1')).toEqual([
      {
        Sid: 'ReadHeaderSecrets',
        Effect: 'Allow',
        Action: 'secretsmanager:GetSecretValue',
        Resource: SECRET,
      },
      {
        Sid: 'DecryptHeaderSecrets',
        Effect: 'Allow',
        Action: 'kms:Decrypt',
        Resource: '*',
        Condition: {
          StringEquals: {
            'kms:ViaService': [
              { 'Fn::Join': ['', ['secretsmanager.us-east-1.', { Ref: 'AWS::URLSuffix' }]] },
            ],
          },
        },
      },
      {
        Sid: 'ReadHeaderParameters',
        Effect: 'Allow',
        Action: 'ssm:GetParameter',
        Resource: {
          'Fn::Join': [
            '',
            [
              'arn:',
              { Ref: 'AWS::Partition' },
              ':ssm:us-east-1:',
              { Ref: 'AWS::AccountId' },
              ':parameter/shop/api-key',
            ],
          ],
        },
      },
      {
        Sid: 'DecryptHeaderParameters',
        Effect: 'Allow',
        Action: 'kms:Decrypt',
        Resource: '*',
        Condition: {
          StringEquals: {
            'kms:ViaService': [{ 'Fn::Join': ['', ['ssm.us-east-1.', { Ref: 'AWS::URLSuffix' }]] }],
          },
        },
      },
    ]);
    // eu-west-1 probes only "blog", which references nothing.
    expect(reads('eu-west-1')).toEqual([]);
    for (const stack of [tm.home, ...tm.probes.values()]) expect(nagErrors(stack)).toEqual([]);
    expect(Annotations.fromStack(tm.home).findWarning('*', Match.anyValue())).toEqual([]);
  });

  it('a credential-like header written inline: a synth warning naming the field, never the value', async () => {
    // Act
    const { tm } = await synthesize([
      withHeaders(profile('shop'), [{ name: 'Authorization', value: INLINE_VALUE }]),
    ]);

    // Assess
    const warnings = Annotations.fromStack(tm.home)
      .findWarning('*', Match.stringLikeRegexp('credential'))
      .map((w) => String(w.entry.data));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^warning: profiles\[0\] "shop"\.monitorConfig\.customHeaders\[0\]\.value: header "Authorization" looks like a credential written inline, so its value is stored in the template, the table and the deployment's logs: use \{ secret: .*\[ack: traffic-manager:inline-secret-header\]$/,
      ),
    ]);
    expect(warnings.join('\n')).not.toContain(INLINE_VALUE);
  });
});
