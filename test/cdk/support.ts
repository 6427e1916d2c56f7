/** Synthesis helpers for the CDK tests: no bundling and no CloudFormation validation (both slow; the app test bundles for real). */
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
