/**
 * CloudWatch API errors, as the local CloudWatch raises them. CloudWatch speaks AWS JSON 1.0
 * in its awsQuery-compatible mode: the body's `__type` names the exception shape
 * (`com.amazonaws.cloudwatch#InvalidParameterValueException`) and the `x-amzn-query-error`
 * header carries the query error code and fault (`InvalidParameterValue;Sender`), which the SDK
 * reads first: the SDK raises `InvalidParameterValueException` with `Code` `InvalidParameterValue`.
 */
import { TrafficManagerError } from '../../../shared/errors.js';
import { validationMessage } from '../aws-json.js';

/** Query error code → [exception shape, HTTP status], as CloudWatch's model pairs them. */
const CLOUDWATCH_ERROR = {
  InvalidParameterValue: ['InvalidParameterValueException', 400],
  InvalidParameterCombination: ['InvalidParameterCombinationException', 400],
  MissingParameter: ['MissingRequiredParameterException', 400],
  ValidationError: ['ValidationException', 400],
  ResourceNotFound: ['ResourceNotFound', 404],
  InternalServiceError: ['InternalServiceFault', 500],
  InvalidNextToken: ['InvalidNextToken', 400],
  ServiceUnavailable: ['ServiceUnavailable', 503],
  RequestEntityTooLarge: ['RequestEntityTooLarge', 413],
  /** The protocol's own errors (no CloudWatch shape). */
  UnknownOperationException: ['UnknownOperationException', 400],
  SerializationException: ['SerializationException', 400],
  /** What the stand-in does not implement though CloudWatch would accept it (not a CloudWatch code). */
  UnsupportedOperation: ['UnsupportedOperation', 400],
} as const satisfies Record<string, readonly [string, number]>;
export type CloudWatchErrorCode = keyof typeof CLOUDWATCH_ERROR;

export class CloudWatchApiError extends TrafficManagerError {
  override readonly name = 'CloudWatchApiError';
  /** The exception shape (`__type` after the `#`). */
  readonly shape: string;
  readonly status: number;
  constructor(
    /** The query error code (`x-amzn-query-error`), the SDK's `Code`. */
    readonly code: CloudWatchErrorCode,
    message: string,
  ) {
    super(message);
    [this.shape, this.status] = CLOUDWATCH_ERROR[code];
  }
}

/** `The value X for parameter P is invalid.`, CloudWatch's wording (InvalidParameterValue). */
export function invalidValue(parameter: string, value: unknown, rule?: string): CloudWatchApiError {
  const shown = typeof value === 'string' ? value : JSON.stringify(value);
  return new CloudWatchApiError(
    'InvalidParameterValue',
    `The value ${shown} for parameter ${parameter} is invalid.${rule === undefined ? '' : ` ${rule}`}`,
  );
}

/** A value CloudWatch refuses, in its own words (InvalidParameterValue). */
export function invalidParameter(message: string): CloudWatchApiError {
  return new CloudWatchApiError('InvalidParameterValue', message);
}

/** Parameters that do not go together (InvalidParameterCombination). */
export function invalidCombination(message: string): CloudWatchApiError {
  return new CloudWatchApiError('InvalidParameterCombination', message);
}

/** `The parameter P is required.` (MissingParameter). */
export function missingParameter(parameter: string): CloudWatchApiError {
  return new CloudWatchApiError('MissingParameter', `The parameter ${parameter} is required.`);
}

/** A constraint of CloudWatch's model (length, range, enum), worded as AWS's validation layer words it. */
export function validationError(field: string, value: unknown, constraint: string): CloudWatchApiError {
  return new CloudWatchApiError('ValidationError', validationMessage(field, value, constraint));
}

/** Something CloudWatch accepts that the local stand-in does not implement. */
export function unsupported(what: string): CloudWatchApiError {
  return new CloudWatchApiError(
    'UnsupportedOperation',
    `The local CloudWatch does not support ${what} (the real CloudWatch does); see docs/local-cloudwatch.md`,
  );
}
