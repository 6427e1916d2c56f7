/**
 * What `tm history` shows of the history items: the transitions, newest first, filtered by
 * endpoint and time, each with the fields operators read (profile, endpoint, from, to, at,
 * reason, votes as `{region, vote}`, recordsChanged, timing). The timing's first point is
 * named by what it is: `firstFailedCheckAt`, or for a recovery (into Online) `firstPassingCheckAt`.
 * Pure.
 */
import type { TransitionRecord } from '../evaluation/transitions.js';
import { directionOf, type TransitionTiming } from '../evaluation/timing.js';
import type { Vote } from '../monitor/aggregate.js';

/** A transition as `tm history` shows it: its record less the stale flags, votes as `{region, vote}`. */
export type HistoryTransition = Omit<TransitionRecord, 'stale' | 'staleBefore' | 'votes' | 'timing'> & {
  readonly votes: readonly { readonly region: string; readonly vote: Vote }[];
  readonly timing: HistoryTiming;
};

/** A transition's timing; a recovery starts at its first passing check instead of a failed one. */
export type HistoryTiming =
  | TransitionTiming
  | (Omit<TransitionTiming, 'firstFailedCheckAt'> & { readonly firstPassingCheckAt: string | null });

export interface HistoryFilter {
  /** Only this endpoint's transitions (profile-level changes are left out). */
  readonly endpoint?: string;
  /** Epoch ms: only transitions at or after it. */
  readonly since?: number;
}

export function historyView(
  records: readonly TransitionRecord[],
  filter: HistoryFilter = {},
): HistoryTransition[] {
  return records
    .filter((r) => filter.endpoint === undefined || r.endpoint === filter.endpoint)
    .filter((r) => filter.since === undefined || Date.parse(r.at) >= filter.since)
    .map(toTransition)
    .sort((a, b) => (a.at === b.at ? b.eventId.localeCompare(a.eventId) : a.at < b.at ? 1 : -1));
}

function toTransition(record: TransitionRecord): HistoryTransition {
  return {
    eventId: record.eventId,
    profile: record.profile,
    ...(record.endpoint === undefined ? {} : { endpoint: record.endpoint }),
    from: record.from,
    to: record.to,
    at: record.at,
    reason: record.reason,
    votes: record.votes.map(({ region, vote }) => ({ region, vote })),
    recordsChanged: record.recordsChanged,
    timing: timingOf(record),
  };
}

function timingOf({ from, to, timing }: TransitionRecord): HistoryTiming {
  if (directionOf(from, to) !== 'recovering') return timing;
  const { firstFailedCheckAt, ...rest } = timing;
  return { firstPassingCheckAt: firstFailedCheckAt, ...rest };
}

/**
 * One line per transition plus its DNS changes and timing:
 * `2026-05-01T10:00:00.000Z  shop/east  Online → Degraded  4 consecutive failures … [us-east-1 down, …]`
 */
export function formatTransition(t: HistoryTransition): string[] {
  const subject = t.endpoint === undefined ? `${t.profile} (profile)` : `${t.profile}/${t.endpoint}`;
  const votes = t.votes.length === 0 ? '' : `  [${t.votes.map((v) => `${v.region} ${v.vote}`).join(', ')}]`;
  const lines = [`${t.at}  ${subject}  ${t.from ?? '-'} → ${t.to}  ${t.reason}${votes}`];
  for (const c of t.recordsChanged) {
    const set = c.setIdentifier === undefined ? '' : ` [${c.setIdentifier}]`;
    lines.push(`  dns ${c.action} ${c.name} ${c.type}${set} ${c.values.join(' ')}`.trimEnd());
  }
  lines.push(`  timing ${formatTiming(t.timing)}`);
  return lines;
}

/**
 * `first failed check 10:00:01.200Z → decided +41.3 s → submitted +0.2 s → in sync +0.4 s; detect → publish 41.9 s (formula: …)`,
 * `first passing check …` for a recovery.
 */
export function formatTiming(timing: HistoryTiming): string {
  const steps: string[] = [];
  let previous: number | undefined;
  const step = (label: string, iso: string | null) => {
    if (iso === null) return;
    const at = Date.parse(iso);
    steps.push(previous === undefined ? `${label} ${iso}` : `${label} +${seconds(at - previous)}`);
    previous = at;
  };
  if ('firstPassingCheckAt' in timing) step('first passing check', timing.firstPassingCheckAt);
  else step('first failed check', timing.firstFailedCheckAt);
  step('decided', timing.decidedAt);
  step('submitted', timing.changeSubmittedAt);
  step('in sync', timing.inSyncAt);
  const bound =
    timing.expectedDetectToPublishMs === null
      ? ''
      : ` of at most ${Math.round(timing.expectedDetectToPublishMs / 100) / 10} s`;
  const measured =
    timing.detectToPublishMs === null
      ? ''
      : `; detect → publish ${seconds(timing.detectToPublishMs)}${bound}`;
  // The measured span starts at the first failing check and ends at INSYNC: the formula less those two parts.
  const expected =
    timing.expectedFormula === null
      ? ''
      : ` (formula: ${timing.expectedFormula}${measured === '' ? '' : ', less 1 interval and the TTL'})`;
  return `${steps.join(' → ')}${measured}${expected}`;
}

function seconds(ms: number): string {
  return `${(Math.round(ms / 100) / 10).toFixed(1)} s`;
}
