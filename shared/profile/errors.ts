/** Errors of the profile module. Validation itself never throws: it returns every issue. */
import type { ValidationIssue } from './issues.js';

export class ProfileError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ProfileError';
  }
}

/** Thrown by `parseDefinitionsOrThrow` (CDK synth): the message holds every formatted issue. */
export class InvalidDefinitionsError extends ProfileError {
  readonly code = 'INVALID_DEFINITIONS';

  constructor(
    readonly issues: readonly ValidationIssue[],
    readonly formatted: readonly string[],
  ) {
    super(
      `invalid profile definitions (${formatted.length} ${formatted.length === 1 ? 'problem' : 'problems'}):\n${formatted.join('\n')}`,
    );
    this.name = 'InvalidDefinitionsError';
  }
}
