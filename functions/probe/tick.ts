/**
 * The probe function's tick (EventBridge Scheduler `rate(1 minute)`;
 * docs/adr/0001-probe-cadence.md): when the region has targets, picks the region's shard
 * count from its requests and their CPU cost at the shards' memory size (`shardCountForLoad`),
 * that cost scaled by what the shards measured (their CAPACITY items, one Query a minute:
 * shared/probe/cpu-scale.ts), waits for the next whole second and puts the next minute's rounds on each shard's round
 * queue (`roundsToEnqueue`: exact whole-second delays; also the current minute's when this
 * container did not enqueue them). Without targets it sends nothing, so an idle region costs
 * one short invocation a minute.
 * Environment: TABLE_NAME, ROUND_QUEUE_URL (one per shard, comma list), PROBE_REGION
 * (default AWS_REGION), PROBE_REGIONS, PROBE_MEMORY_MB (default DEFAULT_PROBE_MEMORY_MB).
 */
import { EnvironmentVariable as Env } from '../../shared/contracts/environment.js';
import { chunked } from '../../shared/batches.js';
import type { Clock } from '../../shared/clock.js';
import { planProbes } from '../../shared/probe/plan.js';
import type { DeployedConfig } from '../shared/config-reader.js';
import { roundMessageEntries, type RoundMessageEntry } from '../../shared/probe/round-message.js';
import { roundPeriodMsOf, roundsToEnqueue, sendMomentOf } from '../../shared/probe/round-schedule.js';
import { regionCpuScale, shardCountWithHysteresis } from '../../shared/probe/cpu-scale.js';
import { DEFAULT_PROBE_MEMORY_MB, planLoadOf, shardCountForLoad } from '../../shared/probe/shard-capacity.js';
import type { Profile } from '../../shared/profile/types.js';
import { awsClients, type AwsClients } from '../shared/aws-clients.js';
import { cachedEffectiveConfig } from '../shared/config-cache.js';
import {
  dynamoDbClientFromEnv,
  listFromEnv,
  positiveIntegerFromEnv,
  probeRegionFromEnv,
  probeRegionsFromEnv,
  tableNameFromEnv,
} from '../shared/env.js';
import { MissingEnvironmentVariableError } from '../shared/errors.js';
import { logger } from '../shared/logger.js';
import { dynamoDbCapacityStore, type CapacityReader } from './capacity-store.js';
import { sqsRoundQueue, type RoundQueue } from './sqs-round-queue.js';

export interface TickResult {
  readonly targets: number;
  /** Shards that get the minute's rounds (0 without targets). */
  readonly shards: number;
  readonly roundPeriodMs: number | undefined;
  /** The shards' measured CPU scale the count was chosen with (undefined: none fresh, the constants alone). */
  readonly cpuScale?: number;
  readonly enqueued: readonly RoundMessageEntry[];
  /** The end of the span of rounds enqueued so far (epoch ms; undefined without targets). */
  readonly enqueuedUntil?: number;
}

/**
 * What the tick needs of a region's plan: its request count, its shard count by the constants
 * alone (before any measurement), its round period and, with targets, its `load` (requests and
 * one round's predicted CPU: what the count is chosen from).
 */
export function tickPlan(
  profiles: readonly Profile[],
  region: string,
  defaultProbeRegions: readonly string[],
  maxShards = 1,
  probeMemoryMb = DEFAULT_PROBE_MEMORY_MB,
) {
  const targets = planProbes(profiles, region, defaultProbeRegions);
  const roundPeriodMs = roundPeriodMsOf(targets);
  if (roundPeriodMs === undefined) return { targets: 0, shards: 0, roundPeriodMs };
  const load = planLoadOf(targets, roundPeriodMs);
  const shards = shardCountForLoad(load, maxShards, probeMemoryMb);
  return { targets: targets.length, shards, roundPeriodMs, load };
}

type TickPlan = ReturnType<typeof tickPlan>;

/**
 * The round messages for a region's plan, sent at `sendAt` (a whole second: `sendMomentOf`),
 * after rounds enqueued until `enqueuedUntil`; none when the region has no targets.
 */
export function tickMessagesOf(plan: TickPlan, sendAt: number, enqueuedUntil?: number): TickResult {
  const { roundPeriodMs, shards } = plan;
  if (roundPeriodMs === undefined) return { ...plan, enqueued: [] };
  const next = roundsToEnqueue(sendAt, roundPeriodMs, enqueuedUntil);
  return {
    ...plan,
    enqueued: roundMessageEntries(next.rounds, roundPeriodMs, shards),
    enqueuedUntil: next.enqueuedUntil,
  };
}

/** SQS takes at most 10 entries per SendMessageBatch. */
const SQS_BATCH_MAX = 10;

export interface TickDeps {
  readonly region: string;
  readonly clock: Clock;
  /** One round queue per shard, in shard order; their count caps the region's shards. */
  readonly queues: readonly RoundQueue[];
  readonly loadConfig: () => Promise<DeployedConfig>;
  readonly fallbackProbeRegions: readonly string[];
  /** The shard functions' memory size (MB). @default DEFAULT_PROBE_MEMORY_MB */
  readonly probeMemoryMb?: number;
  /** Waits until the whole second the rounds are sent at. @default setTimeout */
  readonly sleep?: (ms: number) => Promise<void>;
  /** The shards' measured CPU scales; none: sized by the constants alone. */
  readonly capacity?: CapacityReader;
  /** Told when the capacity read fails (the count then stays as it was). @default console */
  readonly logger?: { warn(message: string, fields: Record<string, unknown>): void };
}

