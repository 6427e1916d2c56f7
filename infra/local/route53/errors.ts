/**
 * Route 53 API errors, as the local Route 53 raises them. Each carries the
 * error code and HTTP status that Route 53 sends in its `ErrorResponse`, so the
 * HTTP layer renders them and the AWS SDK raises the matching exception.
 */
import { TrafficManagerError } from '../../../shared/errors.js';

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

/** A change batch that breaks a Route 53 rule: Route 53 sends every problem in one message. */
export function invalidChangeBatch(messages: readonly string[]): Route53ApiError {
  return new Route53ApiError('InvalidChangeBatch', 400, `[${messages.join(', ')}]`);
}

/** A request that fails a field constraint or is malformed (`InvalidInput`, 400). */
export class InvalidInputError extends Route53ApiError {
  override readonly name = 'InvalidInputError';
  constructor(message: string) {
    super('InvalidInput', 400, message);
  }
}

/** A value outside the API model's constraint for a field, worded as Route 53 words it (`InvalidInput`). */
export function constraintError(field: string, value: unknown, constraint: string): InvalidInputError {
  return new InvalidInputError(
    `Value '${String(value ?? null)}' at '${field}' failed to satisfy constraint: ${constraint}`,
  );
}

export class NoSuchHostedZoneError extends Route53ApiError {
  override readonly name = 'NoSuchHostedZoneError';
  constructor(id: string) {
    super('NoSuchHostedZone', 404, `No hosted zone found with ID: ${id}`);
  }
}

export class HostedZoneAlreadyExistsError extends Route53ApiError {
  override readonly name = 'HostedZoneAlreadyExistsError';
  constructor(name: string, callerReference: string) {
    super(
      'HostedZoneAlreadyExists',
      409,
      `A hosted zone has already been created with the specified caller reference ${callerReference} (name ${name}).`,
    );
  }
}

export class NoSuchChangeError extends Route53ApiError {
  override readonly name = 'NoSuchChangeError';
  constructor(id: string) {
    super('NoSuchChange', 404, `A change with the specified change ID does not exist: ${id}`);
  }
}

export class NoSuchCidrCollectionError extends Route53ApiError {
  override readonly name = 'NoSuchCidrCollectionError';
  constructor(id: string) {
    super('NoSuchCidrCollectionException', 404, `The CIDR collection ${id} does not exist.`);
  }
}

export class NoSuchCidrLocationError extends Route53ApiError {
  override readonly name = 'NoSuchCidrLocationError';
  constructor(collectionId: string, location: string) {
    super(
      'NoSuchCidrLocationException',
      404,
      `The CIDR collection ${collectionId} has no location ${location}.`,
    );
  }
}

export class CidrCollectionAlreadyExistsError extends Route53ApiError {
  override readonly name = 'CidrCollectionAlreadyExistsError';
  constructor(name: string) {
    super(
      'CidrCollectionAlreadyExistsException',
      400,
      `A CIDR collection with the name ${name} already exists.`,
    );
  }
}

export class CidrCollectionVersionMismatchError extends Route53ApiError {
  override readonly name = 'CidrCollectionVersionMismatchError';
  constructor(expected: number, actual: number) {
    super(
      'CidrCollectionVersionMismatchException',
      409,
      `The CIDR collection version is ${actual}, not ${expected}.`,
    );
  }
}

export class CidrBlockInUseError extends Route53ApiError {
  override readonly name = 'CidrBlockInUseError';
  constructor(collectionId: string, location: string) {
    super(
      'CidrBlockInUseException',
      400,
      `Location ${location} of CIDR collection ${collectionId} is used by resource record sets; it must keep at least one CIDR block.`,
    );
  }
}

export class PriorRequestNotCompleteError extends Route53ApiError {
  override readonly name = 'PriorRequestNotCompleteError';
  constructor() {
    super(
      'PriorRequestNotComplete',
      400,
      'The request was rejected because Route 53 was still processing a prior request.',
    );
  }
}

export class ThrottlingError extends Route53ApiError {
  override readonly name = 'ThrottlingError';
  constructor() {
    super('Throttling', 400, 'Rate exceeded');
  }
}

export class ServiceUnavailableError extends Route53ApiError {
  override readonly name = 'ServiceUnavailableError';
  constructor(message = 'Service Unavailable (injected by the local Route 53)') {
    super('ServiceUnavailable', 503, message);
  }
}

/** A path or method the local Route 53 does not implement. */
export class UnsupportedOperationError extends Route53ApiError {
  override readonly name = 'UnsupportedOperationError';
  constructor(method: string, path: string) {
    super('UnsupportedOperation', 400, `The local Route 53 does not implement ${method} ${path}`);
  }
}

export class NoSuchHealthCheckError extends Route53ApiError {
  override readonly name = 'NoSuchHealthCheckError';
  constructor(id: string, where?: string) {
    super(
      'NoSuchHealthCheck',
      404,
      `No health check exists with the ID ${id}${where === undefined ? '' : ` ${where}`}.`,
    );
  }
}

export class HealthCheckAlreadyExistsError extends Route53ApiError {
  override readonly name = 'HealthCheckAlreadyExistsError';
  constructor(callerReference: string) {
    super(
      'HealthCheckAlreadyExists',
      409,
      `A health check with caller reference ${callerReference} already exists with other settings (or was deleted); use a new CallerReference.`,
    );
  }
}

export class HealthCheckVersionMismatchError extends Route53ApiError {
  override readonly name = 'HealthCheckVersionMismatchError';
  constructor(id: string, sent: number, current: number) {
    super(
      'HealthCheckVersionMismatch',
      409,
      `The health check ${id} is at version ${current}, not ${sent}: get it again and retry the update.`,
    );
  }
}

export class TooManyHealthChecksError extends Route53ApiError {
  override readonly name = 'TooManyHealthChecksError';
  constructor(limit: number) {
    super(
      'TooManyHealthChecks',
      400,
      `This account already has ${limit} health checks, the limit (Route 53's default quota; AWS raises it on request).`,
    );
  }
}
