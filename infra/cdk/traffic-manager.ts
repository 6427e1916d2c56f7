/**
 * `TrafficManager`: the whole deployment as one construct a user can drop into their own
 * CDK app (or a Stage). A construct lives in one stack, but the design needs a home stack
 * plus one probe stack per region, so this construct creates those stacks as its children.
 *
 * ```ts
 * const app = new App();
 * new TrafficManager(app, 'TrafficManager', {
 *   profiles: await loadProfiles('definitions.ts'),
 *   homeRegion: 'us-east-1',
 *   probeRegions: ['us-east-1', 'eu-west-1', 'ap-southeast-1'],
 * });
 * ```
 *
 * With `homeStack`, the home-region resources go into a stack of the user's own instead.
 */
import { Annotations, Stage, Token, type Duration, type Stack } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import { Construct } from 'constructs';
import type { ProfileInput } from '../../shared/profile/schema.js';
import {
  formatWarning,
  inlineSecretWarnings,
  secretReferencesOf,
} from '../../shared/profile/secret-references.js';
import type { Profile } from '../../shared/profile/types.js';
import { deploymentRegionProblems } from '../../shared/profile/deployment-regions.js';
import { normalizeProfiles } from './definitions.js';
import { route53QuotaWarnings } from '../../shared/zone/route53-quotas.js';
import { footprintOf, quotaWarning } from '../../shared/static-failover/cost.js';
import { planStaticFailover } from '../../shared/static-failover/plan.js';
import { bindHostedZones } from './hosted-zones.js';
import { InvalidDeploymentError } from './errors.js';
import { TrafficManagerHome } from './home.js';
import { TrafficManagerHomeStack } from './home-stack.js';
import { DEFAULT_DEPLOYMENT_NAME } from './names.js';
import { sizeProbeRegions } from './probe-sizing.js';
import { TrafficManagerProbeStack, type VpcFactory } from './probe-stack.js';

export interface TrafficManagerProps {
  /**
   * The profiles: objects in the definitions format (`ProfileInput`, validated and
   * normalized here, failing the synth with `tm validate`'s messages), or what
   * `loadProfiles(file)` returns for a definitions file.
   */
  readonly profiles: readonly (ProfileInput | Profile)[];
  /** The region of the table, the evaluator and the alarms. */
  readonly homeRegion: string;
  /**
   * A stack of your own, in the same App or Stage and in `homeRegion`, to hold the home-region
   * resources (table, evaluator, event bus, dashboard, alarms) beside your other resources.
   * @default - a stack `<deploymentName>-home` created for them
   */
  readonly homeStack?: Stack;
  /** The default probe regions: one probe stack each (profiles may use a subset via `probeRegions`). */
  readonly probeRegions: readonly string[];
  /** Hosted zone ids by zone name, for profiles whose `dnsConfig` has no `hostedZoneId`. @default - every profile names its hosted zone */
  readonly hostedZones?: Readonly<Record<string, string>>;
  /** A VPC per probe region (region → factory), to probe private endpoints from inside it. @default - probes run outside any VPC */
  readonly probeVpcs?: Readonly<Record<string, VpcFactory>>;
  /** Subnets of the probe VPCs. @default - private subnets with egress */
  readonly probeVpcSubnets?: ec2.SubnetSelection;
  /** SNS topic ARN that alarms notify (home-region alarms; probe-region alarms when the topic is in their region). @default - alarms without actions */
  readonly alarmTopicArn?: string;
  /** SNS topic ARN that receives every status event. @default - no notifications */
  readonly notificationTopicArn?: string;
  /** Account of every stack. @default - environment-agnostic account (`CDK_DEFAULT_ACCOUNT` at deploy) */
  readonly account?: string;
  /** Names the table, bus, dashboard and the probe functions/queues; also the stack name prefix. @default 'traffic-manager' */
  readonly deploymentName?: string;
  /**
   * Probe function memory in MiB: CPU scales with it, and the probe tick sizes the shards by it.
   * @default - per probe region, the cheapest of 512, 1,024 and 1,769 MB for the requests the
   * definitions give it by the cost model (docs/cost.md, "Sizing a region"): 512 MB for a few
   * dozen endpoints, 1,769 MB (one full vCPU) for a thousand and more
   */
  readonly probeMemorySize?: number;
  /**
   * The most shards (round queue + probe function each) a probe region splits its requests
   * into; the probe tick uses as many as the shards' measured CPU needs, up to this many.
   * @default - per probe region, what its requests need at `probeMemorySize` with room for
   * shards 6× slower than the per-protocol constants (docs/cost.md, "Sizing a region"), at most 50
   */
  readonly maxProbeShards?: number;
  /** Evaluator memory in MiB. @default 512 */
  readonly evaluatorMemorySize?: number;
  /**
   * Emit the per-endpoint health gauge `EndpointDegraded` (dimensions Profile, Endpoint) every
   * minute: one CloudWatch custom metric, $0.30 a month, per endpoint. The per-profile gauge
   * `ProfileDegraded` (which the alarm uses) is always emitted. @default true
   */
  readonly endpointMetrics?: boolean;
  /**
   * How often every hosted zone with owned names is read and compared with what was published;
   * a record someone else changed or deleted at an owned name is put back (drift repair). At
   * least a minute (the tick's period), whole minutes. Each reconcile costs a few Route 53 reads
   * per zone (docs/cost.md). @default Duration.minutes(5)
   */
  readonly reconcileInterval?: Duration;
  /** Powertools log level of every function. @default 'INFO' */
  readonly logLevel?: string;
  /**
   * The deployment's default of each profile's `staticFailover` (docs/adr/0011-static-failover.md):
   * Route 53 health checks fed by the probe regions' votes fail over without the home region or
   * Route 53's control plane. A profile's own `staticFailover` wins. `false`: today's
   * record-change failover only, unless a profile turns it on.
   * @default true
   */
  readonly staticFailover?: boolean;
}

