export class EvaluatorError extends Error {
  override name = 'EvaluatorError';
}

/** Route 53 rejected a change batch (it did not match the zone, or broke a rule). */
export class InvalidChangeBatchError extends EvaluatorError {
  override name = 'InvalidChangeBatchError';
  constructor(
    readonly hostedZoneId: string,
    readonly messages: readonly string[],
  ) {
    super(`Route 53 rejected a change batch for ${hostedZoneId}: ${messages.join('; ')}`);
  }
}

/** A stream record that is not a traffic-manager item we know how to read. */
export class MalformedRecordError extends EvaluatorError {
  override name = 'MalformedRecordError';
}
