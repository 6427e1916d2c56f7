import { TrafficManagerError } from '../errors.js';

/** Errors of an evaluation's pure steps. */
export class EvaluationError extends TrafficManagerError {
  override readonly name: string = 'EvaluationError';
  readonly code: string = 'EVALUATION';
}

/** A profile in the table that cannot be published (e.g. no hosted zone id). */
export class UnpublishableProfileError extends EvaluationError {
  override readonly name = 'UnpublishableProfileError';
  override readonly code = 'UNPUBLISHABLE_PROFILE';
}
