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
  /** How the value is shown when not as itself, e.g. `a string of 500000 characters`. */
  readonly receivedText?: string;
}

/** Lists whose elements carry a `name` that the rendered path shows after the index. */
const NAMED_LISTS: ReadonlySet<string> = new Set(['profiles', 'endpoints']);
const MAX_RECEIVED_LENGTH = 80;

/** Renders one issue; `input` is the definitions as given (a list or `{ profiles: [...] }`). */
export function formatIssue(issue: ValidationIssue, input: unknown): string {
  const received = issue.receivedText ?? formatReceived(issue.received);
  return `${formatPath(issue.path, input)}: ${issue.message}, got ${received}`;
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

/**
 * The value as compact JSON, cut at 80 characters. Bounded whatever the value: it stops
 * writing at the limit, so a huge, deeply nested or self-referencing value costs no more
 * than a small one.
 */
export function formatReceived(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'function' || typeof value === 'symbol') return `a ${typeof value}`;
  const out = { text: '' };
  writeJson(value, out, MAX_RECEIVED_LENGTH + 1);
  return out.text.length > MAX_RECEIVED_LENGTH ? `${out.text.slice(0, MAX_RECEIVED_LENGTH - 1)}…` : out.text;
}

/** Appends `value` as JSON (JSON.stringify's rules) to `out.text` until it holds `limit` characters. */
function writeJson(value: unknown, out: { text: string }, limit: number): void {
  if (out.text.length >= limit) return;
  if (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  ) {
    out.text += JSON.stringify(value) ?? 'null';
    return;
  }
  if (typeof value === 'string') {
    out.text += JSON.stringify(value.length > limit ? value.slice(0, limit) : value);
    return;
  }
  if (Array.isArray(value)) {
    out.text += '[';
    for (let i = 0; i < value.length && out.text.length < limit; i++) {
      if (i > 0) out.text += ',';
      const item: unknown = value[i];
      writeJson(
        item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : item,
        out,
        limit,
      );
    }
    out.text += ']';
    return;
  }
  if (value !== null && typeof value === 'object') {
    out.text += '{';
    let first = true;
    for (const key in value) {
      if (out.text.length >= limit) break;
      const field: unknown = (value as Record<string, unknown>)[key];
      if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
      out.text += `${first ? '' : ','}${JSON.stringify(key.length > limit ? key.slice(0, limit) : key)}:`;
      first = false;
      writeJson(field, out, limit);
    }
    out.text += '}';
    return;
  }
  out.text += typeof value === 'bigint' ? `${value}n` : (JSON.stringify(value) ?? 'null');
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
      const ranks = isRecord(node) ? keyRanksOf(node) : new Map<string, number>();
      const rank = (key: string): number => ranks.get(key) ?? ranks.size;
      return rank(x) - rank(y);
    }
    node = isRecord(node) || Array.isArray(node) ? (node as Record<string | number, unknown>)[x] : undefined;
  }
  return a.path.length - b.path.length;
}

/** Field name → position, once per object: sorting many issues of one big object stays n log n. */
const keyRanks = new WeakMap<object, Map<string, number>>();

function keyRanksOf(node: Record<string, unknown>): Map<string, number> {
  let ranks = keyRanks.get(node);
  if (ranks === undefined) {
    ranks = new Map(Object.keys(node).map((key, index) => [key, index]));
    keyRanks.set(node, ranks);
  }
  return ranks;
}

function nameOf(node: unknown): string | undefined {
  return isRecord(node) && typeof node.name === 'string' && node.name !== '' ? node.name : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
