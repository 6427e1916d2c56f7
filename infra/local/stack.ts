/**
 * `tm local`: the whole system on this machine, with the production code paths —
 * DynamoDB Local (real stream) → evaluator handler driven by a stream poller → the local
 * Route 53 through the real SDK client → an authoritative DNS server answering from that
 * zone; one probe worker per region name writing like the real ones; the evaluator tick.
 * Every duration (interval, timeout, heartbeat, staleness, tick, reconcile interval) is multiplied by the time scale.
 */
import { DEFAULT_LOCAL_REGIONS } from './regions.js';
import { syncConfig } from '../../functions/config-writer/sync.js';
import { DynamoDbEvaluatorStore } from '../../functions/evaluator/dynamodb-state-store.js';
import type { EvaluatorDeps } from '../../functions/evaluator/evaluation.js';
import { callbackSink } from '../../functions/evaluator/event-sinks.js';
import { createStreamHandler } from '../../functions/evaluator/handler.js';
import {
  isStatusEvent,
  noMetrics,
  type EvaluatorEvent,
  type StoredStatus,
} from '../../functions/evaluator/ports.js';
import { Route53ZoneGateway } from '../../functions/evaluator/route53-zone-gateway.js';
import { DEFAULT_RECONCILE_INTERVAL_MS } from '../../functions/evaluator/reconcile-interval.js';
import { runTick } from '../../functions/evaluator/tick.js';
import { startLocalProbeRegion, type LocalProbeRegion } from './probe-region.js';
import type { TransitionRecord } from '../../shared/evaluation/transitions.js';
import type { Prober } from '../../shared/probe/target.js';
import type { Profile } from '../../shared/profile/types.js';
import type { Change } from '../../shared/zone/record-set.js';
import { startDnsServer, type ClientLocationTable, type DnsServer } from './dns/index.js';
import { watchFirstPublish } from './first-publish.js';
import type { RestoredState } from './restored-state.js';
import { LOCAL_CREDENTIALS as credentials, LOCAL_TABLE_NAME, startHomeTable } from './home-table.js';
import { startHeaderSecretStandIns } from './header-secret-stand-ins.js';
import { startLocalRoute53, type LocalRoute53 } from './route53/index.js';
import { withHostedZones } from './hosted-zones.js';
import { startLocalCloudWatch, type LocalCloudWatch } from './cloudwatch/index.js';
import { publishHealthCheckStatuses } from './route53/status-metric.js';
import {
  createLocalFaults,
  isHomeRegionRefusal,
  refuseWhileHomeRegionDown,
  startFaultControl,
  type LocalFaults,
} from './faults.js';
import { EnvironmentVariable } from '../../shared/contracts/environment.js';
import { startStreamPoller, type StreamPoller } from './stream-poller.js';
import type { writeStateFile } from './state-file.js';
import {
  cloudWatchClient,
  dynamoDbClient,
  ENDPOINT_VARIABLE,
  route53Client,
} from '../../functions/shared/aws-clients.js';
import { cloudWatchVoteSink } from '../../functions/probe/cloudwatch-vote-sink.js';
import { staticFailoverDeps } from '../../functions/evaluator/static-failover-deps.js';
import { readEffectiveConfig } from '../../functions/shared/config-reader.js';
import { KeyPrefix } from '../../shared/state/keys.js';
import { withHeaderSecrets } from '../../functions/probe/header-secrets.js';
import { probe } from '../../functions/probe/probers/registry.js';
import type { LocalSecretValues } from './secrets-file.js';

export { DEFAULT_LOCAL_REGIONS };
/** The local stack's deployment name (STATIC_FAILOVER_DEPLOYMENT): a dimension of its votes and part of its health-check ids. */
const LOCAL_DEPLOYMENT = 'local';
const EVALUATOR_TICK_MS = 60_000;

