import type { RecordSet, RecordType } from '../../../shared/zone/record-set.js';

/**
 * Types the zone holds: the ones the change API accepts (`RecordType`), plus
 * the apex SOA and NS records Route 53 creates with every hosted zone (listed
 * by the API, never changed through it, not part of the in-process view).
 */
export type StoredRecordType = RecordType | 'SOA' | 'NS';

export type StoredRecordSet = Omit<RecordSet, 'type'> & { readonly type: StoredRecordType };

export function isPublicRecordSet(record: StoredRecordSet): record is RecordSet {
  return record.type === 'A' || record.type === 'AAAA' || record.type === 'CNAME';
}

/** Identity of a record set in a zone: name, type and SetIdentifier. */
export function recordKey(record: Pick<StoredRecordSet, 'name' | 'type' | 'setIdentifier'>): string {
  return `${record.name}\u0000${record.type}\u0000${record.setIdentifier ?? ''}`;
}
