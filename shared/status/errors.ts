import { TrafficManagerError } from '../errors.js';

/** Errors of the status core. */
export class StatusError extends TrafficManagerError {
  override readonly name: string = 'StatusError';
  readonly code: string = 'STATUS';
}

/** `tm plan --status …` named something that does not exist or a status that cannot be set. */
export class StatusOverrideError extends StatusError {
  override readonly name = 'StatusOverrideError';
  override readonly code = 'STATUS_OVERRIDE';
  /** Every problem found, one line each. */
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(problems.join('\n'));
    this.problems = problems;
  }
}

/** Nested profiles loop (validation prevents this; the core refuses rather than recurse forever). */
export class NestingCycleError extends StatusError {
  override readonly name = 'NestingCycleError';
  override readonly code = 'NESTING_CYCLE';
  constructor(path: readonly string[]) {
    super(`nested profiles form a cycle: ${path.join(' → ')}`);
  }
}

/** A status was asked for an endpoint the reports do not cover. */
export class UnknownEndpointError extends StatusError {
  override readonly name = 'UnknownEndpointError';
  override readonly code = 'UNKNOWN_ENDPOINT';
  constructor(profile: string, endpoint: string) {
    super(`no status for endpoint "${profile}/${endpoint}": it is not in the evaluated profiles`);
  }
}
