/**
 * One request's check in a round: sends the request once, with the longest timeout among the
 * judges due on it, and lets each judge judge it by its own settings. A judge with a shorter
 * timeout is judged at its own deadline when the probe is still running then, so its checks
 * never overlap its next one. Keeps which judges have a check in flight.
 */
import type { Clock } from '../../../shared/clock.js';
import { judgedTimeout, judgeObservation } from '../../../shared/probe/judge.js';
import type { ProbeObservation, ProbeResult } from '../../../shared/probe/result.js';
import type { PlannedJudge, PlannedProbe, Prober } from '../../../shared/probe/target.js';
import type { VerdictItem } from '../../../shared/state/items.js';
import type { ConcurrencyLimit } from '../../shared/concurrency.js';
import type { VerdictChange } from './types.js';

export interface CheckerOptions {
  readonly clock: Clock;
  readonly prober: Prober;
  readonly limit: ConcurrencyLimit;
  /** Applies a judged check; returns the verdict item to write, if any (pushing a change onto `changes`). */
  readonly judged: (
    probe: PlannedProbe,
    judge: PlannedJudge,
    result: ProbeResult,
    changes: VerdictChange[],
  ) => VerdictItem | undefined;
  /** Writes a verdict item; true when written. */
  readonly write: (item: VerdictItem) => Promise<boolean>;
}

/** How late the round's latest probe started against its own due time, raised by each check. */
export interface StartLateness {
  latestStartMs: number;
}

export class Checker {
  /** Judges whose current check has not been judged yet (by verdict key). */
  private readonly inFlight = new Set<string>();

  constructor(private readonly options: CheckerOptions) {}

  isInFlight(verdictKey: string): boolean {
    return this.inFlight.has(verdictKey);
  }

  /**
   * Checks `probe` for the judges `due` on it; resolves with the verdict items written. How late
   * the request was sent (when the concurrency limit let it) against `dueStartAt` raises
   * `round.latestStartMs`.
   */
  async check(
    probe: PlannedProbe,
    due: readonly PlannedJudge[],
    changes: VerdictChange[],
    dueStartAt: number,
    round: StartLateness,
  ): Promise<number> {
    if (due.length === 1) return this.checkOne(probe, due[0]!, changes, dueStartAt, round);
    const { clock, prober, limit } = this.options;
    for (const judge of due) this.inFlight.add(judge.key);
    let timeoutMs = 0;
    for (const judge of due) timeoutMs = Math.max(timeoutMs, judge.timeoutMs);
    let startedAt = 0;
    let markStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const observation = limit(() => {
      startedAt = clock.now();
      round.latestStartMs = Math.max(round.latestStartMs, startedAt - dueStartAt);
      markStarted();
      return prober(probe, timeoutMs);
    });
    const written = await Promise.all(
      due.map(async (judge) => {
        let item: VerdictItem | undefined;
        try {
          let result: ProbeResult;
          if (judge.timeoutMs < timeoutMs) {
            await started;
            const early = await beforeOwnDeadline(observation, judge);
            result =
              early === undefined
                ? judgedTimeout(startedAt, judge.timeoutMs)
                : judgeObservation(early, judge);
          } else {
            result = judgeObservation(await observation, judge);
          }
          item = this.options.judged(probe, judge, result, changes);
        } finally {
          // The check has ended once the rule has it; a slow verdict write must not hold the next check.
          this.inFlight.delete(judge.key);
        }
        return item !== undefined && (await this.options.write(item));
      }),
    );
    return written.filter(Boolean).length;
  }

  /** `check` for a request that one judge is due on (the common case): no deadline of its own to race. */
  private async checkOne(
    probe: PlannedProbe,
    judge: PlannedJudge,
    changes: VerdictChange[],
    dueStartAt: number,
    round: StartLateness,
  ): Promise<number> {
    const { clock, prober, limit } = this.options;
    this.inFlight.add(judge.key);
    let item: VerdictItem | undefined;
    try {
      const observation = await limit(() => {
        round.latestStartMs = Math.max(round.latestStartMs, clock.now() - dueStartAt);
        return prober(probe, judge.timeoutMs);
      });
      item = this.options.judged(probe, judge, judgeObservation(observation, judge), changes);
    } finally {
      this.inFlight.delete(judge.key);
    }
    return item !== undefined && (await this.options.write(item)) ? 1 : 0;
  }
}

/**
 * The observation if it arrives before the judge's own deadline (plus a grace for event-loop
 * lag, so an answer the prober measured inside the timeout is judged by its measurement);
 * `undefined` when the deadline passed first. The grace is a quarter of the gap between the
 * judge's timeout and its interval, so the judgement always lands before its next check.
 */
async function beforeOwnDeadline(
  observation: Promise<ProbeObservation>,
  judge: PlannedJudge,
): Promise<ProbeObservation | undefined> {
  const graceMs = Math.max(0, (judge.intervalMs - judge.timeoutMs) / 4);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, judge.timeoutMs + graceMs, undefined);
  });
  try {
    return await Promise.race([observation, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
