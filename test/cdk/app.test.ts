/**
 * The multi-region app of cdk.json, synthesised offline: no AWS account (environment-agnostic
 * account, explicit regions, no cross-region references) and no Docker (local esbuild).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../infra/cdk/build-app.js';
import { contextOptions } from '../../infra/cdk/context.js';
import { loadDefinitions } from '../../infra/definitions/load.js';
import { nagErrors, shippedDefinitions, testApp } from './support.js';
import type { TrafficManager } from '../../infra/cdk/traffic-manager.js';

const cdkJson = JSON.parse(readFileSync('cdk.json', 'utf8')) as { context: Record<string, unknown> };
interface LambdaProps {
  Description?: string;
  Code: { S3Key: string };
}

let tm: TrafficManager;
let assembly: CloudAssembly;

beforeAll(async () => {
  const app = testApp({ bundle: true });
  const options = contextOptions((key) => cdkJson.context[key]);
  tm = await buildApp(app, { ...options, account: undefined });
  assembly = app.synth();
}, 300_000);

describe('the app of cdk.json', () => {
  it('has the home stack and one probe stack per context probe region', () => {
    expect(assembly.stacks.map((s) => [s.stackName, s.environment.region]).sort()).toEqual([
      ['traffic-manager-home', 'us-east-1'],
      ['traffic-manager-probe-ap-southeast-1', 'ap-southeast-1'],
      ['traffic-manager-probe-eu-west-1', 'eu-west-1'],
      ['traffic-manager-probe-us-east-1', 'us-east-1'],
    ]);
  });

  it('needs no AWS account: stacks are account-agnostic and reference nothing across regions', () => {
    for (const stack of assembly.stacks) {
      expect(stack.environment.account).toBe('unknown-account');
      expect(JSON.stringify(stack.template)).not.toContain('Fn::ImportValue');
    }
  });

  it('writes every profile of the definitions file to the table', async () => {
    const loaded = await loadDefinitions(cdkJson.context['traffic-manager:definitions'] as string);
    const home = assembly.getStackByName('traffic-manager-home').template as {
      Resources: Record<string, unknown>;
    };
    const written = shippedDefinitions(assembly.directory, home) as { name: string }[];
    expect(written.map((p) => p.name)).toEqual(
      loaded.ok ? loaded.profiles.map((p) => p.name) : ['valid definitions'],
    );
  });

  it('bundles every handler with the local esbuild into an ESM file with a source map', () => {
    const bundles = assembly.stacks.flatMap((stack) =>
      Object.values(stack.template.Resources as Record<string, { Type: string; Properties: LambdaProps }>)
        .filter(
          (r) =>
            r.Type === 'AWS::Lambda::Function' && r.Properties.Description?.startsWith('traffic-manager'),
        )
        .map((r) => join(assembly.directory, `asset.${r.Properties.Code.S3Key.replace(/\.zip$/, '')}`)),
    );
    // home: evaluator, evaluator tick, config writer; each probe region: probe, tick.
    expect(bundles).toHaveLength(3 + 3 * 2);
    for (const dir of bundles) {
      expect(existsSync(join(dir, 'index.mjs')), dir).toBe(true);
      expect(existsSync(join(dir, 'index.mjs.map')), dir).toBe(true);
    }
  });

  it.each(['traffic-manager-home', 'traffic-manager-probe-eu-west-1'])(
    '%s passes cdk-nag AwsSolutions',
    (name) => {
      const stack = name.endsWith('home') ? tm.home : tm.probes.get('eu-west-1')!;
      expect(nagErrors(stack)).toEqual([]);
    },
  );
});
