/**
 * DynamoDB access of a probe region, expressed with `dynamodb:LeadingKeys` so a probe
 * region can write only probe-state items (verdicts and its own heartbeat) and read only
 * the config and probe state. IAM cannot condition on the sort key, so a region could in
 * principle write another region's verdict row of a target; the handler never does.
 */
import { Aws } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { KeyPrefix } from '../../shared/state/items.js';

export function tableArnInRegion(tableName: string, region: string): string {
  return `arn:${Aws.PARTITION}:dynamodb:${region}:${Aws.ACCOUNT_ID}:table/${tableName}`;
}

/** Partition keys a probe region writes: every target's verdict rows, its own heartbeat row. */
export function probeWriteKeys(region: string): string[] {
  return [`${KeyPrefix.target}*`, `${KeyPrefix.region}${region}`];
}

export function probeStateStatements(tableArn: string, region: string): PolicyStatement[] {
  return [
    new PolicyStatement({
      sid: 'WriteProbeStateOnly',
      actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
      resources: [tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': probeWriteKeys(region) } },
    }),
    new PolicyStatement({
      sid: 'ReadConfigAndProbeState',
      actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
      resources: [tableArn],
      conditions: {
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [KeyPrefix.config, ...probeWriteKeys(region)] },
      },
    }),
  ];
}

export function configReadStatement(tableArn: string): PolicyStatement {
  return new PolicyStatement({
    sid: 'ReadConfigOnly',
    actions: ['dynamodb:GetItem', 'dynamodb:Query'],
    resources: [tableArn],
    conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [KeyPrefix.config] } },
  });
}
