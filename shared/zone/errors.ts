import { TrafficManagerError } from '../errors.js';

/** Errors of the zone model: diffing record sets. */
export class ZoneError extends TrafficManagerError {
  override readonly name: string = 'ZoneError';
  readonly code: string = 'ZONE';
}

/** Two record sets with the same identity (name, type, SetIdentifier) in one list. */
export class DuplicateRecordError extends ZoneError {
  override readonly name = 'DuplicateRecordError';
  override readonly code = 'DUPLICATE_RECORD';
}
