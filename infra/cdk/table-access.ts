/**
 * Grants each role its DynamoDB access from its entry in `TABLE_ACCESS` (shared/state/keys.ts):
 * only the item actions its handlers send, reads and writes each in a statement conditioned on
 * `dynamodb:LeadingKeys`, so a role reaches only the item kinds listed for it. IAM sees
 * partition keys only; that is why every item a probe region writes carries its region in
 * the partition key.
 */
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ItemAction, TableAccess } from '../../shared/state/keys.js';

const READ_ACTIONS: readonly ItemAction[] = ['GetItem', 'BatchGetItem', 'Query'];

export function grantTableAccess(grantee: IFunction, tableArn: string, access: TableAccess): void {
  const statement = (sid: string, actions: readonly ItemAction[], keys: readonly string[]) =>
    new PolicyStatement({
      sid,
      actions: actions.map((action) => `dynamodb:${action}`),
      resources: [tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...keys] } },
    });
  const reads = access.actions.filter((action) => READ_ACTIONS.includes(action));
  const writes = access.actions.filter((action) => !READ_ACTIONS.includes(action));
  grantee.addToRolePolicy(statement('ReadOwnItemKinds', reads, access.reads));
  if (access.writes.length > 0)
    grantee.addToRolePolicy(statement('WriteOwnItemKinds', writes, access.writes));
}
