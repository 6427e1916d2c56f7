/** Errors of the profile module. Validation itself never throws: it returns every issue. */
import { TrafficManagerError } from '../errors.js';
import type { ValidationIssue } from './issues.js';

export class ProfileError extends TrafficManagerError {
  override readonly name: string = 'ProfileError';
  readonly code: string = 'PROFILE';
}

/**
 * Definitions that do not validate, for callers that must stop (CDK synth): `lines` are
 * exactly what `tm validate` prints, and the message holds every one of them.
 */
export class InvalidDefinitionsError extends ProfileError {
  override readonly name = 'InvalidDefinitionsError';
  override readonly code = 'INVALID_DEFINITIONS';
  /** Where the definitions came from (a file, `the profiles prop`), when known. */
  readonly source: string | undefined;
  readonly issues: readonly ValidationIssue[];

  constructor(
    readonly lines: readonly string[],
    options: { readonly source?: string; readonly issues?: readonly ValidationIssue[] } = {},
  ) {
    super(
      options.source === undefined
        ? `invalid profile definitions (${lines.length} ${lines.length === 1 ? 'problem' : 'problems'}):\n${lines.join('\n')}`
        : `invalid profile definitions in ${options.source}:\n${lines.join('\n')}`,
    );
    this.source = options.source;
    this.issues = options.issues ?? [];
  }
}
