/**
 * The probe function's round handler (SQS event source; docs/adr/0001-probe-cadence.md).
 * Environment: TABLE_NAME, TABLE_REGION (the table's region when not the function's),
 * PROBE_REGION (default AWS_REGION), PROBE_REGIONS (comma list, fallback default probe
 * regions), PROBE_CONCURRENCY (default 800), HEARTBEAT_PERIOD_MS (default 60000);
 * PROBE_SHARD (this function's shard of the region, default 0);
 * AWS_LAMBDA_FUNCTION_MEMORY_SIZE (set by Lambda) is the vCPU share the round handler sizes by;
 * STATIC_FAILOVER_DEPLOYMENT (set: this region publishes static failover's votes to its own
 * CloudWatch, docs/adr/0011-static-failover.md);
 * AWS_ENDPOINT_URL_DYNAMODB for a local table. Header secrets are read from Secrets Manager and
 * SSM (parameters given by name in TABLE_REGION, the home region) and cached (header-secrets.ts).
 */
import { EnvironmentVariable as Env } from '../../shared/contracts/environment.js';
import { COMPACT_SPREAD } from '../../shared/probe/round-schedule.js';
import { awsClients, type AwsClients } from '../shared/aws-clients.js';
import { cachedEffectiveConfig } from '../shared/config-cache.js';
import {
  dynamoDbClientFromEnv,
  homeRegionFromEnv,
  positiveIntegerFromEnv,
  probeShardFromEnv,
  probeRegionFromEnv,
  probeRegionsFromEnv,
  staticFailoverDeploymentFromEnv,
  tableNameFromEnv,
} from '../shared/env.js';
import { logger } from '../shared/logger.js';
import { powertoolsMetrics } from '../shared/powertools-metrics.js';
import { dynamoDbCapacityStore } from './capacity-store.js';
import { DynamoDbProbeStateStore } from './dynamodb-state-store.js';
import { cloudWatchVoteSink } from './cloudwatch-vote-sink.js';
import { awsSecretSource, HeaderSecrets, withHeaderSecrets } from './header-secrets.js';
import { probe } from './probers/registry.js';
import { createRoundHandler, type RoundHandler } from './round-handler.js';
import { createProbeWorker, DEFAULT_HEARTBEAT_PERIOD_MS } from './worker.js';

/** Lambda gives a process 1,024 file descriptors; leave room for the SDK's sockets and the runtime. */
export const LAMBDA_PROBE_CONCURRENCY = 800;

const systemClock = { now: () => Date.now() };

function roundHandlerFromEnv(clients: AwsClients): RoundHandler {
  const dynamodb = dynamoDbClientFromEnv(clients);
  const tableName = tableNameFromEnv();
  const region = probeRegionFromEnv();
  const staticFailoverDeployment = staticFailoverDeploymentFromEnv();
  const worker = createProbeWorker({
    region,
    shard: probeShardFromEnv(),
    store: new DynamoDbProbeStateStore(dynamodb, tableName),
    prober: withHeaderSecrets(
      probe,
      new HeaderSecrets(
        awsSecretSource({ parameterRegion: homeRegionFromEnv(), clients }),
        systemClock,
        logger,
      ),
      systemClock,
    ),
    clock: systemClock,
    spread: COMPACT_SPREAD,
    concurrency: positiveIntegerFromEnv(Env.probeConcurrency, LAMBDA_PROBE_CONCURRENCY),
    heartbeatPeriodMs: positiveIntegerFromEnv(Env.heartbeatPeriodMs, DEFAULT_HEARTBEAT_PERIOD_MS),
    // Votes go to this region's own CloudWatch, where their alarms are.
    ...(staticFailoverDeployment === undefined
      ? {}
      : { votes: cloudWatchVoteSink(clients.cloudWatch({ region })) }),
    logger,
  });
  const effectiveConfig = cachedEffectiveConfig(dynamodb, tableName);
  // The function's memory size (MB) as Lambda sets it; undefined elsewhere.
  const memoryMb = Number(process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE);
  return createRoundHandler({
    worker,
    clock: systemClock,
    // Runtime controls apply: an endpoint disabled with `tm endpoint disable` is not probed.
    // A warm container re-reads the definitions only when they changed (config-cache.ts).
    loadConfig: () => effectiveConfig(Date.now()),
    fallbackProbeRegions: probeRegionsFromEnv(),
    ...(staticFailoverDeployment === undefined ? {} : { staticFailoverDeployment }),
    logger,
    memoryMb: Number.isFinite(memoryMb) && memoryMb > 0 ? memoryMb : undefined,
    metrics: powertoolsMetrics(),
    // The shard's measured CPU scale, by which the region's tick sizes it.
    capacity: dynamoDbCapacityStore(dynamodb, tableName),
  });
}

/**
 * The Lambda handler: one round per message, through a round handler built from the environment
 * with `clients` on the first message; the worker (and its rule states) lives as long as the warm
 * container. Each call gives a new container's handler.
 */
export function createProbeHandler(clients: AwsClients = awsClients): RoundHandler {
  let roundHandler: RoundHandler | undefined;
  return (event) => (roundHandler ??= roundHandlerFromEnv(clients))(event);
}

export const handler = createProbeHandler();
