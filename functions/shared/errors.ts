/** Errors of the handlers' shared environment helpers. */
export class HandlerEnvironmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HandlerEnvironmentError';
  }
}

/** A required environment variable is missing or empty. */
export class MissingEnvironmentVariableError extends HandlerEnvironmentError {
  constructor(variable: string, what: string) {
    super(`environment variable ${variable} (${what}) is required but not set`);
    this.name = 'MissingEnvironmentVariableError';
  }
}

/** An environment variable is set to a value that cannot be used. */
export class InvalidEnvironmentVariableError extends HandlerEnvironmentError {
  constructor(variable: string, rule: string, value: string) {
    super(`environment variable ${variable}: ${rule}, got "${value}"`);
    this.name = 'InvalidEnvironmentVariableError';
  }
}

/** DynamoDB still left part of a batch unprocessed after every retry (the table is over its capacity). */
export class UnprocessedItemsError extends Error {
  constructor(
    readonly operation: string,
    readonly count: number,
  ) {
    super(`${operation}: ${count} items left unprocessed`);
    this.name = 'UnprocessedItemsError';
  }
}
