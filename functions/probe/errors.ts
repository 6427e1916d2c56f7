import { TrafficManagerError } from '../../shared/errors.js';

/** Errors of the probe function (the worker, its state store and its handlers). */
export class ProbeFunctionError extends TrafficManagerError {
  override readonly name: string = 'ProbeFunctionError';
  readonly code: string = 'PROBE_FUNCTION';
}

/** The tick could not enqueue some of the minute's rounds. */
export class RoundEnqueueError extends ProbeFunctionError {
  override readonly name = 'RoundEnqueueError';
  override readonly code = 'ROUND_ENQUEUE';
  constructor(failed: readonly string[]) {
    super(`could not enqueue rounds ${failed.join(', ')}`);
  }
}

/**
 * A secret or parameter that is not a header value: binary, empty, too long, or holding line
 * breaks. Its code is shown in the check's detail beside the AWS error codes of a failed read,
 * so it is written like them.
 */
export class SecretValueError extends ProbeFunctionError {
  override readonly name = 'SecretValueError';
  override readonly code = 'InvalidHeaderValue';
}
