/**
 * `tm local`: the whole system on this machine, with the production code paths —
 * DynamoDB Local (real stream) → evaluator handler driven by a stream poller → the local
 * Route 53 through the real SDK client → an authoritative DNS server answering from that
 * zone; one probe worker per region name writing like the real ones; the evaluator tick.
 * Every duration (interval, timeout, heartbeat, staleness, tick, reconcile interval) is multiplied by the time scale.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DEFAULT_LOCAL_REGIONS } from './regions.js';
import { syncConfig } from '../../functions/config-writer/sync.js';
import type { EvaluatorEvent } from '../../functions/evaluator/ports.js';
import { DEFAULT_RECONCILE_INTERVAL_MS } from '../../functions/evaluator/reconcile-interval.js';
import { startLocalProbeRegion, type LocalProbeRegion } from './probe-region.js';
import type { Prober } from '../../shared/probe/target.js';
import type { Profile } from '../../shared/profile/types.js';
import type { Change } from '../../shared/zone/record-set.js';
import { startDnsServer, type ClientLocationTable, type DnsServer } from './dns/index.js';
import { startLocalEvaluator } from './evaluator.js';
import {
  LOCAL_CREDENTIALS as credentials,
  LOCAL_TABLE_NAME,
  startHomeTable,
  type HomeTable,
} from './home-table.js';
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
} from './faults.js';
import type { writeStateFile } from './state-file.js';
import { cloudWatchClient, dynamoDbClient } from '../../functions/shared/aws-clients.js';
import { cloudWatchVoteSink } from '../../functions/probe/cloudwatch-vote-sink.js';
import { readEffectiveConfig } from '../../functions/shared/config-reader.js';
import { withHeaderSecrets, type HeaderSecrets } from '../../functions/probe/header-secrets.js';
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

/** A running local stack, as startLocalStack returns it (each member's doc on the returned object). */
export type LocalStack = Awaited<ReturnType<typeof startLocalStack>>;

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

