/**
 * The evaluator: a DynamoDB-stream handler that admits only CONFIG, VERDICT# and TICK items (its
 * own STATUS/HISTORY writes and the heartbeats never trigger it), with every stream default
 * replaced (STYLE 8), plus the per-minute tick that applies staleness.
 */
import { Duration } from 'aws-cdk-lib';
import { EVALUATOR_STREAM_SETTINGS } from '../../functions/evaluator/stream-settings.js';
import { DEFAULT_RECONCILE_INTERVAL_MS } from '../../functions/evaluator/reconcile-interval.js';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { Profile } from '../../shared/profile/types.js';
import { EVALUATOR_TRIGGER_PREFIXES, TABLE_ACCESS } from '../../shared/state/keys.js';
import { EnvironmentVariable as Env } from '../../shared/contracts/environment.js';
import { grantTableAccess } from './table-access.js';
import { EveryMinute } from './every-minute.js';
import { trafficManagerFunction } from './lambda.js';
import { BASIC_EXECUTION_ROLE, RUNTIME_PINNED, suppress } from './nag.js';
import { route53PublishingStatements } from './route53-access.js';
import { evaluatorStaticFailoverStatements, staticMetricStatement } from './static-failover-access.js';

export interface EvaluatorProps {
  readonly table: Table;
  readonly eventBus: IEventBus;
  readonly profiles: readonly Profile[];
  readonly defaultProbeRegions: readonly string[];
  /** @default 512 */
  readonly memorySize?: number;
  /** @default 'INFO' */
  readonly logLevel?: string;
  /** Emit the per-endpoint health gauge `EndpointDegraded` every minute ($0.30 per endpoint-month). @default true */
  readonly endpointMetrics?: boolean;
  /** How often the zones are reconciled with what was published. @default Duration.minutes(5) */
  readonly reconcileInterval?: Duration;
  /**
   * Static failover (some profile has `staticFailover`): the deployment name its metrics and
   * alarms carry (`STATIC_FAILOVER_DEPLOYMENT`) and the probe regions they live in.
   * @default - no static failover: no variable, no grants
   */
  readonly staticFailover?: { readonly deploymentName: string; readonly regions: readonly string[] };
}

export class Evaluator extends Construct {
  readonly function: LambdaFunction;
  readonly tick: LambdaFunction;
  /** Stream batches that failed every retry land here (on-failure destination). */
  readonly failureQueue: Queue;

