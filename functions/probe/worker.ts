/**
 * One probe region's worker: runs rounds, sends each planned request once per round it is
 * due in, lets every judge due in that round judge the result by its own settings, keeps
 * each judge's rule state in memory, and writes only what the evaluator needs
 * (docs/adr/0002-table-layout.md):
 * - a VerdictItem when the region's verdict of a judge changes (also the first
 *   decision), in the same round, as soon as the deciding check ends — and, for a judge
 *   with `requiredSuccessesToRecover`, on each success of a down region short of it (the
 *   same verdict and `since`, the progress in its detail);
 * - the shard's HeartbeatItem once per heartbeat period, or earlier when the
 *   checkpoint (rule states the verdict alone cannot restore) changed, so that a
 *   replaced worker continues the counts exactly; it carries the period's latencies as a
 *   histogram for ProbeLatency (shared/monitor/latency-histogram.ts) and stays within a
 *   write unit or two whatever the number of targets;
 * - every SUMMARY_EVERY_PERIODS heartbeat periods, each judge's checks of its last period
 *   (shared/monitor/check-summary.ts) for `tm status`, positional over the shard's judge
 *   list (written when that list changes);
 * - the certificate each HTTPS judge last saw (shared/monitor/certificate-summary.ts) at the
 *   end of a round in which one changed (first seen, renewed, dropped).
 * A failed write is kept and retried at the start of the next round; a restarted worker
 * restores its rule states from the table before its first round.
 *
 * The parts, each with one job (functions/probe/worker/): the round runner (round-runner.ts)
 * and one request's check (checks.ts); the rule-state keeper (rule-states.ts) and the check
 * records beside it (check-records.ts), restored by restore.ts; the writers of verdicts
 * (verdict-writer.ts), of the heartbeat (heartbeat-writer.ts) and of the summaries and
 * certificates (summary-writer.ts); the vote publisher of static failover (vote-publisher.ts),
 * when the worker is given a vote sink. This file holds the plan of the shard and wires them.
 */
import type { Clock } from '../../shared/clock.js';
import { FAST_INTERVAL_MS, roundPeriodMsOf, type SpreadPolicy } from '../../shared/probe/round-schedule.js';
import type { ProbeResult } from '../../shared/probe/result.js';
import { isInShard } from '../../shared/probe/shards.js';
import type { PlannedJudge, PlannedProbe, Prober } from '../../shared/probe/target.js';
import { VOTE_PERIOD_SECONDS } from '../../shared/monitor/failover-time.js';
import type { VoteMetric } from '../../shared/static-failover/votes.js';
import type { VerdictItem } from '../../shared/state/items.js';
import { concurrencyLimit } from '../shared/concurrency.js';
import type { ProbeStateStore } from './dynamodb-state-store.js';
import { CheckRecords } from './worker/check-records.js';
import { Checker } from './worker/checks.js';
import { HeartbeatWriter } from './worker/heartbeat-writer.js';
import { DEFAULT_CONCURRENCY, DEFAULT_HEARTBEAT_PERIOD_MS, MAX_CHECKPOINT_ENTRIES } from './worker/limits.js';
import { restoreMissingStates } from './worker/restore.js';
import { createRoundRunner, RoundPlan } from './worker/round-runner.js';
import { RuleStates } from './worker/rule-states.js';
import type { RoundReport, VerdictChange, WorkerLogger } from './worker/types.js';
import { VerdictWriter } from './worker/verdict-writer.js';
import { VotePublisher, type VoteSink } from './worker/vote-publisher.js';

export { DEFAULT_CONCURRENCY, DEFAULT_HEARTBEAT_PERIOD_MS } from './worker/limits.js';
export type { RoundReport, VerdictChange, WorkerLogger } from './worker/types.js';
export type { VoteSink } from './worker/vote-publisher.js';

export interface ProbeWorkerOptions {
  readonly region: string;
  /** The shard of the region this worker is (docs/adr/0001-probe-cadence.md, "Sharded regions"). @default 0 */
  readonly shard?: number;
  readonly store: ProbeStateStore;
  readonly prober: Prober;
  readonly clock: Clock;
  /** Multiplies intervals, offsets, timeouts and the heartbeat period (the local stack's `--time-scale`). @default 1 */
  readonly timeScale?: number;
  /** @default DEFAULT_HEARTBEAT_PERIOD_MS (60 s) */
  readonly heartbeatPeriodMs?: number;
  /** @default DEFAULT_CONCURRENCY */
  readonly concurrency?: number;
  /** @default { kind: 'interval' } */
  readonly spread?: SpreadPolicy;
  /** @default setTimeout */
  readonly sleep?: (ms: number) => Promise<void>;
  /** @default MAX_CHECKPOINT_ENTRIES */
  readonly maxCheckpointEntries?: number;
  /** Where this region's static-failover votes go (the deployment's `STATIC_FAILOVER_DEPLOYMENT` is set). @default - no votes */
  readonly votes?: VoteSink;
  /** @default console */
  readonly logger?: WorkerLogger;
}

export type ProbeWorker = ReturnType<typeof createProbeWorker>;

