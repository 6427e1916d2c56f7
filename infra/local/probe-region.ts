/**
 * One probe "region" of the local stack (`tm local`): a worker writing to the local
 * table like the real probe function, driven by the local round timer, with every
 * duration multiplied by the time scale.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { planProbes } from '../../shared/probe/plan.js';
import type { Prober } from '../../shared/probe/target.js';
import type { Profile } from '../../shared/profile/types.js';
import { DynamoDbProbeStateStore } from '../../functions/probe/dynamodb-state-store.js';
import { startRoundScheduler, type RoundScheduler } from './round-scheduler.js';
import { probe } from '../../functions/probe/probers/registry.js';
import {
  createProbeWorker,
  type ProbeWorker,
  type RoundReport,
  type VerdictChange,
  type VoteSink,
  type WorkerLogger,
} from '../../functions/probe/worker.js';
import { voteTargetsOf } from '../../shared/static-failover/votes.js';

export interface LocalProbeRegionOptions {
  readonly region: string;
  readonly dynamodb: DynamoDBClient;
  readonly tableName: string;
  readonly profiles: readonly Profile[];
  readonly defaultProbeRegions: readonly string[];
  /** @default 1 */
  readonly timeScale?: number;
  /** @default the production probers */
  readonly prober?: Prober;
  /** @default 60 s (before the time scale) */
  readonly heartbeatPeriodMs?: number;
  readonly onVerdictChange?: (change: VerdictChange) => void;
  readonly onRound?: (report: RoundReport) => void;
  readonly logger?: WorkerLogger;
  /** Static failover: this region's votes go to `votes` for the targets of `deployment`. @default - no votes */
  readonly staticFailover?: { readonly deployment: string; readonly votes: VoteSink };
}

export interface LocalProbeRegion {
  readonly worker: ProbeWorker;
  readonly scheduler: RoundScheduler;
  /** Re-plans after a definitions change; rule states of targets that remain are kept. */
  setProfiles(profiles: readonly Profile[], defaultProbeRegions?: readonly string[]): void;
  /** A stopped region (the `region:NAME` fault) skips its rounds: it probes, writes and publishes nothing. */
  setStopped(stopped: boolean): void;
  /** Stops the timer and waits for the rounds in progress (a "killed region" stops heartbeating). */
  stop(): Promise<void>;
}

export function startLocalProbeRegion(options: LocalProbeRegionOptions): LocalProbeRegion {
  let defaults = options.defaultProbeRegions;
  const worker = createProbeWorker({
    region: options.region,
    store: new DynamoDbProbeStateStore(options.dynamodb, options.tableName),
    prober: options.prober ?? probe,
    clock: { now: () => Date.now() },
    timeScale: options.timeScale ?? 1,
    ...(options.heartbeatPeriodMs === undefined ? {} : { heartbeatPeriodMs: options.heartbeatPeriodMs }),
    ...(options.onVerdictChange === undefined ? {} : { onVerdictChange: options.onVerdictChange }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.staticFailover === undefined ? {} : { votes: options.staticFailover.votes }),
  });
  const plan = (profiles: readonly Profile[]) => {
    worker.setTargets(planProbes(profiles, options.region, defaults));
    if (options.staticFailover !== undefined)
      worker.setVoteTargets(
        voteTargetsOf(
          profiles,
          { deployment: options.staticFailover.deployment, defaultProbeRegions: defaults },
          options.region,
        ),
      );
  };
  plan(options.profiles);
  let stopped = false;
  const scheduler = startRoundScheduler({
    roundPeriodMs: () => worker.roundPeriodMs(),
    runRound: async (dueAt, period) => {
      if (stopped) return;
      // Not `onRound?.(await …)`: optional chaining would skip the round itself when onRound is absent.
      const report = await worker.runRound(dueAt, period);
      options.onRound?.(report);
    },
    onError: (error) =>
      (options.logger ?? console).warn('probe round failed', {
        region: options.region,
        error: String(error),
      }),
  });
  return {
    worker,
    scheduler,
    setProfiles(profiles, defaultProbeRegions) {
      defaults = defaultProbeRegions ?? defaults;
      plan(profiles);
    },
    setStopped(value) {
      stopped = value;
    },
    stop: () => scheduler.stop(),
  };
}
