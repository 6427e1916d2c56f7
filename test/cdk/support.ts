/** Synthesis helpers for the CDK tests: no bundling and no CloudFormation validation (both slow; the app test bundles for real). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Aspects, type Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';

export function testApp(options: { bundle?: boolean; nag?: boolean } = {}): App {
  const app = new App({
    builtinCloudFormationValidation: false,
    context: options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] },
  });
  if (options.nag !== false) Aspects.of(app).add(new AwsSolutionsChecks());
  return app;
}

/** cdk-nag AwsSolutions errors of a stack, as readable `path: finding` lines. */
export function nagErrors(stack: Stack): string[] {
  return Annotations.fromStack(stack)
    .findError('*', Match.stringLikeRegexp('AwsSolutions-.*'))
    .map((e) => `${e.id}: ${String(e.entry.data).split(':')[0]}`);
}

interface PolicyDocument {
  Statement: {
    Effect: string;
    Action: string | string[];
    Resource?: unknown;
    Condition?: unknown;
    Sid?: string;
  }[];
}

/** Every IAM statement of a template (managed/inline policies and role inline policies). */
export function iamStatements(template: {
  findResources(type: string): Record<string, { Properties?: Record<string, unknown> }>;
}) {
  const statements: PolicyDocument['Statement'] = [];
  for (const type of ['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy']) {
    for (const resource of Object.values(template.findResources(type))) {
      statements.push(...(resource.Properties?.PolicyDocument as PolicyDocument).Statement);
    }
  }
  for (const role of Object.values(template.findResources('AWS::IAM::Role'))) {
    for (const policy of (role.Properties?.Policies as { PolicyDocument: PolicyDocument }[] | undefined) ??
      []) {
      statements.push(...policy.PolicyDocument.Statement);
    }
  }
  return statements;
}

export function actionsOf(statement: { Action: string | string[] }): string[] {
  return Array.isArray(statement.Action) ? statement.Action : [statement.Action];
}

/** The definitions custom resource's properties in a synthesized home template. */
export interface DefinitionsProperties {
  readonly TableName: unknown;
  readonly DefinitionsBucket: unknown;
  readonly DefinitionsKey: unknown;
  readonly DefinitionsHash: string;
  readonly DefaultProbeRegions: string;
}

export function definitionsProperties(template: {
  Resources: Record<string, unknown>;
}): DefinitionsProperties {
  const resources = Object.values(template.Resources) as {
    Type: string;
    Properties: DefinitionsProperties;
  }[];
  const found = resources.filter((r) => r.Type === 'Custom::TrafficManagerProfiles');
  if (found.length !== 1) throw new Error(`expected one Custom::TrafficManagerProfiles, got ${found.length}`);
  return found[0]!.Properties;
}

/**
 * The profiles a synthesized deployment ships: the definitions asset staged in the cloud
 * assembly directory (`asset.<hash>.json`), named by the custom resource's DefinitionsHash.
 */
export function shippedDefinitions(
  assemblyDir: string,
  template: { Resources: Record<string, unknown> },
): unknown {
  const { DefinitionsHash } = definitionsProperties(template);
  return JSON.parse(readFileSync(join(assemblyDir, `asset.${DefinitionsHash}.json`), 'utf8')) as unknown;
}
