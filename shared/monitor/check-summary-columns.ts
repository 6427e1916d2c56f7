/**
 * A probe region shard's check summaries, stored positionally: one column per field, one row
 * per verdict key of the shard's judge list (a JudgeListItem, written only when the list
 * changes), so the summary item, written every few heartbeat periods, carries no keys. Times
 * are kept as tenths of a second before the item's `at` (rounded towards the past, so a
 * summary never looks newer than the check it describes) and latencies to two significant
 * digits: what compresses to a few bytes per judge.
 */
import { fnv1a32 } from '../hash/fnv1a.js';
import type { StoredCheckSummary } from './check-summary.js';
import { roundLatency } from './latency-histogram.js';

/** [tenths of a second before `at`, checks, failures, latest ms | null, median ms | null], a column each. */
export type SummaryColumns = readonly [
  readonly number[],
  readonly number[],
  readonly number[],
  readonly (number | null)[],
  readonly (number | null)[],
];

const TENTH_MS = 100;

/** Names one judge list (its keys, in order): a summary is read only against the list it was written for. */
export function judgeListVersion(keys: readonly string[]): string {
  const text = keys.join('\n');
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return `${keys.length}-${hex(fnv1a32(text))}${hex(fnv1a32(text, 0x5bd1e995))}`;
}

/** The summaries of `keys`, in their order (a judge without a summary has 0 checks). */
export function toColumns(
  keys: readonly string[],
  summaries: ReadonlyMap<string, StoredCheckSummary>,
  at: number,
): SummaryColumns {
  const columns: [number[], number[], number[], (number | null)[], (number | null)[]] = [[], [], [], [], []];
  for (const key of keys) {
    const [lastCheckedAt, checks, failures, latest, median] = summaries.get(key) ?? [at, 0, 0, null, null];
    columns[0].push(Math.max(0, Math.ceil((at - lastCheckedAt) / TENTH_MS)));
    columns[1].push(checks);
    columns[2].push(failures);
    columns[3].push(latest === null ? null : roundLatency(latest));
    columns[4].push(median === null ? null : roundLatency(median));
  }
  return columns;
}

/**
 * The summaries by verdict key; none when the columns do not match the list (another list,
 * or a malformed item): a reader then shows the verdicts' own checks.
 */
export function fromColumns(
  keys: readonly string[],
  columns: SummaryColumns,
  at: number,
): Record<string, StoredCheckSummary> {
  if (!Array.isArray(columns) || columns.length !== 5 || columns.some((c) => c?.length !== keys.length))
    return {};
  const [ago, checks, failures, latest, median] = columns;
  const summaries: Record<string, StoredCheckSummary> = {};
  keys.forEach((key, i) => {
    const count = checks[i] ?? 0;
    if (count === 0) return;
    summaries[key] = [
      at - (ago[i] ?? 0) * TENTH_MS,
      count,
      failures[i] ?? 0,
      latest[i] ?? null,
      median[i] ?? null,
    ];
  });
  return summaries;
}
