/** cdk-nag suppressions; every one carries the reason it is safe. */
import { NagSuppressions, type NagPackSuppression } from 'cdk-nag';
import type { IConstruct } from 'constructs';

export function suppress(construct: IConstruct, suppressions: NagPackSuppression[]): void {
  NagSuppressions.addResourceSuppressions(construct, suppressions, true);
}

export const BASIC_EXECUTION_ROLE: NagPackSuppression = {
  id: 'AwsSolutions-IAM4',
  reason:
    'AWSLambdaBasicExecutionRole only allows writing the function’s own CloudWatch Logs; the log group is created by the stack with a set retention.',
  appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'],
};

export const VPC_EXECUTION_ROLE: NagPackSuppression = {
  id: 'AwsSolutions-IAM4',
  reason:
    'AWSLambdaVPCAccessExecutionRole only allows managing the function’s own network interfaces, which VPC placement requires.',
  appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole'],
};

export const RUNTIME_PINNED: NagPackSuppression = {
  id: 'AwsSolutions-L1',
  reason:
    'nodejs22.x is the runtime the handlers are built and tested for (esbuild target node22); moving to a newer runtime is a deliberate, tested change.',
};
