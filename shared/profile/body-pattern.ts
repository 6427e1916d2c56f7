/**
 * The checks an `expectedBody` regular expression passes at validate time: it compiles, its
 * flags are of `imsu` (`g` and `y` would make matching stateful), and it is safe from
 * catastrophic backtracking — `safe-regex2` (fastify's, maintained, no native code) rejects
 * nested repetition such as `(a+)+` and more than 25 repetitions, which keeps every match of
 * a pattern of at most 256 characters against at most 64 KiB of body fast.
 */
import safeRegex from 'safe-regex2';

export const BODY_REGEX_FLAGS = 'imsu';

/** Why the pattern is refused, or undefined when it is fine. */
export function bodyPatternProblem(pattern: string, flags: string): string | undefined {
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    return `must be a valid regular expression (${(error as Error).message})`;
  }
  if (!safeRegex(pattern)) {
    return 'must be a safe regular expression: no repetition inside a repetition such as (a+)+ and at most 25 repetitions (these can take exponential time)';
  }
  return undefined;
}
