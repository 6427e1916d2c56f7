/**
 * Bounds on the raw input, checked before the schema and the rules look at it, so that
 * what they do costs little whatever the input: at most `INPUT_BOUNDS.values` values, no
 * string longer than `INPUT_BOUNDS.stringLength`, no deeper than `INPUT_BOUNDS.depth`, and
 * no value that contains itself (a YAML alias of an enclosing node, or a JavaScript object
 * referring back). The walk is iterative and stops at the first value past the budget, so
 * it is bounded too. Values shared by several places (YAML aliases) count at each place.
 */
import { INPUT_BOUNDS } from './defaults.js';
import { isRecord, type IssuePath, type ValidationIssue } from './issues.js';

/** The walk stops after this many problems: the input is beyond repair by then. */
const MAX_BOUND_ISSUES = 100;

interface Pending {
  readonly value: unknown;
  readonly path: IssuePath;
  /** The lists and objects that enclose `value`, outermost first. */
  readonly ancestors: readonly object[];
}

/** The input's bound violations; an empty list means the schema and the rules may run. */
export function checkInputBounds(input: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const stack: Pending[] = [{ value: input, path: [], ancestors: [] }];
  let values = 0;
  while (stack.length > 0 && issues.length < MAX_BOUND_ISSUES) {
    const { value, path, ancestors } = stack.pop()!;
    values++;
    if (values > INPUT_BOUNDS.values) {
      issues.push({
        path: [],
        rule: 'too-large',
        received: undefined,
        receivedText: 'more',
        message: `must hold at most ${INPUT_BOUNDS.values} values (lists, objects, strings, numbers) in all`,
      });
      break;
    }
    if (typeof value === 'string') {
      if (value.length > INPUT_BOUNDS.stringLength) issues.push(tooLong(path, value, 'string'));
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (ancestors.includes(value)) {
      issues.push({
        path,
        rule: 'cycle',
        received: undefined,
        receivedText: `${Array.isArray(value) ? 'a list' : 'an object'} that contains itself`,
        message: 'must not contain itself (a YAML alias or an object that refers back to an enclosing one)',
      });
      continue;
    }
    if (ancestors.length >= INPUT_BOUNDS.depth) {
      issues.push({
        path,
        rule: 'depth',
        received: undefined,
        receivedText: `more than ${INPUT_BOUNDS.depth} levels`,
        message: `must nest lists and objects at most ${INPUT_BOUNDS.depth} levels deep`,
      });
      continue;
    }
    const inner = [...ancestors, value];
    const children: Pending[] = [];
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length && children.length <= INPUT_BOUNDS.values; i++)
        children.push({ value: value[i], path: [...path, i], ancestors: inner });
    } else if (isRecord(value)) {
      for (const key of Object.keys(value)) {
        if (key.length > INPUT_BOUNDS.stringLength) {
          issues.push(tooLong([...path, key.slice(0, 40)], key, 'field name'));
          continue;
        }
        children.push({ value: value[key], path: [...path, key], ancestors: inner });
        if (children.length > INPUT_BOUNDS.values) break;
      }
    }
    // Reversed so that the walk (and the first problem found) follows document order.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return issues;
}

function tooLong(path: IssuePath, text: string, what: string): ValidationIssue {
  return {
    path,
    rule: 'too-long',
    received: text,
    receivedText: `a ${what} of ${text.length} characters`,
    message: `must be a ${what} of at most ${INPUT_BOUNDS.stringLength} characters`,
  };
}
