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
import { startRoundScheduler } from './round-scheduler.js';
import { probe } from '../../functions/probe/probers/registry.js';
import { createProbeWorker, type VoteSink, type WorkerLogger } from '../../functions/probe/worker.js';
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
  readonly logger?: WorkerLogger;
  /** Static failover: this region's votes go to `votes` for the targets of `deployment`. @default - no votes */
  readonly staticFailover?: { readonly deployment: string; readonly votes: VoteSink };
}

export type LocalProbeRegion = ReturnType<typeof startLocalProbeRegion>;

export function startLocalProbeRegion(options: LocalProbeRegionOptions) {
  const worker = createProbeWorker({
    region: options.region,
    store: new DynamoDbProbeStateStore(options.dynamodb, options.tableName),
    prober: options.prober ?? probe,
    clock: { now: () => Date.now() },
    timeScale: options.timeScale ?? 1,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.staticFailover === undefined ? {} : { votes: options.staticFailover.votes }),
  });
  const plan = (profiles: readonly Profile[]) => {
    worker.setTargets(planProbes(profiles, options.region, options.defaultProbeRegions));
    if (options.staticFailover !== undefined)
      worker.setVoteTargets(
        voteTargetsOf(
          profiles,
          { deployment: options.staticFailover.deployment, defaultProbeRegions: options.defaultProbeRegions },
          options.region,
        ),
      );
  };
  plan(options.profiles);
  let stopped = false;
  const scheduler = startRoundScheduler({
    roundPeriodMs: () => worker.roundPeriodMs(),
    runRound: async (dueAt, period) => {
      if (!stopped) await worker.runRound(dueAt, period);
    },
    onError: (error) =>
      (options.logger ?? console).warn('probe round failed', {
        region: options.region,
        error: String(error),
      }),
  });
  return {
    /** Re-plans after a definitions change; rule states of targets that remain are kept. */
    setProfiles: plan,
    /** A stopped region (the `region:NAME` fault) skips its rounds: it probes, writes and publishes nothing. */
    setStopped(value: boolean) {
      stopped = value;
    },
    /** Stops the timer and waits for the rounds in progress (a "killed region" stops heartbeating). */
    stop: () => scheduler.stop(),
  };
}
