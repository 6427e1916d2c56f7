/**
 * An EventBridge Scheduler `rate(1 minute)` schedule invoking a function, with its own invoke
 * role that only the scheduler acting for this account may assume (`aws:SourceAccount`).
 */
import { Aws, Duration } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Construct } from 'constructs';
import { suppress } from './nag.js';

export class EveryMinute extends Construct {
  readonly schedule: Schedule;

  constructor(
    scope: Construct,
    id: string,
    props: { readonly target: IFunction; readonly description: string },
  ) {
    super(scope, id);
    const role = new Role(this, 'InvokeRole', {
      // Confused deputy: only schedules of this account may assume the role.
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
      }),
    });
    this.schedule = new Schedule(this, 'Schedule', {
      description: props.description,
      schedule: ScheduleExpression.rate(Duration.minutes(1)),
      // A missed minute is replaced by the next one: no retries, no backlog of late invocations.
      target: new LambdaInvoke(props.target, { role, retryAttempts: 0, maxEventAge: Duration.minutes(1) }),
    });
    suppress(role, [
      {
        id: 'AwsSolutions-IAM5',
        reason:
          'The scheduler may invoke any version of this one function (`<function arn>:*`), nothing else.',
      },
    ]);
  }
}