export interface LocalStackOptions {
  readonly profiles: readonly Profile[];
  /** Probe region names, one in-process worker each. @default DEFAULT_LOCAL_REGIONS */
  readonly regions?: readonly string[];
  /** @default 5353; 0 picks a free port */
  readonly dnsPort?: number;
  /** Multiplies every duration. @default 1 */
  readonly timeScale?: number;
  /** How often the zones are reconciled, before the time scale (ms). @default DEFAULT_RECONCILE_INTERVAL_MS (5 min) */
  readonly reconcileIntervalMs?: number;
  readonly clientLocations?: ClientLocationTable;
  /** One line per problem. @default - nothing printed */
  readonly log?: (line: string) => void;
  /** Every event the evaluator emits, with the profiles as written to the table (`tm local` prints them). @default - ignored */
  readonly onEvent?: (event: EvaluatorEvent, profiles: readonly Profile[]) => void;
  /** Every change batch the local Route 53 applies. @default - ignored */
  readonly onDnsChanges?: (changes: readonly Change[]) => void;
  /** @default the production probers */
  readonly prober?: Prober;
  /**
   * The stack cannot go on (DynamoDB Local stayed gone longer than
   * STATE_STORE_OUTAGE_LIMIT_MS × time scale); the caller should stop it. @default - ignored
   */
  readonly onFatal?: (message: string) => void;
  /**
   * Aborted once the stack is being stopped on purpose (tm local got a signal, a key): from then
   * on DynamoDB Local going away — a signal sent to every process at once — is part of the stop,
   * not an outage to report. @default - only stop() begins a stop
   */
  readonly stopping?: AbortSignal;
  /** What the local Secrets Manager and Parameter Store hold for header references. @default - nothing: every reference fails (reason `secret`) */
  readonly secrets?: LocalSecretValues;
  /**
   * Where DynamoDB Local keeps the table on disk; a table found there is reused (statuses,
   * counts, runtime controls and history go on). @default - in memory: every start is empty
   */
  readonly dataDirectory?: string;
}

export interface LocalStack {
  readonly dnsPort: number;
  /** Resolves once the first publish has landed: DNS answers SERVFAIL until then. */
  readonly published: Promise<void>;
  /** What a table kept on disk held at start; absent when the table is new. */
  readonly restored?: RestoredState;
  /** The reconcile interval in effect (after the time scale), ms. */
  readonly reconcileIntervalMs: number;
  readonly dynamodbEndpoint: string;
  readonly route53Endpoint: string;
  readonly secretsManagerEndpoint: string;
  readonly ssmEndpoint: string;
  readonly tableName: string;
  readonly route53: LocalRoute53;
  /** The local CloudWatch (every region): the votes' metrics and alarms the health checks follow. */
  readonly cloudWatch: LocalCloudWatch;
  readonly cloudWatchEndpoint: string;
  /**
   * What the probe regions and the evaluator are configured with for static failover, as the
   * cloud's functions are: STATIC_FAILOVER_DEPLOYMENT, PROBE_REGIONS and AWS_ENDPOINT_URL_CLOUDWATCH.
   */
  readonly staticFailoverEnvironment: Readonly<Record<string, string>>;
  /** `tm fault`: what is injected, and the switches. */
  readonly faults: LocalFaults;
  /** The fault control endpoint on 127.0.0.1 (faults.ts), recorded in the state file. */
  readonly controlEndpoint: string;
  readonly poller: StreamPoller;
  /** Status changes. */
  readonly events: readonly TransitionRecord[];
  /** Every event the evaluator emitted (status changes, refused changes, drift repairs). */
  readonly allEvents: readonly EvaluatorEvent[];
  /** Profiles as written to the table (hosted zone ids filled in). */
  readonly profiles: readonly Profile[];
  /** Stops one probe region's worker: it no longer probes nor heartbeats. */
  killRegion(region: string): Promise<void>;
  /** The evaluator's status items (what `tm status` prints). */
  statuses(): Promise<Map<string, StoredStatus>>;
  /** Runs the evaluator tick now (it also runs every minute × time scale). */
  tick(): Promise<void>;
  /** Rewrites the definitions: config flows through the table to the evaluator and the workers. */
  setProfiles(profiles: readonly Profile[]): Promise<void>;
  stop(): Promise<void>;
}

