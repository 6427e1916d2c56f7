/**
 * Route 53 API errors, as the local Route 53 raises them. Each carries the
 * error code and HTTP status that Route 53 sends in its `ErrorResponse`, so the
 * HTTP layer renders them and the AWS SDK raises the matching exception.
 */
export class Route53ApiError extends Error {
  /** The `<Code>` of the `ErrorResponse` (the SDK's exception name). */
  readonly code: string;
  /** The HTTP status Route 53 answers with. */
  readonly status: number;
  /** `Sender` for client errors, `Receiver` for server errors. */
  readonly type: 'Sender' | 'Receiver';

  constructor(code: string, status: number, message: string) {
    super(message);
    this.name = 'Route53ApiError';
    this.code = code;
    this.status = status;
    this.type = status >= 500 ? 'Receiver' : 'Sender';
  }
}

/**
 * A change batch that breaks a Route 53 rule. Route 53 sends every problem of
 * the batch in one message, `[first, second]`; `messages` keeps them apart.
 */
export class InvalidChangeBatchError extends Route53ApiError {
  readonly messages: readonly string[];

  constructor(messages: readonly string[]) {
    super('InvalidChangeBatch', 400, `[${messages.join(', ')}]`);
    this.name = 'InvalidChangeBatchError';
    this.messages = messages;
  }
}

/** A request that fails a field constraint or is malformed (`InvalidInput`, 400). */
export class InvalidInputError extends Route53ApiError {
  constructor(message: string) {
    super('InvalidInput', 400, message);
    this.name = 'InvalidInputError';
  }
}

export class NoSuchHostedZoneError extends Route53ApiError {
  constructor(id: string) {
    super('NoSuchHostedZone', 404, `No hosted zone found with ID: ${id}`);
    this.name = 'NoSuchHostedZoneError';
  }
}

export class HostedZoneAlreadyExistsError extends Route53ApiError {
  constructor(name: string, callerReference: string) {
    super(
      'HostedZoneAlreadyExists',
      409,
      `A hosted zone has already been created with the specified caller reference ${callerReference} (name ${name}).`,
    );
    this.name = 'HostedZoneAlreadyExistsError';
  }
}

export class NoSuchChangeError extends Route53ApiError {
  constructor(id: string) {
    super('NoSuchChange', 404, `A change with the specified change ID does not exist: ${id}`);
    this.name = 'NoSuchChangeError';
  }
}

export class NoSuchCidrCollectionError extends Route53ApiError {
  constructor(id: string) {
    super('NoSuchCidrCollectionException', 404, `The CIDR collection ${id} does not exist.`);
    this.name = 'NoSuchCidrCollectionError';
  }
}

export class NoSuchCidrLocationError extends Route53ApiError {
  constructor(collectionId: string, location: string) {
    super(
      'NoSuchCidrLocationException',
      404,
      `The CIDR collection ${collectionId} has no location ${location}.`,
    );
    this.name = 'NoSuchCidrLocationError';
  }
}

export class CidrCollectionAlreadyExistsError extends Route53ApiError {
  constructor(name: string) {
    super(
      'CidrCollectionAlreadyExistsException',
      400,
      `A CIDR collection with the name ${name} already exists.`,
    );
    this.name = 'CidrCollectionAlreadyExistsError';
  }
}

export class CidrCollectionVersionMismatchError extends Route53ApiError {
  constructor(expected: number, actual: number) {
    super(
      'CidrCollectionVersionMismatchException',
      409,
      `The CIDR collection version is ${actual}, not ${expected}.`,
    );
    this.name = 'CidrCollectionVersionMismatchError';
  }
}

export class CidrBlockInUseError extends Route53ApiError {
  constructor(collectionId: string, location: string) {
    super(
      'CidrBlockInUseException',
      400,
      `Location ${location} of CIDR collection ${collectionId} is used by resource record sets; it must keep at least one CIDR block.`,
    );
    this.name = 'CidrBlockInUseError';
  }
}

export class PriorRequestNotCompleteError extends Route53ApiError {
  constructor() {
    super(
      'PriorRequestNotComplete',
      400,
      'The request was rejected because Route 53 was still processing a prior request.',
    );
    this.name = 'PriorRequestNotCompleteError';
  }
}

export class ThrottlingError extends Route53ApiError {
  constructor() {
    super('Throttling', 400, 'Rate exceeded');
    this.name = 'ThrottlingError';
  }
}

export class ServiceUnavailableError extends Route53ApiError {
  constructor() {
    super('ServiceUnavailable', 503, 'Service Unavailable (injected by the local Route 53)');
    this.name = 'ServiceUnavailableError';
  }
}

/** A path or method the local Route 53 does not implement. */
export class UnsupportedOperationError extends Route53ApiError {
  constructor(method: string, path: string) {
    super('UnsupportedOperation', 400, `The local Route 53 does not implement ${method} ${path}`);
    this.name = 'UnsupportedOperationError';
  }
}
