/**
 * The round runner: restores missing rule states, announces a new worker with a heartbeat,
 * retries the verdict writes that failed, starts each due request at its own due time (its
 * round's due time plus its place in the spread), skipping a judge whose previous check has not
 * ended, and writes the heartbeat when due once the round's checks are done — and publishes the
 * static-failover votes that are due (vote-publisher.ts), when the worker has a vote sink.
 */
import type { Clock } from '../../../shared/clock.js';
import {
  dueJudgesOf,
  inStartOrder,
  spreadWindowMs,
  startDelayMs,
  type SpreadPolicy,
} from '../../../shared/probe/round-schedule.js';
import type { PlannedJudge, PlannedProbe } from '../../../shared/probe/target.js';
import type { Checker } from './checks.js';
import type { RoundReport, VerdictChange, WorkerLogger } from './types.js';

/** The due probes of a plan's rounds; the plan in start order is sorted once per plan and period. */
export class RoundPlan {
  private startOrder: { readonly periodMs: number; readonly probes: readonly PlannedProbe[] } | undefined;

  constructor(private planned: readonly PlannedProbe[] = []) {}

  set(planned: readonly PlannedProbe[]): void {
    this.planned = planned;
    this.startOrder = undefined;
  }

  /** The probes due in the round due at `dueAt`, in start order, each with its due judges. */
  dueInRound(dueAt: number, roundPeriodMs: number) {
    if (this.startOrder?.periodMs !== roundPeriodMs)
      this.startOrder = { periodMs: roundPeriodMs, probes: inStartOrder(this.planned, roundPeriodMs) };
    const probes: PlannedProbe[] = [];
    const judges: (readonly PlannedJudge[])[] = [];
    let longestTimeoutMs = 0;
    for (const probe of this.startOrder.probes) {
      const due = dueJudgesOf(probe, dueAt, roundPeriodMs);
      if (due.length === 0) continue;
      probes.push(probe);
      judges.push(due);
      for (const judge of due) longestTimeoutMs = Math.max(longestTimeoutMs, judge.timeoutMs);
    }
    return { probes, judges, longestTimeoutMs };
  }
}

export interface RoundRunnerOptions {
  readonly region: string;
  readonly clock: Clock;
  readonly sleep: (ms: number) => Promise<void>;
  readonly spread: SpreadPolicy;
  readonly logger: WorkerLogger;
  readonly plan: RoundPlan;
  readonly checker: Checker;
  /** Restores the judges that lack an in-memory state (throws when the table cannot be read). */
  readonly restore: () => Promise<void>;
  readonly heartbeat: { readonly isNew: boolean; writeIfDue(dueAt: number): Promise<boolean> };
  /** Retries the verdict writes that failed before; resolves with whether each was written. */
  readonly retryVerdicts: () => Promise<boolean[]>;
  /** Publishes the votes due once the checks are done; resolves with the votes sent, never rejects. */
  readonly publishVotes?: () => Promise<number>;
  readonly pendingWrites: () => number;
}

/** Counts of a round's checks as they start. */
interface RoundCounts {
  probed: number;
  judged: number;
  skipped: number;
  latestStartMs: number;
}

export type RunRound = (dueAt: number, roundPeriodMs: number, startSpanMs: number) => Promise<RoundReport>;

export function createRoundRunner(options: RoundRunnerOptions): RunRound {
  const { region, clock, logger, heartbeat } = options;
  return async (dueAt, roundPeriodMs, startSpanMs) => {
    const startedAt = clock.now();
    const changes: VerdictChange[] = [];
    const report = (fields: Partial<RoundReport>): RoundReport => ({
      dueAt,
      startedAt,
      finishedAt: clock.now(),
      probed: 0,
      judged: 0,
      skipped: 0,
      latestStartMs: 0,
      windowMs: 0,
      changes,
      verdictWrites: 0,
      heartbeatWritten: false,
      votes: 0,
      pendingWrites: options.pendingWrites(),
      restoreFailed: false,
      ...fields,
    });
    try {
      await options.restore();
    } catch (error) {
      logger.warn('restoring rule state failed; the round is skipped', { region, error: String(error) });
      return report({ restoreFailed: true });
    }
    // A new worker announces itself before its first verdicts, so the evaluator never sees a
    // verdict from a region that has not heartbeat yet (it would count that vote as stale).
    const announced = heartbeat.isNew && (await heartbeat.writeIfDue(dueAt));
    // Writes that failed last round are retried beside the probes, not before them (a newer
    // verdict of the same judge supersedes its retry: writes are conditional).
    const retrying = options.retryVerdicts();
    const due = options.plan.dueInRound(dueAt, roundPeriodMs);
    const windowMs = spreadWindowMs(
      options.spread,
      roundPeriodMs,
      due.probes.length,
      due.longestTimeoutMs,
      startSpanMs,
    );
    const counts: RoundCounts = { probed: 0, judged: 0, skipped: 0, latestStartMs: 0 };
    const written = await Promise.all(
      await startChecks(
        options,
        due,
        changes,
        counts,
        (i) => dueAt + startDelayMs(due.probes[i]!, roundPeriodMs, windowMs),
      ),
    );
    const retried = await retrying;
    const votes = (await options.publishVotes?.()) ?? 0;
    const heartbeatWritten = (await heartbeat.writeIfDue(dueAt)) || announced;
    return report({
      ...counts,
      windowMs,
      verdictWrites: retried.filter(Boolean).length + written.reduce((sum, n) => sum + n, 0),
      heartbeatWritten,
      votes,
      pendingWrites: options.pendingWrites(),
    });
  };
}

/**
 * Starts the due probes' checks in start order, one wait per distinct start time: each wait
 * ends with every probe whose start (`startAt`) has come. Resolves, once the last has started,
 * with the checks (each resolving with the verdict items it wrote).
 */
async function startChecks(
  options: Pick<RoundRunnerOptions, 'clock' | 'sleep' | 'checker'>,
  due: ReturnType<RoundPlan['dueInRound']>,
  changes: VerdictChange[],
  counts: RoundCounts,
  startAt: (i: number) => number,
): Promise<Promise<number>[]> {
  const { clock, sleep, checker } = options;
  const checks: Promise<number>[] = [];
  for (let i = 0; i < due.probes.length;) {
    const wait = startAt(i) - clock.now();
    if (wait > 0) await sleep(wait);
    const now = clock.now();
    do {
      const probe = due.probes[i]!;
      const judges = due.judges[i]!;
      // Decided at the probe's own start: its previous check (one period earlier) has ended by now.
      const runnable = judges.some((j) => checker.isInFlight(j.key))
        ? judges.filter((j) => !checker.isInFlight(j.key))
        : judges;
      counts.skipped += judges.length - runnable.length;
      if (runnable.length > 0) {
        counts.probed++;
        counts.judged += runnable.length;
        checks.push(checker.check(probe, runnable, changes, startAt(i), counts));
      }
      i++;
    } while (i < due.probes.length && startAt(i) <= now);
  }
  return checks;
}