/** What `tm local` writes to its state file about a running stack: how `tm` finds and reaches it. */
export function statePointerOf(stack: LocalStack): Parameters<typeof writeStateFile>[0] {
  return {
    dnsPort: stack.dnsPort,
    route53Endpoint: stack.route53Endpoint,
    dynamodbEndpoint: stack.dynamodbEndpoint,
    tableName: stack.tableName,
    cloudWatchEndpoint: stack.cloudWatchEndpoint,
    controlEndpoint: stack.controlEndpoint,
    deployment: LOCAL_DEPLOYMENT,
  };
}

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const log = options.log ?? (() => undefined);
  const timeScale = options.timeScale ?? 1;
  const reconcileIntervalMs = (options.reconcileIntervalMs ?? DEFAULT_RECONCILE_INTERVAL_MS) * timeScale;
  const regions = [...(options.regions ?? DEFAULT_LOCAL_REGIONS)];
  const cleanup: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of cleanup.splice(0).reverse()) await stop().catch(() => undefined);
  };

  try {
    const { ddb, dynamodb, streams, streamArn, restored, logStoreError } = await startHomeTable({
      dataDirectory: options.dataDirectory,
      timeScale,
      log,
      stopping: options.stopping,
      onFatal: options.onFatal,
      cleanup,
    });

    const cloudWatch = await startLocalCloudWatch({
      timeScale,
      onError: (error) => log(`cloudwatch: ${(error as Error).message}`),
    });
    cleanup.push(() => cloudWatch.stop());
    // Health checks of the CLOUDWATCH_METRIC kind follow the local CloudWatch's alarms.
    const route53 = await startLocalRoute53({ alarmStates: cloudWatch });
    cleanup.push(() => route53.stop());
    const stopStatusMetrics = publishHealthCheckStatuses(route53, cloudWatch, { timeScale });
    cleanup.push(async () => stopStatusMetrics());
    const staticFailoverEnvironment = {
      [EnvironmentVariable.staticFailoverDeployment]: LOCAL_DEPLOYMENT,
      [EnvironmentVariable.probeRegions]: regions.join(','),
      [ENDPOINT_VARIABLE.cloudWatch]: cloudWatch.endpoint,
    };
    // Static failover, as the deployment runs it: the evaluator applies the structure and its tick
    // publishes the guard; each probe region votes into its own (local) CloudWatch.
    const staticFailover = staticFailoverDeps({
      deployment: LOCAL_DEPLOYMENT,
      tableName: LOCAL_TABLE_NAME,
      dynamodb: { endpoint: ddb.endpoint, region: 'us-east-1', credentials },
      route53: { endpoint: route53.endpoint, credentials },
      cloudWatch: { endpoint: cloudWatch.endpoint, credentials },
      onError: (error) =>
        logStoreError(`static failover: ${(error as Error).message} (retried on the next trigger)`, error),
    });
    // The home-region fault: the probe regions reach the home table through a client of their own that it switches off.
    let homeRegionDown = false;
    const probeDynamodb = dynamoDbClient({ endpoint: ddb.endpoint, region: 'us-east-1', credentials });
    refuseWhileHomeRegionDown(probeDynamodb, () => homeRegionDown);
    cleanup.push(async () => probeDynamodb.destroy());
    const secrets = await startHeaderSecretStandIns(options.secrets, log, cleanup);
    let profiles = withHostedZones(route53, options.profiles);

    const events: TransitionRecord[] = [];
    const allEvents: EvaluatorEvent[] = [];
    const now = () => Date.now();
    const store = new DynamoDbEvaluatorStore(dynamodb, LOCAL_TABLE_NAME);
    const deps: EvaluatorDeps = {
      store,
      zones: new Route53ZoneGateway(route53Client({ endpoint: route53.endpoint, credentials })),
      events: callbackSink((event) => {
        allEvents.push(event);
        if (isStatusEvent(event)) events.push(event.record);
        options.onEvent?.(event, profiles);
      }),
      metrics: noMetrics,
      now,
      timeScale,
      staticFailover,
      onPublishError: (error) => log(`events: ${(error as Error).message} (kept in the outbox, retried)`),
    };
    route53.onChange((_zone, changes) => options.onDnsChanges?.(changes));

    await syncConfig(dynamodb, LOCAL_TABLE_NAME, profiles, regions);
    // After the definitions: its reconcile is the first publish; DNS answers once it landed.
    const firstPublish = watchFirstPublish(now());
    await store.saveReconcileRequest({ requestedAt: firstPublish.requestedAt });
    const evaluator = createStreamHandler(() => deps, {
      onError: (error) =>
        logStoreError(`evaluator: ${(error as Error).message} (the batch will be retried)`, error),
    });
    const workers = new Map<string, LocalProbeRegion>();
    const poller = startStreamPoller({
      client: streams,
      streamArn,
      handler: async (event) => {
        // A runtime control (`tm endpoint disable` from another terminal) changes what is probed:
        // the workers re-plan from the effective config, as the cloud's probe handlers do each
        // minute — beside the evaluation, which does not wait for it.
        const replan = event.Records.some((r) => r.dynamodb?.Keys?.pk?.S === KeyPrefix.control)
          ? readEffectiveConfig(dynamodb, LOCAL_TABLE_NAME, now()).then((effective) => {
              for (const worker of workers.values()) worker.setProfiles(effective.profiles, regions);
            })
          : undefined;
        const [response] = await Promise.all([evaluator(event), replan]);
        firstPublish.observe(event, response);
        return response;
      },
      onError: (error) => logStoreError(`stream poller: ${(error as Error).message}`, error),
      paused: () => homeRegionDown,
      onDeadLetter: (record, reason) =>
        log(
          `evaluator: dead-lettered ${record.dynamodb?.Keys?.pk?.S}/${record.dynamodb?.Keys?.sk?.S}: ${reason}`,
        ),
    });
    cleanup.push(() => poller.stop());

    const prober = withHeaderSecrets(options.prober ?? probe, secrets.headerSecrets, {
      now: () => Date.now(),
    });
    for (const region of regions) {
      workers.set(
        region,
        startLocalProbeRegion({
          region,
          dynamodb: probeDynamodb,
          tableName: LOCAL_TABLE_NAME,
          profiles,
          defaultProbeRegions: regions,
          timeScale,
          prober,
          staticFailover: {
            deployment: LOCAL_DEPLOYMENT,
            votes: cloudWatchVoteSink(
              cloudWatchClient({ endpoint: cloudWatch.endpoint, region, credentials }),
            ),
          },
          logger: {
            warn: (message, fields) => {
              // The home-region fault was said once when injected, not per refused write.
              if (!isHomeRegionRefusal(fields['error']))
                logStoreError(`probe ${region}: ${message}`, fields['error']);
            },
          },
        }),
      );
    }
    cleanup.push(async () => {
      await Promise.all([...workers.values()].map((w) => w.stop()));
    });

    const tick = async () => {
      if (homeRegionDown) return;
      const outcome = await runTick({ store, metrics: noMetrics, now, reconcileIntervalMs, staticFailover });
      if (outcome.changed && outcome.stale.length > 0)
        log(`stale probe regions: ${outcome.stale.join(', ')}`);
    };
    const tickTimer = setInterval(
      () => void tick().catch((e) => logStoreError(`tick: ${(e as Error).message}`, e)),
      EVALUATOR_TICK_MS * timeScale,
    );
    cleanup.push(async () => clearInterval(tickTimer));

    const dns: DnsServer = await startDnsServer({
      zones: route53,
      port: options.dnsPort ?? 5353,
      ready: firstPublish.ready,
      ...(options.clientLocations === undefined ? {} : { locations: options.clientLocations }),
      onError: (error) => log(`dns: ${error.message}`),
    });
    cleanup.push(() => dns.stop());

    const faults = createLocalFaults(
      {
        regions,
        setRoute53ApiDown: (down) => route53.setApiDown(down),
        setHomeRegionDown: (down) => {
          homeRegionDown = down;
        },
        setRegionStopped: (region, stopped) => workers.get(region)?.setStopped(stopped),
      },
      (change) => log(`fault ${change.message}`),
    );
    const control = await startFaultControl({
      faults,
      config: () => ({ profiles, defaultProbeRegions: regions }),
      healthCheckStatus: (id) => {
        try {
          return route53.healthCheckStatus(id);
        } catch {
          return undefined;
        }
      },
    });
    cleanup.push(() => control.stop());

    return {
      dnsPort: dns.port,
      published: firstPublish.ready,
      ...(restored === undefined ? {} : { restored }),
      reconcileIntervalMs,
      dynamodbEndpoint: ddb.endpoint,
      route53Endpoint: route53.endpoint,
      cloudWatch,
      cloudWatchEndpoint: cloudWatch.endpoint,
      staticFailoverEnvironment,
      faults,
      controlEndpoint: control.endpoint,
      secretsManagerEndpoint: secrets.secretsManagerEndpoint,
      ssmEndpoint: secrets.ssmEndpoint,
      tableName: LOCAL_TABLE_NAME,
      route53,
      poller,
      events,
      allEvents,
      get profiles() {
        return profiles;
      },
      async killRegion(region) {
        await workers.get(region)?.stop();
        workers.delete(region);
      },
      statuses: () => store.loadStatuses(),
      tick,
      async setProfiles(next) {
        profiles = withHostedZones(route53, next);
        await syncConfig(dynamodb, LOCAL_TABLE_NAME, profiles, regions);
        // The workers plan from the table's profiles with the runtime controls, like the cloud's.
        const effective = await readEffectiveConfig(dynamodb, LOCAL_TABLE_NAME, now());
        for (const worker of workers.values()) worker.setProfiles(effective.profiles, regions);
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