export async function startLocalStack(options: LocalStackOptions) {
  const log = options.log ?? (() => undefined);
  const timeScale = options.timeScale ?? 1;
  const reconcileIntervalMs = (options.reconcileIntervalMs ?? DEFAULT_RECONCILE_INTERVAL_MS) * timeScale;
  const regions = [...(options.regions ?? DEFAULT_LOCAL_REGIONS)];
  const cleanup: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of cleanup.splice(0).reverse()) await stop().catch(() => undefined);
  };

  try {
    const home = await startHomeTable({
      dataDirectory: options.dataDirectory,
      timeScale,
      log,
      stopping: options.stopping,
      onFatal: options.onFatal,
      cleanup,
    });
    const { dynamodb, logStoreError } = home;
    const { cloudWatch, route53 } = await startCloudWatchAndRoute53(timeScale, log, cleanup);
    // The home-region fault: the probe regions reach the home table through a client of their own that it switches off.
    let homeRegionDown = false;
    const probeDynamodb = dynamoDbClient({ endpoint: home.ddb.endpoint, region: 'us-east-1', credentials });
    refuseWhileHomeRegionDown(probeDynamodb, () => homeRegionDown);
    cleanup.push(async () => probeDynamodb.destroy());
    const headerSecrets = await startHeaderSecretStandIns(options.secrets, log, cleanup);
    let profiles = withHostedZones(route53, options.profiles);
    route53.onChange((_zone, changes) => options.onDnsChanges?.(changes));

    const workers = new Map<string, LocalProbeRegion>();
    // The workers plan from the table's profiles with the runtime controls, like the cloud's.
    const replanWorkers = async () => {
      const effective = await readEffectiveConfig(dynamodb, LOCAL_TABLE_NAME, Date.now());
      for (const worker of workers.values()) worker.setProfiles(effective.profiles);
    };
    const evaluator = await startLocalEvaluator({
      home,
      route53,
      cloudWatch,
      deployment: LOCAL_DEPLOYMENT,
      regions,
      timeScale,
      reconcileIntervalMs,
      profiles,
      onEvent: (event) => options.onEvent?.(event, profiles),
      replanWorkers,
      homeRegionDown: () => homeRegionDown,
      log,
      cleanup,
    });
    startProbeRegions(workers, {
      regions,
      dynamodb: probeDynamodb,
      profiles,
      timeScale,
      prober: options.prober,
      headerSecrets,
      cloudWatch,
      logStoreError,
      cleanup,
    });

    const tickTimer = setInterval(
      () => void evaluator.tick().catch((e) => logStoreError(`tick: ${(e as Error).message}`, e)),
      EVALUATOR_TICK_MS * timeScale,
    );
    cleanup.push(async () => clearInterval(tickTimer));

    const dns: DnsServer = await startDnsServer({
      zones: route53,
      port: options.dnsPort ?? 5353,
      ready: evaluator.published,
      ...(options.clientLocations === undefined ? {} : { locations: options.clientLocations }),
      onError: (error) => log(`dns: ${error.message}`),
    });
    cleanup.push(() => dns.stop());

    // `tm fault`'s switches, and the control endpoint on 127.0.0.1 it reaches them through.
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
      healthCheckStatus: route53.healthCheckStatus,
    });
    cleanup.push(() => control.stop());

    return {
      dnsPort: dns.port,
      /** Resolves once the first publish has landed: DNS answers SERVFAIL until then. */
      published: evaluator.published,
      // What a table kept on disk held at start; absent when the table is new.
      ...(home.restored === undefined ? {} : { restored: home.restored }),
      /** The reconcile interval in effect (after the time scale), ms. */
      reconcileIntervalMs,
      dynamodbEndpoint: home.ddb.endpoint,
      route53Endpoint: route53.endpoint,
      cloudWatchEndpoint: cloudWatch.endpoint,
      /** `tm fault`: what is injected, and the switches. */
      faults,
      /** The fault control endpoint on 127.0.0.1 (faults.ts), recorded in the state file. */
      controlEndpoint: control.endpoint,
      tableName: LOCAL_TABLE_NAME,
      route53,
      poller: evaluator.poller,
      /** Status changes. */
      events: evaluator.events,
      /** Every event the evaluator emitted (status changes, refused changes, drift repairs). */
      allEvents: evaluator.allEvents,
      /** Profiles as written to the table (hosted zone ids filled in). */
      get profiles() {
        return profiles;
      },
      /** Runs the evaluator tick now (it also runs every minute × time scale). */
      tick: evaluator.tick,
      /** Rewrites the definitions: config flows through the table to the evaluator and the workers. */
      async setProfiles(next: readonly Profile[]) {
        profiles = withHostedZones(route53, next);
        await syncConfig(dynamodb, LOCAL_TABLE_NAME, profiles, regions);
        await replanWorkers();
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The local CloudWatch and Route 53; the health checks' statuses go to the CloudWatch as metrics. */
async function startCloudWatchAndRoute53(
  timeScale: number,
  log: (line: string) => void,
  cleanup: (() => Promise<void>)[],
): Promise<{ cloudWatch: LocalCloudWatch; route53: LocalRoute53 }> {
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
  return { cloudWatch, route53 };
}

/** One probe worker per region, into `workers`; each region votes into its own (local) CloudWatch. */
function startProbeRegions(
  workers: Map<string, LocalProbeRegion>,
  options: {
    readonly regions: readonly string[];
    readonly dynamodb: DynamoDBClient;
    readonly profiles: readonly Profile[];
    readonly timeScale: number;
    readonly prober: Prober | undefined;
    readonly headerSecrets: HeaderSecrets;
    readonly cloudWatch: LocalCloudWatch;
    readonly logStoreError: HomeTable['logStoreError'];
    readonly cleanup: (() => Promise<void>)[];
  },
): void {
  const { regions, cloudWatch, logStoreError } = options;
  const prober = withHeaderSecrets(options.prober ?? probe, options.headerSecrets, {
    now: () => Date.now(),
  });
  for (const region of regions) {
    workers.set(
      region,
      startLocalProbeRegion({
        region,
        dynamodb: options.dynamodb,
        tableName: LOCAL_TABLE_NAME,
        profiles: options.profiles,
        defaultProbeRegions: regions,
        timeScale: options.timeScale,
        prober,
        staticFailover: {
          deployment: LOCAL_DEPLOYMENT,
          votes: cloudWatchVoteSink(cloudWatchClient({ endpoint: cloudWatch.endpoint, region, credentials })),
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
  options.cleanup.push(async () => {
    await Promise.all([...workers.values()].map((w) => w.stop()));
  });
}
