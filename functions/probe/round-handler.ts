/**
 * The round handler's logic, independent of where its dependencies come from: one
 * warm container keeps one worker (and its rule states) across SQS-delivered rounds.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { Clock } from '../../shared/clock.js';
import { isCpuScaleWriteDue, nextCpuScale } from '../../shared/probe/cpu-scale.js';
import { LAMBDA_MB_PER_VCPU, roundCpuMs, startSpanMs } from '../../shared/probe/shard-capacity.js';
import { planProbes } from '../../shared/probe/plan.js';
import type { DeployedConfig } from '../shared/config-reader.js';
import { parseRoundMessage, type RoundMessage } from '../../shared/probe/round-message.js';
import type { PlannedProbe } from '../../shared/probe/target.js';
import { voteTargetsOf } from '../../shared/static-failover/votes.js';
import { MetricName } from '../../shared/contracts/metrics.js';
import { noMetrics, type MetricsSink } from '../shared/metrics-sink.js';
import type { CapacityWriter } from './capacity-store.js';
import type { ProbeWorker, WorkerLogger } from './worker.js';

/** Profiles are re-read at most this often (a config change reaches the probes within a minute). */
export const CONFIG_REFRESH_MS = 60_000;
/**
 * A round delivered more than this before its due time did not come from the tick (whose
 * delays are exact whole seconds): the worker would wait for it and hold the shard, whose
 * rounds are serial, so it is skipped.
 */
const EARLY_ROUND_LIMIT_MS = 2_000;

export interface RoundHandlerDeps {
  readonly worker: ProbeWorker;
  readonly clock: Clock;
  readonly loadConfig: () => Promise<DeployedConfig>;
  /** Used when the CONFIG items carry no default probe regions. */
  readonly fallbackProbeRegions: readonly string[];
  readonly logger: WorkerLogger & { info(message: string, fields: Record<string, unknown>): void };
  /**
   * The deployment name static failover's votes carry (`STATIC_FAILOVER_DEPLOYMENT`): the worker
   * votes for the targets of the profiles with `staticFailover` in this region. @default - no votes
   */
  readonly staticFailoverDeployment?: string;
  /** Where each round's ProbeStartLateness goes. @default none */
  readonly metrics?: MetricsSink;
  /** Where the shard's measured CPU scale goes (the region's tick sizes the region by it); none: not measured. */
  readonly capacity?: CapacityWriter;
  /** The function's memory size (MB): the share of a vCPU its rounds' starts run at. @default one full vCPU (1,769) */
  readonly memoryMb?: number;
  /**
   * CPU time (ms) this process has used so far.
   * @default process.cpuUsage(), user + system
   */
  readonly cpuTimeMs?: () => number;
}

/** The process's CPU time (`process.cpuUsage()`: getrusage, the whole process). */
function processCpuTimeMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export type RoundHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

interface Skip {
  readonly level: 'info' | 'warn';
  readonly message: string;
  readonly fields: Record<string, number>;
  /** A round skipped for being late: its lateness counts in the metric. */
  readonly lateMs?: number;
}

/** Why a round is not run (the line logged), or undefined to run it. */
function whySkip(round: RoundMessage, now: number, lastDueAt: number, shard: number): Skip | undefined {
  const { dueAt } = round;
  if (dueAt <= lastDueAt)
    return { level: 'info', message: 'skipping a round already run', fields: { dueAt } };
  if (dueAt - now > EARLY_ROUND_LIMIT_MS)
    return {
      level: 'warn',
      message: 'skipping a round due in the future',
      fields: { dueAt, earlyMs: dueAt - now },
    };
  if (now - dueAt >= round.roundPeriodMs) {
    const lateMs = now - dueAt;
    return {
      level: 'warn',
      message: 'skipping a round a whole period late',
      fields: { dueAt, lateMs },
      lateMs,
    };
  }
  if (shard >= round.shards) {
    const fields = { dueAt, shard, shards: round.shards };
    return { level: 'warn', message: 'skipping a round for fewer shards than this one', fields };
  }
  return undefined;
}

/**
 * Runs each message's round in due order. Rounds are never retried: a duplicate
 * delivery (at-least-once) or a round already a whole period late is acknowledged and
 * skipped, because the next round covers it. So the batch never reports failures.
 */
