/** Definitions parsed for a test: the profiles, or an `InvalidDefinitionsError` listing every issue. */
import type { ProfileDefaults } from '../../shared/profile/defaults.js';
import { InvalidDefinitionsError } from '../../shared/profile/errors.js';
import { formatIssue } from '../../shared/profile/issues.js';
import { parseDefinitions } from '../../shared/profile/parse.js';
import type { Profile } from '../../shared/profile/types.js';

export function parseDefinitionsOrThrow(input: unknown, defaults: ProfileDefaults = {}): Profile[] {
  const result = parseDefinitions(input, defaults);
  if (result.ok) return result.profiles;
  throw new InvalidDefinitionsError(
    result.issues.map((issue) => formatIssue(issue, input)),
    { issues: result.issues },
  );
}
