/** Errors of an evaluation's pure steps. */
export class EvaluationError extends Error {
  override name = 'EvaluationError';
}

/** A profile in the table that cannot be published (e.g. no hosted zone id). */
export class UnpublishableProfileError extends EvaluationError {
  override name = 'UnpublishableProfileError';
}
