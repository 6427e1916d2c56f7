/**
 * When each planned probe is sent and each judge takes its check. Rounds run on a grid of
 * `roundPeriodMs` aligned to the epoch (a round is named by its due time). Something whose
 * interval is a multiple of the round period is due in one slot out of `interval / period`,
 * chosen by its offset, so 30 s probes (and the 30 s judges of a shared 10 s probe) spread
 * over the three 10 s rounds of their interval.
 * See docs/adr/0001-probe-cadence.md.
 */
import type { PlannedProbe } from './target.js';

/** The finest interval (SPEC §1: 10 s or 30 s); the default round period. */
export const FAST_INTERVAL_MS = 10_000;
export const MINUTE_MS = 60_000;

/** The round period a set of targets needs: its shortest interval; `undefined` when there are none. */
export function roundPeriodMsOf(targets: readonly Pick<PlannedProbe, 'intervalMs'>[]): number | undefined {
  let shortest: number | undefined;
  for (const target of targets)
    shortest = shortest === undefined ? target.intervalMs : Math.min(shortest, target.intervalMs);
  return shortest;
}

/** The due time of the round that `now` falls in. */
export function roundDueAtOf(now: number, roundPeriodMs: number): number {
  return Math.floor(now / roundPeriodMs) * roundPeriodMs;
}

/** True when `target` is probed in the round due at `roundDueAt`. */
export function isDueInRound(
  target: Pick<PlannedProbe, 'intervalMs' | 'offsetMs'>,
  roundDueAt: number,
  roundPeriodMs: number,
): boolean {
  const slots = Math.max(1, Math.round(target.intervalMs / roundPeriodMs));
  if (slots === 1) return true;
  const round = Math.round(roundDueAt / roundPeriodMs);
  const slot = Math.floor(target.offsetMs / roundPeriodMs) % slots;
  return ((round % slots) + slots) % slots === slot;
}

/**
 * The judges of `probe` due in the round due at `roundDueAt` (each by its own interval, at the
 * probe's offset): the probe's own list when all are (no copy), an empty list when none is.
 */
export function dueJudgesOf<J extends { readonly intervalMs: number }>(
  probe: { readonly offsetMs: number; readonly judges: readonly J[] },
  roundDueAt: number,
  roundPeriodMs: number,
): readonly J[] {
  let due: J[] | undefined;
  for (let i = 0; i < probe.judges.length; i++) {
    const judge = probe.judges[i]!;
    if (isDueInRound({ intervalMs: judge.intervalMs, offsetMs: probe.offsetMs }, roundDueAt, roundPeriodMs))
      due?.push(judge);
    else due ??= probe.judges.slice(0, i);
  }
  return due ?? probe.judges;
}

/**
 * `targets` in the order a round of `roundPeriodMs` starts them: by their offset's position in
 * the round (`startDelayMs` keeps that order for any window), ties in the given order.
 */
export function inStartOrder<T extends Pick<PlannedProbe, 'offsetMs'>>(
  targets: readonly T[],
  roundPeriodMs: number,
): T[] {
  return [...targets].sort((a, b) => (a.offsetMs % roundPeriodMs) - (b.offsetMs % roundPeriodMs));
}

/**
 * How a round spreads its probes.
 * - `interval`: over the whole round period (the local stack: rounds may overlap, a
 *   target's own probes never do because its timeout is shorter than its interval).
 * - `compact`: `perTargetMs` apart on average, and so that the slowest probe still ends
 *   before the next round is due (a Lambda invocation is billed until its last probe
 *   ends, and rounds must not overlap under reserved concurrency 1).
 */
export type SpreadPolicy =
  | { readonly kind: 'interval' }
  | { readonly kind: 'compact'; readonly perTargetMs: number; readonly marginMs: number };

/** What a compact spread leaves between a round's slowest possible probe and the next round. */
export const SPREAD_MARGIN_MS = 500;

