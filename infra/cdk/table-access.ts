/**
 * Grants each role its DynamoDB access, derived from the per-writer partition-key lists in
 * shared/state/items.ts (`TABLE_ACCESS`): item actions only, each statement conditioned on
 * `dynamodb:LeadingKeys`, so a role reaches only the item kinds listed for it. IAM sees
 * partition keys only; that is why every item a probe region writes carries its region in
 * the partition key.
 */
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { TableAccess } from '../../shared/state/keys.js';

const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
const WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];

export function grantTableAccess(grantee: IFunction, tableArn: string, access: TableAccess): void {
  const statement = (sid: string, actions: string[], keys: readonly string[]) =>
    new PolicyStatement({
      sid,
      actions,
      resources: [tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...keys] } },
    });
  grantee.addToRolePolicy(statement('ReadOwnItemKinds', READ_ACTIONS, access.reads));
  if (access.writes.length > 0)
    grantee.addToRolePolicy(statement('WriteOwnItemKinds', WRITE_ACTIONS, access.writes));
}
