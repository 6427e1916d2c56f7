/**
 * DynamoDB access of each role, derived from the per-writer partition-key lists in
 * shared/state/items.ts (`TABLE_ACCESS`): item actions only, each statement conditioned on
 * `dynamodb:LeadingKeys`, so a role reaches only the item kinds listed for it. IAM sees
 * partition keys only; that is why every item a probe region writes carries its region in
 * the partition key.
 */
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { TableAccess } from '../../shared/state/keys.js';

const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
const WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];

export function tableAccessStatements(tableArn: string, access: TableAccess): PolicyStatement[] {
  const statement = (sid: string, actions: string[], keys: readonly string[]) =>
    new PolicyStatement({
      sid,
      actions,
      resources: [tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...keys] } },
    });
  return [
    statement('ReadOwnItemKinds', READ_ACTIONS, access.reads),
    ...(access.writes.length > 0 ? [statement('WriteOwnItemKinds', WRITE_ACTIONS, access.writes)] : []),
  ];
}
