/**
 * The flapping soak's rules (test/soak/flapping.soak.ts explains them), apart from the stack so
 * they can be read and tried on their own: from the primary's up and down periods, the monitor's
 * rule and the spacing of one region's checks, the times at which a region's verdict may turn
 * (a run of failed or good checks may end) and those at which it must have; then every DNS
 * sample checked against them. Times are epoch ms; nothing here does I/O.
 */

/** A closed interval [from, to], from ≤ to. */
export type Interval = readonly [number, number];
/** Sorted, disjoint intervals. */
export type IntervalSet = readonly Interval[];

export function normalize(intervals: readonly Interval[]): IntervalSet {
  const sorted = intervals.filter(([a, b]) => a <= b).sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [a, b] of sorted) {
    const last = out.at(-1);
    if (last !== undefined && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

export function intersect(x: IntervalSet, y: IntervalSet): IntervalSet {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    const [a1, b1] = x[i]!;
    const [a2, b2] = y[j]!;
    const from = Math.max(a1, a2);
    const to = Math.min(b1, b2);
    if (from <= to) out.push([from, to]);
    if (b1 < b2) i++;
    else j++;
  }
  return out;
}

/** Every point moved later by between `min` and `max`. */
export function shift(set: IntervalSet, min: number, max: number): IntervalSet {
  return normalize(set.map(([a, b]) => [a + min, b + max]));
}

/** What [from, to] holds outside `set`, as closed intervals (they share their ends with `set`). */
export function complement(set: IntervalSet, from: number, to: number): IntervalSet {
  const out: Interval[] = [];
  let at = from;
  for (const [a, b] of set) {
    if (b < from) continue;
    if (a > to) break;
    if (a > at) out.push([at, a]);
    at = Math.max(at, b);
  }
  if (at < to) out.push([at, to]);
  return out;
}

/** The smallest point of `set` in [from, to], if any. */
export function firstIn(set: IntervalSet, from: number, to: number): number | undefined {
  for (const [a, b] of set) {
    if (b < from) continue;
    const x = Math.max(a, from);
    return x <= to ? x : undefined;
  }
  return undefined;
}

export type PrimaryState = 'up' | 'down';

/** One stretch of the primary's backend in one state; consecutive periods alternate. */
export interface Period {
  readonly state: PrimaryState;
  /** When the backend switched to this state (epoch ms). */
  readonly from: number;
  /** When it switched away (or the end of the phase). */
  readonly to: number;
}

/** What the rules depend on, in real ms. */
export interface RuleParameters {
  /** The checks that must fail in a row: toleratedNumberOfFailures + 1. */
  readonly failuresToFail: number;
  /** The checks that must succeed in a row: requiredSuccessesToRecover. */
  readonly successesToRecover: number;
  /** The shortest and longest time between two consecutive checks of one region. */
  readonly minSpacingMs: number;
  readonly maxSpacingMs: number;
  /** The check's timeout: a check sent to a hung backend fails this long after it was sent. */
  readonly timeoutMs: number;
  /** Timestamps on the same clock may still differ by this much (ms resolution, the handler's own delay). */
  readonly clockEpsilonMs: number;
}

/** The times the rules allow a verdict to change at, and the times they fix it. */
export interface RuleSets {
  /** The last checks of possible runs of `failuresToFail` failed checks: when a region may turn down. */
  readonly failedRunEnds: IntervalSet;
  /** Likewise of `successesToRecover` good checks: when a region that is down may turn up. */
  readonly recoveredRunEnds: IntervalSet;
  /** Times at which every region must be down / up (long enough a run of failed / good checks). */
  readonly certainlyDown: IntervalSet;
  readonly certainlyUp: IntervalSet;
}

function periodsIn(periods: readonly Period[], state: PrimaryState, widen: number): IntervalSet {
  return normalize(periods.filter((p) => p.state === state).map((p) => [p.from - widen, p.to + widen]));
}

/**
 * The last checks of a run of `checks` consecutive checks that all land in `set`: consecutive
 * checks of one region are between `min` and `max` apart, nothing else is assumed of them.
 */
export function runEnds(set: IntervalSet, checks: number, min: number, max: number): IntervalSet {
  let ends = set;
  for (let i = 1; i < checks; i++) ends = intersect(shift(ends, min, max), set);
  return ends;
}

/**
 * A period certainly holds `checks` checks of every region once it has lasted `checks` ×
 * maxSpacing (the first lands within one spacing of its start, each next within one more),
 * plus the timeout (the last may be a hung request still waiting for it) and the epsilon.
 */
function certainAfter(
  periods: readonly Period[],
  state: PrimaryState,
  checks: number,
  rules: RuleParameters,
): IntervalSet {
  const needed = checks * rules.maxSpacingMs + rules.timeoutMs + rules.clockEpsilonMs;
  return normalize(
    periods.filter((p) => p.state === state && p.to - p.from >= needed).map((p) => [p.from + needed, p.to]),
  );
}

export function ruleSets(periods: readonly Period[], rules: RuleParameters): RuleSets {
  const e = rules.clockEpsilonMs;
  return {
    failedRunEnds: runEnds(
      periodsIn(periods, 'down', e),
      rules.failuresToFail,
      rules.minSpacingMs,
      rules.maxSpacingMs,
    ),
    recoveredRunEnds: runEnds(
      periodsIn(periods, 'up', e),
      rules.successesToRecover,
      rules.minSpacingMs,
      rules.maxSpacingMs,
    ),
    certainlyDown: certainAfter(periods, 'down', rules.failuresToFail, rules),
    certainlyUp: certainAfter(periods, 'up', rules.successesToRecover, rules),
  };
}

export type Answer = 'primary' | 'secondary';

/** One dig: sent after `sentAt`, answered before `answeredAt`. */
export interface Sample {
  readonly sentAt: number;
  readonly answeredAt: number;
  /** undefined: no usable answer (no response, SERVFAIL, an empty answer). */
  readonly answer: Answer | undefined;
  /** Set when the answer named something else than the primary or the secondary alone. */
  readonly unexpected?: string;
}

export interface Violation {
  /** The first sample of the episode. */
  readonly at: number;
  /** The last one (consecutive samples breaking the rule the same way are one violation). */
  readonly until: number;
  readonly samples: number;
  readonly kind: 'early' | 'late' | 'unexpected answer';
  readonly why: string;
}

/** Consecutive violations of one kind (no sample in between kept the rule) as one. */
function episodes(found: readonly (Omit<Violation, 'until' | 'samples'> & { index: number })[]): Violation[] {
  const out: (Violation & { last: number })[] = [];
  for (const v of found) {
    const open = out.at(-1);
    if (open !== undefined && open.kind === v.kind && open.last === v.index - 1) {
      out[out.length - 1] = { ...open, until: v.at, samples: open.samples + 1, last: v.index };
    } else out.push({ at: v.at, until: v.at, samples: 1, kind: v.kind, why: v.why, last: v.index });
  }
  return out.map(({ last: _last, ...v }) => v);
}

/**
 * Never early. The verdict DNS follows — the regions' verdicts taken together — is one path in
 * time that starts up, turns down only where a run of failed checks may end and up only where a
 * run of good checks may end, and is down wherever down is certain and up wherever up is. DNS
 * answers that path as of some time v no later than the answer, and a later answer a later v
 * (evaluations and their changes apply in order; `toleranceMs` for the regions' own checks of a
 * round arriving that far apart). So each change of answer needs a turn of the path, at a run
 * end after the previous turn (less the tolerance) and no later than the answer, before the
 * first certain time of the opposite state since the previous turn. Taking the earliest such
 * turn each time is the most lenient choice. An answer without one is early.
 */
export function checkNeverEarly(
  samples: readonly Sample[],
  sets: RuleSets,
  startedAt: number,
  toleranceMs: number,
  describe: (at: number) => string,
): Violation[] {
  const found: (Omit<Violation, 'until' | 'samples'> & { index: number })[] = [];
  let state: Answer = 'primary';
  let turnedAt = startedAt;
  samples.forEach((sample, index) => {
    if (sample.unexpected !== undefined) {
      found.push({ index, at: sample.answeredAt, kind: 'unexpected answer', why: sample.unexpected });
      return;
    }
    if (sample.answer === undefined || sample.answer === state) return;
    const turnsDown = sample.answer === 'secondary';
    const runs = turnsDown ? sets.failedRunEnds : sets.recoveredRunEnds;
    const forbidding = turnsDown ? sets.certainlyDown : sets.certainlyUp;
    const forced = forbidding.find(([, to]) => to > turnedAt);
    const latest = Math.min(
      sample.answeredAt,
      forced === undefined ? Infinity : Math.max(forced[0], turnedAt),
    );
    const turn = firstIn(runs, turnedAt - toleranceMs, latest);
    if (turn === undefined) {
      found.push({
        index,
        at: sample.answeredAt,
        kind: 'early',
        why: turnsDown
          ? `DNS answered the secondary, but no run of failed checks could have ended since the primary was last possibly back (${describe(sample.answeredAt)})`
          : `DNS answered the primary again, but no run of good checks could have ended since its failover (${describe(sample.answeredAt)})`,
      });
      return;
    }
    state = sample.answer;
    turnedAt = Math.max(turnedAt, turn);
  });
  return episodes(found);
}

/**
 * Late only within the bound: once the primary has been down without a break for longer than
 * `awayBoundMs`, DNS must not answer it; once up without a break for longer than `backBoundMs`,
 * DNS must answer it. Judged at `sentAt`, the earliest moment the answer can be from.
 */
export function checkLate(
  samples: readonly Sample[],
  periods: readonly Period[],
  awayBoundMs: number,
  backBoundMs: number,
): Violation[] {
  const found: (Omit<Violation, 'until' | 'samples'> & { index: number })[] = [];
  let i = 0;
  for (const [index, sample] of samples.entries()) {
    if (sample.answer === undefined) continue;
    while (i < periods.length - 1 && periods[i]!.to <= sample.sentAt) i++;
    const period = periods[i]!;
    if (period.from > sample.sentAt) continue;
    const lasted = sample.sentAt - period.from;
    if (period.state === 'down' && sample.answer === 'primary' && lasted > awayBoundMs)
      found.push({
        index,
        at: sample.sentAt,
        kind: 'late',
        why: `DNS answered the primary ${s(lasted)} into an outage; bound ${s(awayBoundMs)}`,
      });
    if (period.state === 'up' && sample.answer === 'secondary' && lasted > backBoundMs)
      found.push({
        index,
        at: sample.sentAt,
        kind: 'late',
        why: `DNS answered the secondary ${s(lasted)} after the primary came back; bound ${s(backBoundMs)}`,
      });
  }
  return episodes(found);
}

/** `12.3 s` */
export function s(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A DNS move: the first answered sample whose answer differs from the one before. */
export interface Move {
  readonly at: number;
  readonly to: Answer;
  /** The period whose start the move is counted from: the latest one into the state that the move follows. */
  readonly period: number | undefined;
  readonly delayMs: number | undefined;
}

export function movesOf(samples: readonly Sample[], periods: readonly Period[]): Move[] {
  const moves: Move[] = [];
  let last: Answer | undefined;
  for (const sample of samples) {
    if (sample.answer === undefined) continue;
    if (last !== undefined && sample.answer !== last) {
      const state: PrimaryState = sample.answer === 'secondary' ? 'down' : 'up';
      let period: number | undefined;
      for (let i = periods.length - 1; i >= 0; i--)
        if (periods[i]!.state === state && periods[i]!.from <= sample.answeredAt) {
          period = i;
          break;
        }
      moves.push({
        at: sample.answeredAt,
        to: sample.answer,
        period,
        delayMs: period === undefined ? undefined : sample.answeredAt - periods[period]!.from,
      });
    }
    last = sample.answer;
  }
  return moves;
}

/**
 * Bounds on the spacing of one region's consecutive checks, from the arrivals at the primary's
 * backend (every region sends its check at the same offset in the round, so a round's checks
 * arrive together): clusters split where arrivals are more than half a period apart. A region's
 * consecutive checks are at least min(next cluster) − max(this one) apart and at most
 * max(next) − min(this); a cluster with more arrivals than regions holds two checks of one
 * region (its smallest gap bounds the spacing below), one with fewer a region that skipped a
 * round (the bound above then reaches over the next cluster too). `width`: how far apart the
 * regions' checks of one round arrived at most.
 */
export function observedSpacing(
  arrivals: readonly number[],
  periodMs: number,
  regions: number,
): { min: number; max: number; width: number; clusters: number; uneven: number } {
  const sorted = [...arrivals].sort((a, b) => a - b);
  const clusters: number[][] = [];
  for (const at of sorted) {
    const last = clusters.at(-1);
    if (last !== undefined && at - last.at(-1)! <= periodMs / 2) last.push(at);
    else clusters.push([at]);
  }
  let min = Infinity;
  let max = -Infinity;
  let uneven = 0;
  let width = 0;
  for (let k = 0; k < clusters.length; k++) {
    const c = clusters[k]!;
    if (c.length !== regions) uneven++;
    if (c.length <= regions) width = Math.max(width, c.at(-1)! - c[0]!);
    if (c.length > regions) for (let i = 1; i < c.length; i++) min = Math.min(min, c[i]! - c[i - 1]!);
    const next = clusters[k + 1];
    if (next === undefined) continue;
    min = Math.min(min, next[0]! - c.at(-1)!);
    const reach = c.length < regions || next.length < regions ? (clusters[k + 2] ?? next) : next;
    max = Math.max(max, reach.at(-1)! - c[0]!);
  }
  return { min, max, width, clusters: clusters.length, uneven };
}
