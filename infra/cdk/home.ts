/**
 * The home-region resources as one construct, for any Stack in the home region — the stack
 * `TrafficManager` creates, or one of the user's own (`TrafficManager`'s `homeStack` prop):
 * the state table, the evaluator (stream + tick), the definitions custom resource, the status
 * event bus, the dashboard and the alarms.
 */
import { RemovalPolicy, Stack, type Duration } from 'aws-cdk-lib';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { AttributeType, BillingMode, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus, Rule } from 'aws-cdk-lib/aws-events';
import { SnsTopic } from 'aws-cdk-lib/aws-events-targets';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { Profile } from '../../shared/profile/types.js';
import { Evaluator } from './evaluator.js';
import { Monitoring } from './monitoring.js';
import { DEFAULT_DEPLOYMENT_NAME } from './names.js';
import { ProfileConfig } from './profile-config.js';
import { staticFailoverRegions } from './static-failover-access.js';

export interface TrafficManagerHomeProps {
  /** The normalized profiles, each with its `dnsConfig.hostedZoneId` (see `bindHostedZones`). */
  readonly profiles: readonly Profile[];
  /** The deployment's default probe regions (profiles without `probeRegions` use them). */
  readonly probeRegions: readonly string[];
  /** Names the table, the event bus, the dashboard and the probe functions; change it to run two deployments in one account. @default 'traffic-manager' */
  readonly deploymentName?: string;
  /** SNS topic ARN (in the home region) that alarms notify. @default - alarms without actions */
  readonly alarmTopicArn?: string;
  /** SNS topic ARN that receives every status event from the bus; its policy must allow events.amazonaws.com to publish. @default - no notifications */
  readonly notificationTopicArn?: string;
  /** The most shards a probe region splits into (the dashboard shows every shard's probe function). @default 1 */
  readonly maxProbeShards?: number;
  /** The most shards of each probe region, by region, where they differ. @default - `maxProbeShards` for every region */
  readonly probeShards?: Readonly<Record<string, number>>;
  /** Evaluator memory in MiB. @default 512 */
  readonly evaluatorMemorySize?: number;
  /** Emit the per-endpoint health gauge `EndpointDegraded` every minute ($0.30 per endpoint-month). @default true */
  readonly endpointMetrics?: boolean;
  /** How often the zones are reconciled with what was published (drift repair). @default Duration.minutes(5) */
  readonly reconcileInterval?: Duration;
  /** Powertools log level of the home functions. @default 'INFO' */
  readonly logLevel?: string;
}

export class TrafficManagerHome extends Construct {
  readonly table: Table;
  readonly eventBus: EventBus;
  readonly evaluator: Evaluator;
  readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: TrafficManagerHomeProps) {
    super(scope, id);
    const deploymentName = props.deploymentName ?? DEFAULT_DEPLOYMENT_NAME;
    // The single state table (layout: shared/state/items.ts, docs/adr/0002-table-layout.md), its
    // physical name fixed so probe stacks in other regions can address it by name.
    this.table = new Table(new Construct(this, 'State'), 'Table', {
      tableName: deploymentName,
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      // The evaluator needs the old image to tell a verdict change from a rewrite.
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // History items carry an epoch-seconds `expiresAt`.
      timeToLiveAttribute: 'expiresAt',
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.eventBus = new EventBus(this, 'StatusEvents', {
      eventBusName: deploymentName,
    });
    // The probe regions static failover uses, when some profile has `staticFailover`.
    const failoverRegions = staticFailoverRegions(props.profiles, props.probeRegions);

    this.evaluator = new Evaluator(this, 'Evaluator', {
      table: this.table,
      eventBus: this.eventBus,
      profiles: props.profiles,
      defaultProbeRegions: props.probeRegions,
      memorySize: props.evaluatorMemorySize,
      logLevel: props.logLevel,
      endpointMetrics: props.endpointMetrics,
      reconcileInterval: props.reconcileInterval,
      ...(failoverRegions === undefined
        ? {}
        : { staticFailover: { deploymentName, regions: failoverRegions } }),
    });
    new ProfileConfig(this, 'Profiles', {
      table: this.table,
      profiles: props.profiles,
      defaultProbeRegions: props.probeRegions,
      logLevel: props.logLevel,
    });

    if (props.notificationTopicArn !== undefined) {
      new Rule(this, 'NotifyStatusEvents', {
        description: 'traffic-manager: every status event on the bus to the notification topic',
        eventBus: this.eventBus,
        // The bus carries only status events, so every event of this account is one.
        eventPattern: { account: [Stack.of(this).account] },
        targets: [new SnsTopic(Topic.fromTopicArn(this, 'NotificationTopic', props.notificationTopicArn))],
      });
    }

    const alarmTopic =
      props.alarmTopicArn === undefined
        ? undefined
        : Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn);
    this.monitoring = new Monitoring(this, 'Monitoring', {
      deploymentName,
      evaluator: this.evaluator,
      probeRegions: props.probeRegions,
      maxProbeShards: props.maxProbeShards,
      probeShards: props.probeShards,
      alarmAction: alarmTopic === undefined ? undefined : new SnsAction(alarmTopic),
      staticFailover: failoverRegions !== undefined,
    });
  }
}
