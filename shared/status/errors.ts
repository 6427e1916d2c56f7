/** Errors of the status core. Each has a stable `code`. */
export class StatusError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'StatusError';
    this.code = code;
  }
}

/** `tm plan --status …` named something that does not exist or a status that cannot be set. */
export class StatusOverrideError extends StatusError {
  /** Every problem found, one line each. */
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super('STATUS_OVERRIDE', problems.join('\n'));
    this.name = 'StatusOverrideError';
    this.problems = problems;
  }
}

/** Nested profiles loop (validation prevents this; the core refuses rather than recurse forever). */
export class NestingCycleError extends StatusError {
  constructor(path: readonly string[]) {
    super('NESTING_CYCLE', `nested profiles form a cycle: ${path.join(' → ')}`);
    this.name = 'NestingCycleError';
  }
}

/** A status was asked for an endpoint the reports do not cover. */
export class UnknownEndpointError extends StatusError {
  constructor(profile: string, endpoint: string) {
    super(
      'UNKNOWN_ENDPOINT',
      `no status for endpoint "${profile}/${endpoint}": it is not in the evaluated profiles`,
    );
    this.name = 'UnknownEndpointError';
  }
}
