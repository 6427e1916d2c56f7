/**
 * Validation issues: every problem of a definitions file, collected in one run and
 * rendered as `profiles[1] "shop" endpoints[0] "east".weight: must be an integer 1–255, got 0`.
 */
export type IssuePath = readonly (string | number)[];

export interface ValidationIssue {
  /** From the root of the definitions: `['profiles', 1, 'endpoints', 0, 'weight']`. */
  readonly path: IssuePath;
  /** Stable rule id: `range`, `required`, `unknown-field`, `unique-priority`, `nested-cycle`, … */
  readonly rule: string;
  /** The value found at `path`; `undefined` when it is missing. */
  readonly received: unknown;
  /** What the value must be, e.g. `must be an integer 1–255`. */
  readonly message: string;
}

/** Lists whose elements carry a `name` that the rendered path shows after the index. */
const NAMED_LISTS: ReadonlySet<string> = new Set(['profiles', 'endpoints']);
const MAX_RECEIVED_LENGTH = 80;

/** Renders one issue; `input` is the definitions as given (a list or `{ profiles: [...] }`). */
export function formatIssue(issue: ValidationIssue, input: unknown): string {
  return `${formatPath(issue.path, input)}: ${issue.message}, got ${formatReceived(issue.received)}`;
}

export function formatPath(path: IssuePath, input: unknown): string {
  if (path.length === 0) return 'definitions';
  let node: unknown = Array.isArray(input) ? { profiles: input } : input;
  let text = '';
  let afterNamed = false;
  for (const [index, segment] of path.entries()) {
    if (typeof segment === 'number') {
      text += `[${segment}]`;
      const listName = path[index - 1];
      node = Array.isArray(node) ? node[segment] : undefined;
      const name = nameOf(node);
      afterNamed = typeof listName === 'string' && NAMED_LISTS.has(listName) && name !== undefined;
      if (afterNamed) text += ` ${JSON.stringify(name)}`;
    } else {
      const next = path[index + 1];
      const child = isRecord(node) ? node[segment] : undefined;
      const opensNamedElement =
        typeof next === 'number' &&
        NAMED_LISTS.has(segment) &&
        Array.isArray(child) &&
        nameOf(child[next]) !== undefined;
      const separator = text === '' ? '' : afterNamed && opensNamedElement ? ' ' : '.';
      text += separator + segment;
      node = child;
      afterNamed = false;
    }
  }
  return text;
}

export function formatReceived(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'function' || typeof value === 'symbol') return `a ${typeof value}`;
  const json = JSON.stringify(value);
  return json.length > MAX_RECEIVED_LENGTH ? `${json.slice(0, MAX_RECEIVED_LENGTH - 1)}…` : json;
}

/** Document order: profiles and endpoints by index, fields in the order written. */
export function compareIssues(a: ValidationIssue, b: ValidationIssue, input: unknown): number {
  let node: unknown = Array.isArray(input) ? { profiles: input } : input;
  const length = Math.min(a.path.length, b.path.length);
  for (let i = 0; i < length; i++) {
    const x = a.path[i]!;
    const y = b.path[i]!;
    if (x !== y) {
      // List indices compare as numbers; field names by their order in the input object.
      if (typeof x === 'number' || typeof y === 'number') return Number(x) - Number(y);
      const keys = isRecord(node) ? Object.keys(node) : [];
      const rank = (key: string): number => {
        const found = keys.indexOf(key);
        return found < 0 ? keys.length : found;
      };
      return rank(x) - rank(y);
    }
    node = isRecord(node) || Array.isArray(node) ? (node as Record<string | number, unknown>)[x] : undefined;
  }
  return a.path.length - b.path.length;
}

function nameOf(node: unknown): string | undefined {
  return isRecord(node) && typeof node.name === 'string' && node.name !== '' ? node.name : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
