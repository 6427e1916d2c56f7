/** Where a probe region finds the home table (the stacks share no CloudFormation references). */
import { Aws } from 'aws-cdk-lib';

export function tableArnInRegion(tableName: string, region: string): string {
  return `arn:${Aws.PARTITION}:dynamodb:${region}:${Aws.ACCOUNT_ID}:table/${tableName}`;
}
