import { TrafficManagerError } from '../errors.js';

/** Errors of the zone model: applying changes and diffing record sets. */
export class ZoneError extends TrafficManagerError {
  override readonly name: string = 'ZoneError';
  readonly code: string = 'ZONE';
}

/** A change that Route 53 would reject: CREATE of an existing record, DELETE of a missing or different one. */
export class InvalidChangeError extends ZoneError {
  override readonly name = 'InvalidChangeError';
  override readonly code = 'INVALID_CHANGE';
}

/** Two record sets with the same identity (name, type, SetIdentifier) in one list. */
export class DuplicateRecordError extends ZoneError {
  override readonly name = 'DuplicateRecordError';
  override readonly code = 'DUPLICATE_RECORD';
}