export function createTickHandler(deps: TickDeps): () => Promise<TickResult> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let planned: { config: unknown; plan: TickPlan } | undefined;
  /** The end of the rounds this container enqueued (unknown in a new one). */
  let enqueuedUntil: number | undefined;
  /** The count this container chose last (unknown in a new one). */
  let shards: number | undefined;
  const memoryMb = deps.probeMemoryMb ?? DEFAULT_PROBE_MEMORY_MB;
  const log = deps.logger ?? console;

  /**
   * The count for this minute: the constants' count scaled by the shards' worst fresh measured
   * scale, growing at once and shrinking only with headroom; a failed read keeps the count.
   */
  async function shardCount(plan: TickPlan, now: number): Promise<{ shards: number; cpuScale?: number }> {
    const { load } = plan;
    if (deps.capacity === undefined || load === undefined) return { shards: plan.shards };
    let measured: ReturnType<typeof regionCpuScale>;
    try {
      measured = regionCpuScale(await deps.capacity.read(deps.region), now, deps.queues.length);
    } catch (error) {
      log.warn('reading the shards’ measured CPU failed; the shard count stays', { error: String(error) });
      return { shards: shards ?? plan.shards };
    }
    const scale = measured?.scale ?? 1;
    const needed = (at: number) => shardCountForLoad(load, deps.queues.length, memoryMb, at);
    const uncapped = shardCountForLoad(load, Number.MAX_SAFE_INTEGER, memoryMb, scale);
    if (uncapped > deps.queues.length)
      log.warn('the region needs more shards than it has: its rounds start late', {
        region: deps.region,
        shardsNeeded: uncapped,
        shards: deps.queues.length,
        cpuScale: scale,
        requests: load.requests,
      });
    return {
      shards: shardCountWithHysteresis(needed, scale, shards ?? measured?.shards),
      cpuScale: measured?.scale,
    };
  }

  return async () => {
    const config = await deps.loadConfig();
    // The same config object as last time (nothing changed: config-cache.ts) keeps the plan.
    if (planned?.config !== config) {
      const defaults =
        config.defaultProbeRegions.length > 0 ? config.defaultProbeRegions : deps.fallbackProbeRegions;
      planned = {
        config,
        plan: tickPlan(config.profiles, deps.region, defaults, deps.queues.length, deps.probeMemoryMb),
      };
    }
    if (planned.plan.roundPeriodMs === undefined) return tickMessagesOf(planned.plan, deps.clock.now());
    // Sent on a whole second, every delay is exact (a wait of < 1 s at the tick's 128 MB).
    const now = deps.clock.now();
    const sendAt = sendMomentOf(now);
    if (sendAt > now) await sleep(sendAt - now);
    const sized = await shardCount(planned.plan, now);
    const result = {
      ...tickMessagesOf({ ...planned.plan, shards: sized.shards }, sendAt, enqueuedUntil),
      ...sized,
    };
    const batches = chunked(result.enqueued, SQS_BATCH_MAX);
    await Promise.all(
      deps.queues.slice(0, result.shards).flatMap((queue) => batches.map((batch) => queue.sendRounds(batch))),
    );
    enqueuedUntil = result.enqueuedUntil;
    shards = result.shards;
    return result;
  };
}

/** The Lambda handler, built from the environment with `clients` on its first successful call. */
export function tickHandlerFromEnv(clients: AwsClients = awsClients): () => Promise<TickResult> {
  let tick: (() => Promise<TickResult>) | undefined;
  return async () => {
    if (tick === undefined) {
      const queueUrls = listFromEnv(Env.roundQueueUrl);
      if (queueUrls.length === 0)
        throw new MissingEnvironmentVariableError(
          Env.roundQueueUrl,
          'the URLs of the round queues, one per shard',
        );
      const dynamodb = dynamoDbClientFromEnv(clients);
      const tableName = tableNameFromEnv();
      const effectiveConfig = cachedEffectiveConfig(dynamodb, tableName);
      tick = createTickHandler({
        region: probeRegionFromEnv(),
        clock: { now: () => Date.now() },
        queues: queueUrls.map((url) => sqsRoundQueue(url, clients.sqs())),
        // Runtime controls apply: an endpoint disabled with `tm endpoint disable` is not probed.
        // A warm container re-reads the definitions only when they changed (config-cache.ts).
        loadConfig: () => effectiveConfig(Date.now()),
        fallbackProbeRegions: probeRegionsFromEnv(),
        probeMemoryMb: positiveIntegerFromEnv(Env.probeMemoryMb, DEFAULT_PROBE_MEMORY_MB),
        capacity: dynamoDbCapacityStore(dynamodb, tableName),
        logger,
      });
    }
    return tick();
  };
}

export const tickHandler = tickHandlerFromEnv();
