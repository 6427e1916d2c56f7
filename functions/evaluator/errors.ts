import { TrafficManagerError } from '../../shared/errors.js';

/** Errors of the evaluator function. */
export class EvaluatorError extends TrafficManagerError {
  override readonly name: string = 'EvaluatorError';
  readonly code: string = 'EVALUATOR';
}

/** Route 53 rejected a change batch (it did not match the zone, or broke a rule). */
export class InvalidChangeBatchError extends EvaluatorError {
  override readonly name = 'InvalidChangeBatchError';
  override readonly code = 'INVALID_CHANGE_BATCH';
  constructor(
    readonly hostedZoneId: string,
    readonly messages: readonly string[],
  ) {
    super(`Route 53 rejected a change batch for ${hostedZoneId}: ${messages.join('; ')}`);
  }
}

/** A stream record that is not a traffic-manager item we know how to read. */
export class MalformedRecordError extends EvaluatorError {
  override readonly name = 'MalformedRecordError';
  override readonly code = 'MALFORMED_RECORD';
}

/** EventBridge refused some entries of a PutEvents call (retried: only those entries are sent again). */
export class PartialPutEventsError extends EvaluatorError {
  override readonly name = 'PartialPutEventsError';
  override readonly code = 'PARTIAL_PUT_EVENTS';
}

/** Static failover could not be applied as planned (an unexpected check, a check id missing). */
export class StaticFailoverError extends EvaluatorError {
  override readonly name = 'StaticFailoverError';
  override readonly code = 'STATIC_FAILOVER';
}