/**
 * 0.25 ms a target: the pace at which a full shard (2,000 requests) starts a 10 s round, whose
 * room ends the spread at 0.5 s. A round of any period spreads no slower: a Lambda round is
 * billed for its wall time, so a 30 s round of 2,000 requests spread 2 ms apart would pay 4 s
 * of mostly idle spreading every round; a shard's CPU budget, not the window, bounds how late
 * its probes start (shared/probe/shard-capacity.ts).
 */
export const COMPACT_SPREAD: SpreadPolicy = {
  kind: 'compact',
  perTargetMs: 0.25,
  marginMs: SPREAD_MARGIN_MS,
};

/**
 * The window (ms) over which the round's start times are spread. A compact window is never
 * shorter than `startSpanMs`, the time the shard expects to need to start the round's probes
 * (its CPU): a window shorter than that would start the later probes late against their own
 * due times, and save nothing — the round lasts until they have started either way.
 */
export function spreadWindowMs(
  policy: SpreadPolicy,
  roundPeriodMs: number,
  targetsInRound: number,
  longestTimeoutMs: number,
  startSpanMs = 0,
): number {
  if (policy.kind === 'interval') return roundPeriodMs;
  const room = Math.max(0, roundPeriodMs - longestTimeoutMs - policy.marginMs);
  return Math.min(room, Math.max(targetsInRound * policy.perTargetMs, startSpanMs));
}

/** The delay from the round's start at which `target` is probed: its offset's position in the round, scaled to the window. */
export function startDelayMs(
  target: Pick<PlannedProbe, 'offsetMs'>,
  roundPeriodMs: number,
  windowMs: number,
): number {
  const position = (target.offsetMs % roundPeriodMs) / roundPeriodMs;
  return Math.floor(position * windowMs);
}

/** One round the tick enqueues: its due time and the SQS delay that makes it start then. */
export interface ScheduledRound {
  readonly dueAt: number;
  readonly delaySeconds: number;
}

/**
 * When a tick that is ready at `now` sends its rounds: the next whole second. Rounds are due
 * on whole seconds and SQS counts `DelaySeconds` in whole seconds, so from a whole second
 * every delay is exact and a round becomes visible at its due time — neither up to a second
 * early (a billed wait in the shard) nor late.
 */
export function sendMomentOf(now: number): number {
  return Math.ceil(now / 1000) * 1000;
}

/**
 * What a tick enqueues: its rounds, and the end of the span they cover (the next tick's `enqueuedUntil`).
 *
 * The rounds a once-a-minute tick enqueues when it sends at `sendAt`: those of the next
 * minute, so that neither the scheduler's lateness nor the tick's planning delays a round,
 * as long as the tick runs within its minute. Rounds of the current minute are added only
 * when `enqueuedUntil` (the end of what this tick enqueued last time; `undefined` when it
 * does not know, as on its first run) does not cover them: the first tick, or one after a
 * gap, starts probing at once. Such a round may have been enqueued already by a tick the
 * caller does not remember; the round handler skips the second copy. Rounds a whole period
 * late are left out (the next one covers them). Delays are whole seconds from `sendAt`,
 * rounded up, so a round is never delivered before it is due.
 */
export function roundsToEnqueue(sendAt: number, roundPeriodMs: number, enqueuedUntil: number | undefined) {
  const minuteStart = Math.floor(sendAt / MINUTE_MS) * MINUTE_MS;
  const until = minuteStart + 2 * MINUTE_MS;
  const from = Math.max(minuteStart, enqueuedUntil ?? minuteStart);
  const rounds: ScheduledRound[] = [];
  for (let dueAt = minuteStart; dueAt < until; dueAt += roundPeriodMs) {
    if (dueAt < from || dueAt + roundPeriodMs <= sendAt) continue;
    rounds.push({ dueAt, delaySeconds: Math.max(0, Math.ceil((dueAt - sendAt) / 1000)) });
  }
  return { rounds, enqueuedUntil: Math.max(until, enqueuedUntil ?? until) };
}
