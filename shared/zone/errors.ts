/** Errors of the zone model: applying changes and diffing record sets. */
export class ZoneError extends Error {
  override name = 'ZoneError';
  readonly code: string = 'ZoneError';
}

/** A change that Route 53 would reject: CREATE of an existing record, DELETE of a missing or different one. */
export class InvalidChangeError extends ZoneError {
  override name = 'InvalidChangeError';
  override readonly code = 'InvalidChange';
}

/** Two record sets with the same identity (name, type, SetIdentifier) in one list. */
export class DuplicateRecordError extends ZoneError {
  override name = 'DuplicateRecordError';
  override readonly code = 'DuplicateRecord';
}
