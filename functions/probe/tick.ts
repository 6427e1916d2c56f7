/**
 * The probe function's tick (EventBridge Scheduler `rate(1 minute)`;
 * docs/adr/0001-probe-cadence.md): when the region has targets, picks the region's shard
 * count from its requests and their CPU cost at the shards' memory size (`shardCountForPlan`),
 * waits for the next whole second and puts the next minute's rounds on each shard's round
 * queue (`roundsToEnqueue`: exact whole-second delays; also the current minute's when this
 * container did not enqueue them). Without targets it sends nothing, so an idle region costs
 * one short invocation a minute.
 * Environment: TABLE_NAME, ROUND_QUEUE_URL (one per shard, comma list), PROBE_REGION
 * (default AWS_REGION), PROBE_REGIONS, PROBE_MEMORY_MB (default DEFAULT_PROBE_MEMORY_MB).
 */
import { EnvironmentVariable as Env } from '../../shared/contracts/environment.js';
import type { Clock } from '../../shared/clock.js';
import { planProbes } from '../../shared/probe/plan.js';
import { roundMessageEntries, type RoundMessageEntry } from '../../shared/probe/round-message.js';
import { roundPeriodMsOf, roundsToEnqueue, sendMomentOf } from '../../shared/probe/round-schedule.js';
import { DEFAULT_PROBE_MEMORY_MB, shardCountForPlan } from '../../shared/probe/shard-capacity.js';
import type { Profile } from '../../shared/profile/types.js';
import { cachedEffectiveConfig } from '../shared/config-cache.js';
import {
  dynamoDbClientFromEnv,
  positiveIntegerFromEnv,
  probeRegionFromEnv,
  probeRegionsFromEnv,
  tableNameFromEnv,
} from '../shared/env.js';
import { MissingEnvironmentVariableError } from '../shared/errors.js';
import type { RoundQueue } from './round-queue.js';
import { sqsRoundQueue } from './sqs-round-queue.js';

export interface TickResult {
  readonly targets: number;
  /** Shards that get the minute's rounds (0 without targets). */
  readonly shards: number;
  readonly roundPeriodMs: number | undefined;
  readonly enqueued: readonly RoundMessageEntry[];
  /** The end of the span of rounds enqueued so far (epoch ms; undefined without targets). */
  readonly enqueuedUntil?: number;
}

/** What the tick needs of a region's plan: its request count, shard count and round period. */
export interface TickPlan {
  readonly targets: number;
  readonly shards: number;
  readonly roundPeriodMs: number | undefined;
}

export function tickPlan(
  profiles: readonly Profile[],
  region: string,
  defaultProbeRegions: readonly string[],
  maxShards = 1,
  probeMemoryMb = DEFAULT_PROBE_MEMORY_MB,
): TickPlan {
  const targets = planProbes(profiles, region, defaultProbeRegions);
  const roundPeriodMs = roundPeriodMsOf(targets);
  if (roundPeriodMs === undefined) return { targets: 0, shards: 0, roundPeriodMs };
  const shards = shardCountForPlan(targets, roundPeriodMs, maxShards, probeMemoryMb);
  return { targets: targets.length, shards, roundPeriodMs };
}

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

export function tickMessages(
  profiles: readonly Profile[],
  region: string,
  defaultProbeRegions: readonly string[],
  sendAt: number,
  maxShards = 1,
  probeMemoryMb = DEFAULT_PROBE_MEMORY_MB,
  enqueuedUntil?: number,
): TickResult {
  return tickMessagesOf(
    tickPlan(profiles, region, defaultProbeRegions, maxShards, probeMemoryMb),
    sendAt,
    enqueuedUntil,
  );
}

/** SQS takes at most 10 entries per SendMessageBatch. */
const SQS_BATCH_MAX = 10;

export interface TickDeps {
  readonly region: string;
  readonly clock: Clock;
  /** One round queue per shard, in shard order; their count caps the region's shards. */
  readonly queues: readonly RoundQueue[];
  readonly loadConfig: () => Promise<{
    profiles: readonly Profile[];
    defaultProbeRegions: readonly string[];
  }>;
  readonly fallbackProbeRegions: readonly string[];
  /** The shard functions' memory size (MB). @default DEFAULT_PROBE_MEMORY_MB */
  readonly probeMemoryMb?: number;
  /** Waits until the whole second the rounds are sent at. @default setTimeout */
  readonly sleep?: (ms: number) => Promise<void>;
}

export function createTickHandler(deps: TickDeps): () => Promise<TickResult> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let planned: { config: unknown; plan: TickPlan } | undefined;
  /** The end of the rounds this container enqueued (unknown in a new one). */
  let enqueuedUntil: number | undefined;
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
    const result = tickMessagesOf(planned.plan, sendAt, enqueuedUntil);
    const batches: RoundMessageEntry[][] = [];
    for (let i = 0; i < result.enqueued.length; i += SQS_BATCH_MAX)
      batches.push(result.enqueued.slice(i, i + SQS_BATCH_MAX));
    await Promise.all(
      deps.queues.slice(0, result.shards).flatMap((queue) => batches.map((batch) => queue.sendRounds(batch))),
    );
    enqueuedUntil = result.enqueuedUntil;
    return result;
  };
}

let tick: (() => Promise<TickResult>) | undefined;

export const tickHandler = async (): Promise<TickResult> => {
  if (tick === undefined) {
    const queueUrls = (process.env[Env.roundQueueUrl] ?? '')
      .split(',')
      .map((url) => url.trim())
      .filter((url) => url.length > 0);
    if (queueUrls.length === 0)
      throw new MissingEnvironmentVariableError(
        Env.roundQueueUrl,
        'the URLs of the round queues, one per shard',
      );
    const dynamodb = dynamoDbClientFromEnv();
    const effectiveConfig = cachedEffectiveConfig(dynamodb, tableNameFromEnv());
    tick = createTickHandler({
      region: probeRegionFromEnv(),
      clock: { now: () => Date.now() },
      queues: queueUrls.map((url) => sqsRoundQueue(url)),
      // Runtime controls apply: an endpoint disabled with `tm endpoint disable` is not probed.
      // A warm container re-reads the definitions only when they changed (config-cache.ts).
      loadConfig: () => effectiveConfig(Date.now()),
      fallbackProbeRegions: probeRegionsFromEnv(),
      probeMemoryMb: positiveIntegerFromEnv(Env.probeMemoryMb, DEFAULT_PROBE_MEMORY_MB),
    });
  }
  return tick();
};