export function createProbeWorker(options: ProbeWorkerOptions) {
  const { region, store, clock } = options;
  const shard = options.shard ?? 0;
  const scale = options.timeScale ?? 1;
  const logger = options.logger ?? console;
  const maxCheckpointEntries = options.maxCheckpointEntries ?? MAX_CHECKPOINT_ENTRIES;
  let shards = 1;
  let planned: PlannedProbe[] = [];
  let judges: PlannedJudge[] = [];
  /** The request key of each judge this worker holds, by verdict key. */
  let requestOf = new Map<string, string>();
  /** Some judge may lack an in-memory state (set by setTargets and forgetStates, cleared by a restore). */
  let restoreDue = true;

  const rules = new RuleStates(region);
  const records = new CheckRecords();
  const plan = new RoundPlan();
  const verdicts = new VerdictWriter(store, region, logger);
  const votes =
    options.votes === undefined
      ? undefined
      : new VotePublisher({
          sink: options.votes,
          region,
          clock,
          minuteMs: VOTE_PERIOD_SECONDS * 1000 * scale,
          logger,
          verdictOf: (key) => rules.get(key)?.verdict,
          held: () => requestOf,
        });
  const heartbeat = new HeartbeatWriter({
    store,
    region,
    shard,
    clock,
    periodMs: (options.heartbeatPeriodMs ?? DEFAULT_HEARTBEAT_PERIOD_MS) * scale,
    maxCheckpointEntries,
    logger,
    records,
    source: {
      shards: () => shards,
      judges: () => judges,
      held: () => requestOf,
      checkpoint: (maxEntries) => rules.checkpoint(judges, maxEntries),
      pendingVerdicts: () => verdicts.pendingCount,
    },
  });
  const checker = new Checker({
    clock,
    prober: options.prober,
    limit: concurrencyLimit(options.concurrency ?? DEFAULT_CONCURRENCY),
    judged,
    write: verdicts.write,
  });
  const pendingWrites = (): number => verdicts.pendingCount + (heartbeat.isDirty ? 1 : 0);
  const runRound = createRoundRunner({
    region,
    clock,
    sleep: options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
    spread: options.spread ?? { kind: 'interval' },
    logger,
    plan,
    checker,
    restore: async () => {
      if (!restoreDue) return;
      await restoreMissingStates({ region, shard, store, rules, records, heartbeat }, planned);
      restoreDue = false;
    },
    heartbeat,
    retryVerdicts: () => verdicts.retryPending(),
    ...(votes === undefined ? {} : { publishVotes: () => votes.publishDue() }),
    pendingWrites,
  });

  /** Applies one judged check to its judge's rule and records; returns the verdict item to write when there is one. */
  function judged(
    probe: PlannedProbe,
    judge: PlannedJudge,
    result: ProbeResult,
    changes: VerdictChange[],
  ): VerdictItem | undefined {
    // A check that ends after its request moved to another shard (or left the plan) is not
    // this worker's to count: the new holder counts from the checkpoint.
    if (!requestOf.has(judge.key)) return undefined;
    records.add(judge.key, result);
    const { item, change } = rules.apply(probe, judge, result);
    if (change !== undefined) {
      changes.push(change);
      votes?.change(judge.key);
    }
    return item;
  }

  /** The scaled round period: the shortest interval among the probes (10 s × scale when there are none). */
  const roundPeriodMs = (): number => roundPeriodMsOf(planned) ?? FAST_INTERVAL_MS * scale;
  return {
    region,
    shard,
    /**
     * The plan for this region (unscaled; the worker applies the time scale), of which the
     * worker keeps the probes its shard claims among `shardCount` (default 1: all). Keeps the
     * states of judges that remain; judges it gains restore from the heartbeat of the shard
     * that claimed them last.
     */
    setTargets(probes: readonly PlannedProbe[], shardCount = 1): void {
      if (shard >= shardCount)
        throw new RangeError(`shard ${shard} is not one of ${shardCount} shards of ${region}`);
      if (shardCount !== shards) heartbeat.markDirty();
      shards = shardCount;
      planned = probes.filter((p) => isInShard(p.key, shard, shards)).map((p) => scaled(p, scale));
      plan.set(planned);
      restoreDue = true;
      judges = planned.flatMap((p) => p.judges);
      requestOf = new Map(planned.flatMap((p) => p.judges.map((j) => [j.key, p.key])));
      rules.retain(requestOf);
      records.retain(requestOf);
      verdicts.retain(requestOf);
    },
    /** The static-failover targets this region votes for, by verdict key (`voteTargetsOf`); ignored without a vote sink. */
    setVoteTargets(targets: ReadonlyMap<string, VoteMetric>): void {
      votes?.setTargets(targets);
    },
    /**
     * Drops the in-memory rule states, so the next round restores them from the table: for a
     * worker that did not run the previous round (another shard may have counted its checks).
     */
    forgetStates(): void {
      restoreDue = true;
      rules.forget();
    },
    /** The scaled probes the worker sends. */
    targets: (): readonly PlannedProbe[] => planned,
    roundPeriodMs,
    /** The current in-memory rule state of a judge, by verdict key (tests, `tm status` detail). */
    ruleState: (verdictKey: string) => rules.get(verdictKey),
    pendingWrites,
    /**
     * Runs the round due at `dueAt` (epoch ms on the round grid); resolves when its checks and
     * writes are done. `startSpanMs`: how long starting its probes is expected to take (the
     * compact spread is never shorter: spreadWindowMs).
     */
    runRound: (dueAt: number, periodMs = roundPeriodMs(), startSpanMs = 0): Promise<RoundReport> =>
      runRound(dueAt, periodMs, startSpanMs),
  };
}

/** A planned probe with its intervals, offset and timeouts multiplied by the time scale. */
function scaled(probe: PlannedProbe, scale: number): PlannedProbe {
  if (scale === 1) return probe;
  return {
    ...probe,
    intervalMs: probe.intervalMs * scale,
    offsetMs: Math.floor(probe.offsetMs * scale),
    judges: probe.judges.map((judge) => ({
      ...judge,
      intervalMs: judge.intervalMs * scale,
      timeoutMs: Math.max(1, Math.round(judge.timeoutMs * scale)),
      ...(judge.maxLatencyMs === undefined
        ? {}
        : { maxLatencyMs: Math.max(1, Math.round(judge.maxLatencyMs * scale)) }),
    })),
  };
}