export class TrafficManager extends Construct {
  /** The stack holding the home-region resources: `homeStack`, or the one created for them. */
  readonly home: Stack;
  /** The home-region resources (table, evaluator, event bus, monitoring). */
  readonly homeResources: TrafficManagerHome;
  /** Probe stacks by region. */
  readonly probes: ReadonlyMap<string, TrafficManagerProbeStack>;

  constructor(scope: Construct, id: string, props: TrafficManagerProps) {
    super(scope, id);
    const normalized = normalizeProfiles(props.profiles, { staticFailover: props.staticFailover });
    validateRegions(props, normalized);
    validateHomeStack(this, props);
    const profiles = bindHostedZones(normalized, props.hostedZones);
    const sizes = sizeProbeRegions(profiles, props.probeRegions, {
      memoryMb: props.probeMemorySize,
      maxShards: props.maxProbeShards,
    });
    const deploymentName = props.deploymentName ?? DEFAULT_DEPLOYMENT_NAME;
    const env = (region: string) => ({ account: props.account, region });
    const common = { deploymentName, logLevel: props.logLevel, alarmTopicArn: props.alarmTopicArn };

    const homeProps = {
      ...common,
      profiles,
      probeRegions: props.probeRegions,
      notificationTopicArn: props.notificationTopicArn,
      evaluatorMemorySize: props.evaluatorMemorySize,
      maxProbeShards: props.maxProbeShards,
      probeShards: Object.fromEntries(sizes.map((size) => [size.region, size.maxShards])),
      endpointMetrics: props.endpointMetrics,
      reconcileInterval: props.reconcileInterval,
    };
    if (props.homeStack === undefined) {
      const home = new TrafficManagerHomeStack(this, 'Home', {
        ...homeProps,
        stackName: `${deploymentName}-home`,
        description: 'traffic-manager home region: state table, evaluator, status events, alarms',
        env: env(props.homeRegion),
      });
      this.home = home;
      this.homeResources = home.resources;
    } else {
      this.home = props.homeStack;
      this.homeResources = new TrafficManagerHome(props.homeStack, id, homeProps);
    }

    const probes = new Map<string, TrafficManagerProbeStack>();
    for (const { region, memoryMb, maxShards, warning } of sizes) {
      const probedHere = profiles.filter((profile) =>
        (profile.probeRegions ?? props.probeRegions).includes(region),
      );
      const stack = new TrafficManagerProbeStack(this, `Probe-${region}`, {
        ...common,
        stackName: `${deploymentName}-probe-${region}`,
        description: `traffic-manager probe region ${region}`,
        env: env(region),
        homeRegion: props.homeRegion,
        defaultProbeRegions: props.probeRegions,
        vpc: props.probeVpcs?.[region],
        vpcSubnets: props.probeVpcSubnets,
        probeMemorySize: memoryMb,
        headerSecrets: secretReferencesOf(probedHere),
        maxProbeShards: maxShards,
        staticFailover: probedHere.some((profile) => profile.staticFailover),
      });
      if (warning !== undefined)
        Annotations.of(stack).addWarningV2('traffic-manager:probe-rounds-late', warning);
      // Deploy order only (no cross-region references): the table exists before probes write to it.
      stack.addStackDependency(this.home, 'the probes write to the home table');
      probes.set(region, stack);
    }
    this.probes = probes;
    // More Route 53 health checks than the default quota of 200, counted and worded by the core
    // as `tm validate` says it. Never fails the synth: the quota can be raised (docs/deploy.md).
    const failover = profiles.filter((profile) => profile.staticFailover);
    const options = { deployment: deploymentName, defaultProbeRegions: props.probeRegions };
    const quota =
      failover.length === 0 ? undefined : quotaWarning(footprintOf(planStaticFailover(failover, options)));
    if (quota !== undefined)
      Annotations.of(this.home).addWarningV2('traffic-manager:health-check-quota', quota);
    // On the home stack, which holds the definitions: `cdk synth` prints it with the stack's path.
    for (const warning of inlineSecretWarnings(profiles))
      Annotations.of(this.home).addWarningV2(
        'traffic-manager:inline-secret-header',
        formatWarning(warning, profiles),
      );
    for (const warning of route53QuotaWarnings(profiles, props.probeRegions))
      Annotations.of(this.home).addWarningV2('traffic-manager:route53-quota', warning.message);
  }
}

