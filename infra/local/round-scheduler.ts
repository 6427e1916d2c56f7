/**
 * The local stack's round timer: fires each round at its due time on the round grid
 * (absolute times, so lateness never accumulates).
 * Rounds may overlap; the worker keeps a target's own checks from overlapping.
 */
import { roundDueAtOf } from '../../shared/probe/round-schedule.js';

export interface RoundSchedulerOptions {
  /** The current round period (ms), read before each round so a new plan can change it. */
  readonly roundPeriodMs: () => number;
  readonly runRound: (dueAt: number, roundPeriodMs: number) => Promise<unknown>;
  readonly onError?: (error: unknown) => void;
}

export function startRoundScheduler(options: RoundSchedulerOptions) {
  const running = new Set<Promise<unknown>>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  function scheduleAfter(previousDueAt: number | undefined): void {
    if (stopped) return;
    const period = options.roundPeriodMs();
    const current = Date.now();
    let dueAt = roundDueAtOf(current, period) + period;
    if (previousDueAt !== undefined && dueAt <= previousDueAt) dueAt = previousDueAt + period;
    timer = setTimeout(() => fire(dueAt, period), Math.max(0, dueAt - current));
  }

  function fire(dueAt: number, period: number): void {
    if (stopped) return;
    scheduleAfter(dueAt);
    const round = options.runRound(dueAt, period).catch((error: unknown) => options.onError?.(error));
    running.add(round);
    void round.finally(() => running.delete(round));
  }

  scheduleAfter(undefined);
  return {
    /** Stops the timer and waits for rounds in progress. */
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      await Promise.all([...running]);
    },
  };
}