export function createRoundHandler(deps: RoundHandlerDeps): RoundHandler {
  const { worker, clock, logger } = deps;
  const metrics = deps.metrics ?? noMetrics;
  const lateness = (ms: number) =>
    metrics.duration(MetricName.probeStartLateness, ms, { Region: worker.region });
  let configReadAt: number | undefined;
  let planned: Awaited<ReturnType<RoundHandlerDeps['loadConfig']>> | undefined;
  let plan: PlannedProbe[] = [];
  let shards = 1;
  let lastDueAt = -Infinity;
  const cpuTimeMs = deps.cpuTimeMs ?? processCpuTimeMs;
  const memoryMb = deps.memoryMb ?? LAMBDA_MB_PER_VCPU;
  /** The smoothed CPU scale of this container's rounds, and what was stored last. */
  let cpuScale: number | undefined;
  let storedScale: { scale: number; at: number } | undefined;

  /**
   * Folds a round's CPU into the shard's scale and stores it when that is due. Not for a
   * container's first round (JIT, first connections) nor one whose split changed (the moved
   * states restore from the table): one-offs. A round after a skipped one counts, restore
   * included — an overloaded shard whose rounds overrun must still tell, and it errs towards
   * more shards.
   */
  async function measure(cpuMs: number, predictedMs: number, shards: number): Promise<number | undefined> {
    const { capacity } = deps;
    if (capacity === undefined) return undefined;
    cpuScale = nextCpuScale(cpuScale, cpuMs, predictedMs);
    const now = clock.now();
    if (cpuScale === undefined || !isCpuScaleWriteDue(storedScale, cpuScale, now)) return cpuScale;
    const item = { region: worker.region, shard: worker.shard, shards, scale: cpuScale, at: now };
    try {
      await capacity.write(item);
      storedScale = item;
    } catch (error) {
      // Retried after the next round: sizing goes on with the last stored scale meanwhile.
      logger.warn('storing the shard’s measured CPU scale failed', { error: String(error) });
    }
    return cpuScale;
  }

  /** Re-plans when the config is due for a re-read; true when it set the worker's targets. */
  async function refreshConfig(now: number): Promise<boolean> {
    if (configReadAt !== undefined && now - configReadAt < CONFIG_REFRESH_MS) return false;
    try {
      const config = await deps.loadConfig();
      configReadAt = now;
      // The same config object as last time (nothing changed: config-cache.ts) keeps the plan.
      if (config === planned) return false;
      const defaults =
        config.defaultProbeRegions.length > 0 ? config.defaultProbeRegions : deps.fallbackProbeRegions;
      plan = planProbes(config.profiles, worker.region, defaults);
      worker.setTargets(plan, shards);
      const deployment = deps.staticFailoverDeployment;
      if (deployment !== undefined)
        worker.setVoteTargets(
          voteTargetsOf(config.profiles, { deployment, defaultProbeRegions: defaults }, worker.region),
        );
      planned = config;
      return true;
    } catch (error) {
      // Keep probing the last known plan; a first read that fails leaves the plan empty.
      logger.warn('reading the profile definitions failed; keeping the last plan', { error: String(error) });
      return false;
    }
  }

  const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const rounds: RoundMessage[] = [];
    for (const record of event.Records) {
      const parsed = parseRoundMessage(record.body);
      if ('problem' in parsed)
        logger.warn('ignoring a message that is not a round', {
          messageId: record.messageId,
          problem: parsed.problem,
        });
      else rounds.push(parsed);
    }
    rounds.sort((a, b) => a.dueAt - b.dueAt);
    for (const round of rounds) {
      const now = clock.now();
      const skip = whySkip(round, now, lastDueAt, worker.shard);
      if (skip !== undefined) {
        logger[skip.level](skip.message, skip.fields);
        if (skip.lateMs !== undefined) lateness(skip.lateMs);
        continue;
      }
      // A shard that missed the previous round, or whose split changed, may hold counts another
      // shard has moved on since: it restores its states from the table (heartbeats and verdicts).
      const continuous = lastDueAt === round.dueAt - round.roundPeriodMs && round.shards === shards;
      const firstRound = !Number.isFinite(lastDueAt);
      if (!continuous && !firstRound) worker.forgetStates();
      lastDueAt = round.dueAt;
      // Every shard of a round splits the requests by the round's shard count (the tick's).
      const resharded = round.shards !== shards;
      shards = round.shards;
      // The first round needs a plan; later re-reads wait until after the round, off its start.
      const refreshed = configReadAt === undefined && (await refreshConfig(now));
      if (!refreshed && resharded) worker.setTargets(plan, shards);
      // What the constants predict this round's probes cost, and so how long starting them
      // may take at the shard's measured scale and vCPU share: the spread is never shorter.
      const predictedMs = roundCpuMs(worker.targets(), round.roundPeriodMs);
      const span = startSpanMs(predictedMs, cpuScale ?? 1, memoryMb);
      const cpuBefore = cpuTimeMs();
      const report = await worker.runRound(round.dueAt, round.roundPeriodMs, span);
      const cpuMs = cpuTimeMs() - cpuBefore;
      lateness(report.latestStartMs);
      const scale =
        !firstRound && !resharded && !refreshed && !report.restoreFailed
          ? await measure(cpuMs, predictedMs, shards)
          : cpuScale;
      logger.info('round', {
        dueAt: round.dueAt,
        shards,
        startLagMs: report.startedAt - round.dueAt,
        latestStartMs: report.latestStartMs,
        windowMs: report.windowMs,
        durationMs: report.finishedAt - report.startedAt,
        probed: report.probed,
        changes: report.changes.length,
        verdictWrites: report.verdictWrites,
        heartbeatWritten: report.heartbeatWritten,
        votes: report.votes,
        pendingWrites: report.pendingWrites,
        cpuMs,
        cpuScale: scale,
      });
      // A changed plan applies from the next round on.
      await refreshConfig(clock.now());
    }
    metrics.flush();
    return { batchItemFailures: [] };
  };
  return handler;
}
