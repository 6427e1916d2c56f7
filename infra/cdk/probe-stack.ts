/**
 * One probe region (docs/adr/0001-probe-cadence.md): an EventBridge Scheduler tick every
 * minute enqueues the next minute's rounds as delayed SQS messages; the probe function takes one
 * round per message, serially (reserved concurrency 1) so its warm container keeps the rule
 * state; it writes probe state cross-region to the home table (docs/adr/0005-cross-region-state.md).
 */
import { Aws, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { EnvironmentVariable as Env } from '../../shared/contracts/environment.js';
import { METRICS_NAMESPACE, MetricName } from '../../shared/contracts/metrics.js';
import { InvalidDeploymentError } from './errors.js';
import { EveryMinute } from './every-minute.js';
import { trafficManagerFunction } from './lambda.js';
import { DEFAULT_DEPLOYMENT_NAME } from './names.js';
import { BASIC_EXECUTION_ROLE, RUNTIME_PINNED, VPC_EXECUTION_ROLE, suppress } from './nag.js';
import { grantTableAccess } from './table-access.js';
import { headerSecretStatements } from './header-secret-access.js';
import { staticMetricStatement } from './static-failover-access.js';
import type { SecretReference } from '../../shared/profile/types.js';
import { TABLE_ACCESS } from '../../shared/state/keys.js';
import { DEFAULT_PROBE_MEMORY_MB } from '../../shared/probe/shard-capacity.js';
import { MAX_PROBE_SHARDS } from '../../shared/probe/shards.js';
import { tickMemoryMbFor } from '../../shared/probe/tick-memory.js';
import {
  probeFunctionName,
  probeTickFunctionName,
  roundDeadLetterQueueName,
  roundQueueName,
} from './probe-names.js';

/** Builds the VPC the probe function is placed in, inside the probe stack (e.g. `Vpc.fromLookup(scope, 'Vpc', { vpcId })`). */
export type VpcFactory = (scope: Construct) => ec2.IVpc;

export interface TrafficManagerProbeStackProps extends StackProps {
  /** The region the table (and the evaluator) live in. */
  readonly homeRegion: string;
  /** The deployment's default probe regions, passed to the handlers (`PROBE_REGIONS`). */
  readonly defaultProbeRegions: readonly string[];
  /** Must match the home stack's. @default 'traffic-manager' */
  readonly deploymentName?: string;
  /** Places the probe function in a VPC to probe private endpoints (the VPC needs a NAT route to reach the home table). @default - not in a VPC */
  readonly vpc?: VpcFactory;
  /** Subnets of that VPC. @default - private subnets with egress */
  readonly vpcSubnets?: ec2.SubnetSelection;
  /**
   * Probe function memory in MiB: CPU scales with it up to one vCPU at 1,769 MiB (a shard probes
   * on one thread, so more buys no CPU it uses), and the tick sizes the shards by it (fewer
   * requests per shard below a full vCPU, HTTPS counting most). @default DEFAULT_PROBE_MEMORY_MB (1,769: one full vCPU)
   */
  readonly probeMemorySize?: number;
  /**
   * The most shards the region's requests are split into: each shard is its own round queue
   * and probe function (reserved concurrency 1), and the tick uses as many as the requests'
   * count (2,000 per shard) and CPU at `probeMemorySize` need (`shardCountForLoad`), up to this many. Each shard beyond the first adds its
   * queue's idle polling (~$0.26 a month, docs/cost.md). The tick's memory follows it
   * (`tickMemoryMbFor`: 128 MB up to 10 shards, 576 MB at 50), so that it reads the config
   * and plans that many requests within 10 s. @default 1
   */
  readonly maxProbeShards?: number;
  /** SNS topic ARN for this region's alarms; used only when it is in this stack's region. @default - alarms without actions */
  readonly alarmTopicArn?: string;
  /** Powertools log level of the probe functions. @default 'INFO' */
  readonly logLevel?: string;
  /** The header secrets and parameters the probe function may read (only these). @default - none */
  readonly headerSecrets?: readonly SecretReference[];
  /**
   * Some profile probed here has `staticFailover`: the probe functions publish this region's
   * votes (`STATIC_FAILOVER_DEPLOYMENT` = `deploymentName`) and may PutMetricData in the
   * static-failover namespace in this region only. @default false
   */
  readonly staticFailover?: boolean;
}

/**
 * The longest round: spreading within the 30 s interval plus the longest timeout (10 s).
 * The function timeout adds slack for the writes; the queue's visibility timeout must not
 * be shorter than the function timeout (a Lambda event source rule).
 */
const PROBE_TIMEOUT = Duration.seconds(55);

export class TrafficManagerProbeStack extends Stack {
  /** Shard 0's probe function and round queue (the first of `shards`). */
  readonly probe: LambdaFunction;
  readonly tick: LambdaFunction;
  readonly roundQueue: Queue;
  readonly shards: readonly { readonly probe: LambdaFunction; readonly roundQueue: Queue }[];
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: TrafficManagerProbeStackProps) {
    super(scope, id, props);
    const region = props.env?.region;
    if (region === undefined) throw new InvalidDeploymentError(`probe stack ${id}: env.region is required`);
    const deploymentName = props.deploymentName ?? DEFAULT_DEPLOYMENT_NAME;
    // The home table by its name and region: the stacks share no CloudFormation references.
    const tableArn = `arn:${Aws.PARTITION}:dynamodb:${props.homeRegion}:${Aws.ACCOUNT_ID}:table/${deploymentName}`;
    const environment = {
      [Env.tableName]: deploymentName,
      [Env.tableRegion]: props.homeRegion,
      [Env.probeRegion]: region,
      [Env.probeRegions]: props.defaultProbeRegions.join(','),
    };
    const votes = props.staticFailover === true;

    this.deadLetterQueue = new Queue(this, 'RoundDeadLetters', {
      queueName: roundDeadLetterQueueName(deploymentName),
      enforceSSL: true,
      encryption: QueueEncryption.SQS_MANAGED,
      retentionPeriod: Duration.days(4),
    });
    const maxShards = props.maxProbeShards ?? 1;
    if (!Number.isInteger(maxShards) || maxShards < 1 || maxShards > MAX_PROBE_SHARDS)
      throw new InvalidDeploymentError(
        `probe stack ${id}: maxProbeShards must be an integer 1–${MAX_PROBE_SHARDS}, got ${maxShards}`,
      );
    const probeMemoryMb = props.probeMemorySize ?? DEFAULT_PROBE_MEMORY_MB;
    const vpc = props.vpc?.(this);
    const secretStatements = headerSecretStatements(props.headerSecrets ?? [], props.homeRegion);
    this.shards = Array.from({ length: maxShards }, (_, shard) => {
      const suffix = shard === 0 ? '' : String(shard);
      const roundQueue = new Queue(this, `Rounds${suffix}`, {
        queueName: roundQueueName(deploymentName, shard),
        enforceSSL: true,
        encryption: QueueEncryption.SQS_MANAGED,
        visibilityTimeout: PROBE_TIMEOUT,
        // A round is worth nothing minutes later; the next tick enqueues fresh ones.
        retentionPeriod: Duration.minutes(5),
        deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: 5 },
      });
      const probe = trafficManagerFunction(this, `Probe${suffix}`, {
        entry: 'functions/probe/handler.ts',
        functionName: probeFunctionName(deploymentName, shard),
        description: `traffic-manager: one probe round per message (shard ${shard})`,
        memorySize: probeMemoryMb,
        timeout: PROBE_TIMEOUT,
        // Rounds are serial and the warm container keeps the per-target rule state of its shard.
        reservedConcurrentExecutions: 1,
        environment: {
          ...environment,
          [Env.probeShard]: String(shard),
          ...(votes ? { [Env.staticFailoverDeployment]: deploymentName } : {}),
        },
        vpc,
        vpcSubnets: props.vpcSubnets,
        logLevel: props.logLevel,
      });
      probe.addEventSource(
        // maxConcurrency 2 is the lowest SQS event sources allow; it keeps pollers from piling throttles on concurrency 1.
        new SqsEventSource(roundQueue, { batchSize: 1, maxConcurrency: 2, reportBatchItemFailures: true }),
      );
      grantTableAccess(probe, tableArn, TABLE_ACCESS.probe(region));
      for (const statement of secretStatements) probe.addToRolePolicy(statement);
      if (votes) {
        probe.addToRolePolicy(staticMetricStatement([region], 'PublishVotesInOwnRegion'));
        suppress(probe, [
          {
            id: 'AwsSolutions-IAM5',
            reason:
              'cloudwatch:PutMetricData has no resource of ours (its only resource type is an OTLP dataset); it is limited by the cloudwatch:namespace condition to TrafficManager/StaticFailover and by aws:RequestedRegion to this region.',
            appliesTo: ['Resource::*'],
          },
        ]);
      }
      if (secretStatements.length > 0)
        suppress(probe, [
          {
            id: 'AwsSolutions-IAM5',
            reason:
              'kms:Decrypt names no key (a secret’s key is AWS managed or the owner’s own); it is allowed only through Secrets Manager / SSM in the referenced items’ regions (kms:ViaService), which decrypt only what the role may read (GetSecretValue / GetParameter on exactly the referenced secrets and parameters).',
            appliesTo: ['Resource::*'],
          },
        ]);
      return { probe, roundQueue };
    });
    this.probe = this.shards[0]!.probe;
    this.roundQueue = this.shards[0]!.roundQueue;

    this.tick = trafficManagerFunction(this, 'Tick', {
      entry: 'functions/probe/tick.ts',
      handler: 'tickHandler',
      functionName: probeTickFunctionName(deploymentName),
      description: 'traffic-manager: enqueues the minute’s probe rounds',
      // Enough CPU to read the config and plan the most requests maxShards carry within half the timeout.
      memorySize: tickMemoryMbFor(maxShards),
      timeout: Duration.seconds(20),
      environment: {
        ...environment,
        [Env.roundQueueUrl]: this.shards.map((shard) => shard.roundQueue.queueUrl).join(','),
        [Env.probeMemoryMb]: String(probeMemoryMb),
      },
      logLevel: props.logLevel,
    });
    grantTableAccess(this.tick, tableArn, TABLE_ACCESS.probeTick(region));
    // Only SendMessage (SendMessageBatch is authorized as it): grantSendMessages adds
    // GetQueueUrl and GetQueueAttributes, which the tick never calls.
    for (const shard of this.shards) shard.roundQueue.grant(this.tick, 'sqs:SendMessage');

    new EveryMinute(this, 'TickSchedule', {
      target: this.tick,
      description: 'traffic-manager: probe tick every minute',
    });

    this.alarms(props, region);
    suppress(this, [
      BASIC_EXECUTION_ROLE,
      RUNTIME_PINNED,
      ...(vpc === undefined ? [] : [VPC_EXECUTION_ROLE]),
    ]);
    suppress(this.deadLetterQueue, [
      { id: 'AwsSolutions-SQS3', reason: 'This queue IS the dead-letter queue of the round queue.' },
    ]);
  }

  private alarms(props: TrafficManagerProbeStackProps, region: string): void {
    const topicRegion = props.alarmTopicArn?.split(':')[3];
    const action =
      props.alarmTopicArn !== undefined && topicRegion === region
        ? new SnsAction(Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn))
        : undefined;
    const alarms = [
      new Alarm(this, 'RoundDeadLettersAlarm', {
        alarmDescription: `Probe rounds in ${region} failed repeatedly and were dead-lettered.`,
        metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(1),
        }),
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        // SQS stops sending the metric for an idle, empty queue: no data is nothing dead-lettered.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      new Alarm(this, 'ProbeRoundsLate', {
        alarmDescription: `Probes in ${region} start more than 1 s after their due time: the region's shards cannot start their rounds on time (too few shards or too little memory for its requests), so its failovers are decided late. The probe tick's log says how many shards it needs.`,
        // Every shard's rounds, whatever dimensions Powertools adds beside Region.
        metric: new MathExpression({
          expression: `SELECT MAX(${MetricName.probeStartLateness}) FROM ${METRICS_NAMESPACE} WHERE Region = '${region}'`,
          period: Duration.minutes(1),
        }),
        threshold: 1_000,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        // Sustained: a container's first round after a cold start is late by its start-up alone.
        evaluationPeriods: 5,
        datapointsToAlarm: 3,
        // Rounds run only while the region has targets; a region that stops shows up at home as StaleProbeRegions.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      ...this.shards.map(
        ({ probe }, shard) =>
          new Alarm(this, shard === 0 ? 'ProbeErrorsAlarm' : `ProbeErrorsAlarm${shard}`, {
            alarmDescription: `The probe function in ${region} failed${shard === 0 ? '' : ` (shard ${shard})`}.`,
            metric: probe.metricErrors({ period: Duration.minutes(5) }),
            threshold: 0,
            comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
            evaluationPeriods: 1,
            // Errors exist only for invocations; a probe region that stops running shows at home as StaleProbeRegions.
            treatMissingData: TreatMissingData.NOT_BREACHING,
          }),
      ),
    ];
    if (action) for (const alarm of alarms) alarm.addAlarmAction(action);
  }
}
