import { TrafficManagerError } from '../../shared/errors.js';

/** Errors of the handlers' shared environment helpers. */
export class HandlerEnvironmentError extends TrafficManagerError {
  override readonly name: string = 'HandlerEnvironmentError';
  readonly code: string = 'HANDLER_ENVIRONMENT';
}

/** A required environment variable is missing or empty. */
export class MissingEnvironmentVariableError extends HandlerEnvironmentError {
  override readonly name = 'MissingEnvironmentVariableError';
  override readonly code = 'MISSING_ENVIRONMENT_VARIABLE';
  constructor(variable: string, what: string) {
    super(`environment variable ${variable} (${what}) is required but not set`);
  }
}

/** An environment variable is set to a value that cannot be used. */
export class InvalidEnvironmentVariableError extends HandlerEnvironmentError {
  override readonly name = 'InvalidEnvironmentVariableError';
  override readonly code = 'INVALID_ENVIRONMENT_VARIABLE';
  constructor(variable: string, rule: string, value: string) {
    super(`environment variable ${variable}: ${rule}, got "${value}"`);
  }
}

/** DynamoDB still left part of a batch unprocessed after every retry (the table is over its capacity). */
export class UnprocessedItemsError extends TrafficManagerError {
  override readonly name = 'UnprocessedItemsError';
  readonly code = 'UNPROCESSED_ITEMS';
  constructor(
    readonly operation: string,
    readonly count: number,
  ) {
    super(`${operation}: ${count} items left unprocessed`);
  }
}

/**
 * An AWS response lacks a field the API always sends (the SDK types it optional): the service
 * broke its contract, so the call fails here instead of acting on a made-up empty value.
 */
export class MissingResponseFieldError extends TrafficManagerError {
  override readonly name = 'MissingResponseFieldError';
  readonly code = 'MISSING_RESPONSE_FIELD';
  constructor(readonly field: string) {
    super(`the AWS response has no ${field}, which the API always sends`);
  }
}
