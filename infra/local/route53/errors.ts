/**
 * Route 53 API errors, as the local Route 53 raises them. Each carries the
 * error code and HTTP status that Route 53 sends in its `ErrorResponse`, so the
 * HTTP layer renders them and the AWS SDK raises the matching exception.
 */
import { TrafficManagerError } from '../../../shared/errors.js';

/** Error code → the HTTP status Route 53 answers it with. */
const ROUTE53_ERROR = {
  InvalidInput: 400,
  InvalidChangeBatch: 400,
  NoSuchHostedZone: 404,
  NoSuchChange: 404,
  NoSuchCidrCollectionException: 404,
  NoSuchCidrLocationException: 404,
  CidrCollectionAlreadyExistsException: 400,
  CidrCollectionVersionMismatchException: 409,
  CidrBlockInUseException: 400,
  PriorRequestNotComplete: 400,
  NoSuchHealthCheck: 404,
  HealthCheckAlreadyExists: 409,
  HealthCheckVersionMismatch: 409,
  TooManyHealthChecks: 400,
  Throttling: 400,
  ServiceUnavailable: 503,
  InternalFailure: 500,
  /** A path or method the local Route 53 does not implement (not a Route 53 code). */
  UnsupportedOperation: 400,
} as const satisfies Record<string, number>;

export class Route53ApiError extends TrafficManagerError {
  override readonly name: string = 'Route53ApiError';
  /** The `<Code>` of the `ErrorResponse` (the SDK's exception name). */
  readonly code: string;
  /** The HTTP status Route 53 answers with. */
  readonly status: number;
  /** `Sender` for client errors, `Receiver` for server errors. */
  readonly type: 'Sender' | 'Receiver';

  constructor(code: string, status: number, message: string) {
    super(message);
    this.code = code;
    this.status = status;
    this.type = status >= 500 ? 'Receiver' : 'Sender';
  }
}

/** The error Route 53 answers `code` with, at its HTTP status. */
export function route53Error(code: keyof typeof ROUTE53_ERROR, message: string): Route53ApiError {
  return new Route53ApiError(code, ROUTE53_ERROR[code], message);
}

/** A change batch that breaks a Route 53 rule: Route 53 sends every problem in one message. */
export function invalidChangeBatch(messages: readonly string[]): Route53ApiError {
  return route53Error('InvalidChangeBatch', `[${messages.join(', ')}]`);
}

/** A request that fails a field constraint or is malformed (`InvalidInput`, 400). */
export function invalidInput(message: string): Route53ApiError {
  return route53Error('InvalidInput', message);
}

/** A value outside the API model's constraint for a field, worded as Route 53 words it (`InvalidInput`). */
export function constraintError(field: string, value: unknown, constraint: string): Route53ApiError {
  return invalidInput(
    `Value '${String(value ?? null)}' at '${field}' failed to satisfy constraint: ${constraint}`,
  );
}
