/**
 * The probe function's tick (EventBridge Scheduler `rate(1 minute)`;
 * docs/adr/0001-probe-cadence.md): when the region has targets, puts the minute's rounds
 * on the round queue as one SendMessageBatch with DelaySeconds 0/10/…/50 (or 0/30).
 * Without targets it sends nothing, so an idle region costs one short invocation a minute.
 * Environment: TABLE_NAME, ROUND_QUEUE_URL, PROBE_REGION (default AWS_REGION), PROBE_REGIONS.
 */
import { EnvironmentVariable as Env } from '../../shared/contracts/environment.js';
import type { Clock } from '../../shared/clock.js';
import { planProbes } from '../../shared/probe/plan.js';
import { roundMessageEntries, type RoundMessageEntry } from '../../shared/probe/round-message.js';
import { roundPeriodMsOf, roundsOfMinute } from '../../shared/probe/round-schedule.js';
import type { Profile } from '../../shared/profile/types.js';
import { readEffectiveConfig } from '../shared/config-reader.js';
import {
  dynamoDbClientFromEnv,
  probeRegionFromEnv,
  probeRegionsFromEnv,
  tableNameFromEnv,
} from '../shared/env.js';
import { MissingEnvironmentVariableError } from '../shared/errors.js';
import type { RoundQueue } from './round-queue.js';
import { sqsRoundQueue } from './sqs-round-queue.js';

export interface TickResult {
  readonly targets: number;
  readonly roundPeriodMs: number | undefined;
  readonly enqueued: readonly RoundMessageEntry[];
}

/** The minute's round messages for a region's plan at `now`; none when the region has no targets. */
export function tickMessages(
  profiles: readonly Profile[],
  region: string,
  defaultProbeRegions: readonly string[],
  now: number,
): TickResult {
  const targets = planProbes(profiles, region, defaultProbeRegions);
  const roundPeriodMs = roundPeriodMsOf(targets);
  if (roundPeriodMs === undefined) return { targets: 0, roundPeriodMs, enqueued: [] };
  return {
    targets: targets.length,
    roundPeriodMs,
    enqueued: roundMessageEntries(roundsOfMinute(now, roundPeriodMs), roundPeriodMs),
  };
}

export interface TickDeps {
  readonly region: string;
  readonly clock: Clock;
  readonly queue: RoundQueue;
  readonly loadConfig: () => Promise<{
    profiles: readonly Profile[];
    defaultProbeRegions: readonly string[];
  }>;
  readonly fallbackProbeRegions: readonly string[];
}

export function createTickHandler(deps: TickDeps): () => Promise<TickResult> {
  return async () => {
    const config = await deps.loadConfig();
    const defaults =
      config.defaultProbeRegions.length > 0 ? config.defaultProbeRegions : deps.fallbackProbeRegions;
    const result = tickMessages(config.profiles, deps.region, defaults, deps.clock.now());
    if (result.enqueued.length > 0) await deps.queue.sendRounds(result.enqueued);
    return result;
  };
}

let tick: (() => Promise<TickResult>) | undefined;

export const tickHandler = async (): Promise<TickResult> => {
  if (tick === undefined) {
    const queueUrl = process.env[Env.roundQueueUrl]?.trim();
    if (!queueUrl) throw new MissingEnvironmentVariableError(Env.roundQueueUrl, 'the URL of the round queue');
    const dynamodb = dynamoDbClientFromEnv();
    const tableName = tableNameFromEnv();
    tick = createTickHandler({
      region: probeRegionFromEnv(),
      clock: { now: () => Date.now() },
      queue: sqsRoundQueue(queueUrl),
      // Runtime controls apply: an endpoint disabled with `tm endpoint disable` is not probed.
      loadConfig: () => readEffectiveConfig(dynamodb, tableName, Date.now()),
      fallbackProbeRegions: probeRegionsFromEnv(),
    });
  }
  return tick();
};
