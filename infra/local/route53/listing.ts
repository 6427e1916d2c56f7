import { compareAscii, reversedLabelKey } from './names.js';
import type { StoredRecordSet } from './stored-record.js';

/**
 * ListResourceRecordSets order and paging: by name with the labels reversed,
 * then by type, then by SetIdentifier; a page starts at the first record at or
 * after (name, type, identifier) and names the next one when truncated.
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_ListResourceRecordSets.html
 */
export interface ListStart {
  readonly name?: string;
  readonly type?: string;
  readonly identifier?: string;
}

export interface RecordPage {
  readonly records: readonly StoredRecordSet[];
  readonly isTruncated: boolean;
  readonly next?: { readonly name: string; readonly type: string; readonly identifier?: string };
}

/** Route 53 returns at most 300 record sets per page, whatever MaxItems asks. */
export const MAX_LIST_ITEMS = 300;

export function compareRecordPosition(a: ListStart, b: ListStart): number {
  return (
    compareAscii(reversedLabelKey(a.name ?? ''), reversedLabelKey(b.name ?? '')) ||
    compareAscii(a.type ?? '', b.type ?? '') ||
    compareAscii(a.identifier ?? '', b.identifier ?? '')
  );
}

export function sortRecords(records: readonly StoredRecordSet[]): StoredRecordSet[] {
  return [...records].sort((a, b) => compareRecordPosition(positionOf(a), positionOf(b)));
}

export function listRecordPage(
  records: readonly StoredRecordSet[],
  start: ListStart,
  maxItems: number,
): RecordPage {
  const sorted = sortRecords(records);
  const from =
    start.name === undefined
      ? 0
      : sorted.findIndex((record) => compareRecordPosition(positionOf(record), start) >= 0);
  const remaining = from < 0 ? [] : sorted.slice(from);
  const size = Math.min(Math.max(maxItems, 1), MAX_LIST_ITEMS);
  const page = remaining.slice(0, size);
  const following = remaining[size];
  if (following === undefined) return { records: page, isTruncated: false };
  return {
    records: page,
    isTruncated: true,
    next: {
      name: following.name,
      type: following.type,
      ...(following.setIdentifier === undefined ? {} : { identifier: following.setIdentifier }),
    },
  };
}

function positionOf(record: StoredRecordSet): ListStart {
  return { name: record.name, type: record.type, identifier: record.setIdentifier ?? '' };
}