  constructor(scope: Construct, id: string, props: EvaluatorProps) {
    super(scope, id);
    const environment = {
      [Env.tableName]: props.table.tableName,
      [Env.eventBusName]: props.eventBus.eventBusName,
      [Env.probeRegions]: props.defaultProbeRegions.join(','),
      ...(props.staticFailover === undefined
        ? {}
        : { [Env.staticFailoverDeployment]: props.staticFailover.deploymentName }),
    };
    const common = { memorySize: props.memorySize ?? 512, environment, logLevel: props.logLevel };

    this.function = trafficManagerFunction(this, 'Function', {
      ...common,
      entry: 'functions/evaluator/handler.ts',
      description: 'traffic-manager: evaluates probe verdicts and publishes Route 53 record sets',
      // Route 53 throttling is retried inside the handler for up to 30 s; a minute covers it.
      timeout: Duration.minutes(1),
      // Route 53 allows 5 requests/s per account and only this function calls it: one
      // invocation at a time means one in-process limiter holds that rate for the deployment.
      reservedConcurrentExecutions: 1,
    });
    this.tick = trafficManagerFunction(this, 'Tick', {
      ...common,
      environment: {
        ...environment,
        [Env.endpointMetrics]: String(props.endpointMetrics ?? true),
        [Env.reconcileIntervalSeconds]: String(
          (props.reconcileInterval ?? Duration.millis(DEFAULT_RECONCILE_INTERVAL_MS)).toSeconds(),
        ),
      },
      entry: 'functions/evaluator/tick.ts',
      description:
        'traffic-manager: applies staleness, emits the health gauges and requests reconciles, every minute',
      timeout: Duration.seconds(50),
    });

    this.failureQueue = new Queue(this, 'StreamFailures', {
      enforceSSL: true,
      encryption: QueueEncryption.SQS_MANAGED,
      retentionPeriod: Duration.days(14),
    });

    this.function.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.LATEST,
        batchSize: EVALUATOR_STREAM_SETTINGS.batchSize,
        maxBatchingWindow: Duration.millis(EVALUATOR_STREAM_SETTINGS.maxBatchingWindowMs),
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        // One batch per shard at a time, in order (with reserved concurrency 1, other shards wait).
        parallelizationFactor: 1,
        retryAttempts: EVALUATOR_STREAM_SETTINGS.retryAttempts,
        maxRecordAge: Duration.seconds(EVALUATOR_STREAM_SETTINGS.maxRecordAgeSeconds),
        // Lambda sends a discarded batch's record with the function's role, which needs only
        // sqs:SendMessage (SqsDlq would also grant GetQueueUrl and GetQueueAttributes).
        onFailure: {
          bind: (_mapping, target) => {
            this.failureQueue.grant(target, 'sqs:SendMessage');
            return { destination: this.failureQueue.queueArn };
          },
        },
        // A prefix ending in `#` starts a family of partition keys (VERDICT#…); the others are keys.
        filters: EVALUATOR_TRIGGER_PREFIXES.map((prefix) =>
          FilterCriteria.filter({
            dynamodb: {
              Keys: {
                pk: { S: prefix.endsWith('#') ? FilterRule.beginsWith(prefix) : FilterRule.isEqual(prefix) },
              },
            },
          }),
        ),
      }),
    );

    new EveryMinute(this, 'TickSchedule', {
      target: this.tick,
      description: 'traffic-manager: evaluator tick (staleness) every minute',
    });

    grantTableAccess(this.function, props.table.tableArn, TABLE_ACCESS.evaluator);
    props.eventBus.grantPutEventsTo(this.function);
    for (const statement of route53PublishingStatements(props.profiles, props.staticFailover?.regions))
      this.function.addToRolePolicy(statement);
    if (props.staticFailover !== undefined)
      for (const statement of evaluatorStaticFailoverStatements(
        props.staticFailover.deploymentName,
        props.staticFailover.regions,
      ))
        this.function.addToRolePolicy(statement);
    // The tick reads heartbeats/config/controls, writes the TICK item and deletes expired
    // overrides; it never publishes.
    grantTableAccess(this.tick, props.table.tableArn, TABLE_ACCESS.evaluatorTick);
    // The tick may publish the guard's heartbeat each minute; the structure is the evaluator's.
    if (props.staticFailover !== undefined)
      this.tick.addToRolePolicy(
        staticMetricStatement(props.staticFailover.regions, 'PublishEvaluatorHeartbeat'),
      );

    suppress(this, [
      BASIC_EXECUTION_ROLE,
      RUNTIME_PINNED,
      {
        id: 'AwsSolutions-IAM5',
        reason:
          '`dynamodb:ListStreams` and `route53:ListCidrCollections` have no resource type (`*`); the data grant’s `<table>/index/*` matches no index (the table has none); Route 53 names change ids only after a change is made (`change/*`); a CIDR collection’s id exists only after the evaluator creates it (Subnet profiles only), so it cannot be named in advance (`cidrcollection/*`). Static failover: a health check’s id exists only once created (`healthcheck/*`; CreateHealthCheck and ListHealthChecks have no resource type); PutMetricData is limited by its namespace and regions (conditions); vote alarms, one per target, are named by the deployment’s prefix (`<deployment>-vote-t-*`) in the probe regions.',
        appliesTo: [
          'Resource::*',
          { regex: '/^Resource::<StateTable[A-Za-z0-9]*\\.Arn>\\/index\\/\\*$/' },
          'Resource::arn:<AWS::Partition>:route53:::change/*',
          'Resource::arn:<AWS::Partition>:route53:::cidrcollection/*',
          'Resource::arn:<AWS::Partition>:route53:::healthcheck/*',
          {
            regex:
              '/^Resource::arn:<AWS::Partition>:cloudwatch:[a-z0-9-]+:<AWS::AccountId>:alarm:.+-vote-t-\\*$/',
          },
        ],
      },
      {
        id: 'AwsSolutions-SQS3',
        reason: 'This queue IS the dead-letter destination of the evaluator’s stream event source.',
      },
    ]);
  }
}