function validateHomeStack(scope: Construct, props: TrafficManagerProps): void {
  const stack = props.homeStack;
  if (stack === undefined) return;
  const problems: string[] = [];
  if (Stage.of(stack) !== Stage.of(scope))
    problems.push(`homeStack: ${stack.node.path} must be in the same App or Stage as the TrafficManager`);
  // The probe stacks address the table by homeRegion, so the stack must be pinned to it.
  if (Token.isUnresolved(stack.region) || stack.region !== props.homeRegion) {
    const region = Token.isUnresolved(stack.region) ? 'no region (environment-agnostic)' : stack.region;
    problems.push(
      `homeStack: ${stack.node.path} must have env.region ${props.homeRegion} (homeRegion), got ${region}`,
    );
  }
  if (props.account !== undefined && !Token.isUnresolved(stack.account) && stack.account !== props.account)
    problems.push(
      `homeStack: ${stack.node.path} is in account ${stack.account}, account is ${props.account}`,
    );
  if (problems.length > 0) throw new InvalidDeploymentError(problems.join('\n'));
}

function validateRegions(props: TrafficManagerProps, profiles: readonly Profile[]): void {
  const problems: string[] = [];
  if (props.probeRegions.length === 0) problems.push('probeRegions: needs at least one region, got []');
  const duplicates = props.probeRegions.filter((r, i) => props.probeRegions.indexOf(r) !== i);
  if (duplicates.length > 0)
    problems.push(`probeRegions: regions must be unique, got ${JSON.stringify(duplicates)} twice`);
  for (const region of Object.keys(props.probeVpcs ?? {})) {
    if (!props.probeRegions.includes(region)) {
      problems.push(`probeVpcs.${region}: not a probe region (${props.probeRegions.join(', ')})`);
    }
  }
  problems.push(...deploymentRegionProblems(profiles, props.probeRegions, "the deployment's probe regions"));
  const reconcile = props.reconcileInterval?.toSeconds();
  if (reconcile !== undefined && (reconcile < 60 || reconcile % 60 !== 0)) {
    problems.push(
      `reconcileInterval: must be a whole number of minutes, at least 1 (the tick that requests reconciles runs every minute), got ${reconcile} seconds`,
    );
  }
  if (problems.length > 0) throw new InvalidDeploymentError(problems.join('\n'));
}
