/**
 * Applies changes to a zone's record sets the way Route 53 does, in order: CREATE fails on
 * an existing record, DELETE fails unless it matches the current record exactly, UPSERT
 * creates or replaces. Pure: returns a new list.
 */
import { InvalidChangeError } from './errors.js';
import { describeRecord, recordIdentity, sameRecord } from './identity.js';
import type { Change, RecordSet } from './record-set.js';

export function applyChanges(zone: readonly RecordSet[], changes: readonly Change[]): RecordSet[] {
  const records = new Map(zone.map((record) => [recordIdentity(record), record]));
  for (const { action, recordSet } of changes) {
    const identity = recordIdentity(recordSet);
    const current = records.get(identity);
    switch (action) {
      case 'CREATE':
        if (current !== undefined) {
          throw new InvalidChangeError(`CREATE ${describeRecord(recordSet)}: the record already exists`);
        }
        records.set(identity, recordSet);
        break;
      case 'DELETE':
        if (current === undefined || !sameRecord(current, recordSet)) {
          throw new InvalidChangeError(
            `DELETE ${describeRecord(recordSet)}: ${current === undefined ? 'no such record' : 'the values do not match the current record'}`,
          );
        }
        records.delete(identity);
        break;
      case 'UPSERT':
        records.set(identity, recordSet);
        break;
    }
  }
  return [...records.values()];
}
