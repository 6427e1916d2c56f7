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

function compareRecordPosition(a: ListStart, b: ListStart): number {
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
  const atOrAfter =
    start.name === undefined
      ? undefined
      : (record: StoredRecordSet) => compareRecordPosition(positionOf(record), start) >= 0;
  const { items, following } = pageFrom(sortRecords(records), atOrAfter, maxItems);
  if (following === undefined) return { records: items, isTruncated: false };
  return {
    records: items,
    isTruncated: true,
    next: {
      name: following.name,
      type: following.type,
      ...(following.setIdentifier === undefined ? {} : { identifier: following.setIdentifier }),
    },
  };
}

/** A page of `size` from the first item `atOrAfter` accepts (from the first when undefined), and the item after it. */
export function pageFrom<T>(
  sorted: readonly T[],
  atOrAfter: ((item: T) => boolean) | undefined,
  size: number,
): { items: T[]; following?: T } {
  const from = atOrAfter === undefined ? 0 : sorted.findIndex(atOrAfter);
  const remaining = from < 0 ? [] : sorted.slice(from);
  const following = remaining[size];
  return { items: remaining.slice(0, size), ...(following === undefined ? {} : { following }) };
}

function positionOf(record: StoredRecordSet): ListStart {
  return { name: record.name, type: record.type, identifier: record.setIdentifier ?? '' };
}
