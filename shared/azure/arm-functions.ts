/**
 * The ARM template functions `tm import azure` evaluates, each as ARM documents it: the
 * ones real Traffic Manager templates, copy loops and Bicep output use. Functions whose
 * value depends on the deployment (`uniqueString`, `resourceGroup`, `subscription`,
 * `deployment`, `reference`, `utcNow`, `newGuid`…) are not here: an expression using one is
 * an error (see `expressions.ts`). `if` is evaluated there, lazily.
 */
import { isRecord } from '../profile/issues.js';
import type { ExpressionScope } from './expressions.js';

export interface FunctionContext {
  readonly scope: ExpressionScope;
  /** The function's name as written, for messages. */
  readonly name: string;
  /** The error to throw for a value the function cannot take. */
  fail(message: string): Error;
}

type ArmFunction = (args: unknown[], context: FunctionContext) => unknown;

const integer = (value: unknown, context: FunctionContext): number => {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  throw context.fail(`${context.name}() takes integers, got ${JSON.stringify(value)}`);
};

const text = (value: unknown, context: FunctionContext): string => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw context.fail(`${context.name}() takes strings and numbers, got ${JSON.stringify(value)}`);
};

const boolean = (value: unknown, context: FunctionContext): boolean => {
  if (typeof value === 'boolean') return value;
  throw context.fail(`${context.name}() takes true or false, got ${JSON.stringify(value)}`);
};

const count = (args: unknown[], n: number, context: FunctionContext): void => {
  if (args.length !== n)
    throw context.fail(`${context.name}() takes ${n} ${n === 1 ? 'value' : 'values'}, got ${args.length}`);
};

function lookup(kind: 'parameter' | 'variable', args: unknown[], context: FunctionContext): unknown {
  const [key] = args;
  if (args.length !== 1 || typeof key !== 'string') throw context.fail(`${kind}s() takes one name`);
  const value = kind === 'parameter' ? context.scope.parameter(key) : context.scope.variable(key);
  if (value === undefined)
    throw context.fail(
      `names the ${kind} ${JSON.stringify(key)}, which has no value (not in the template${kind === 'parameter' ? ', its defaultValue or a parameters file' : ''})`,
    );
  return value;
}

function copyIndex(args: unknown[], context: FunctionContext): number {
  const [first, second] = args;
  const loop = typeof first === 'string' ? first : undefined;
  const offset = typeof first === 'number' ? first : typeof second === 'number' ? second : 0;
  const index = context.scope.copyIndex?.(loop);
  if (index === undefined)
    throw context.fail(
      loop === undefined
        ? 'copyIndex() is used outside a copy loop'
        : `copyIndex('${loop}') names no copy loop around it`,
    );
  return index + integer(offset, context);
}

/** ARM's equality: values of the same type and content (strings with case). */
function equal(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => equal(item, b[index]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && equal(a[key], b[key]));
  }
  return a === b;
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return isRecord(value) && Object.keys(value).length === 0;
}

function length(args: unknown[], context: FunctionContext): number {
  count(args, 1, context);
  const [value] = args;
  if (typeof value === 'string' || Array.isArray(value)) return value.length;
  if (isRecord(value)) return Object.keys(value).length;
  throw context.fail(`length() takes a string, an array or an object, got ${JSON.stringify(value)}`);
}

function contains(args: unknown[], context: FunctionContext): boolean {
  count(args, 2, context);
  const [container, item] = args;
  if (typeof container === 'string') return container.includes(text(item, context));
  if (Array.isArray(container)) return container.some((value) => equal(value, item));
  if (isRecord(container))
    return Object.keys(container).some((key) => key.toLowerCase() === text(item, context).toLowerCase());
  throw context.fail(`contains() takes a string, an array or an object, got ${JSON.stringify(container)}`);
}

/** Objects: later keys win, objects inside merged too; arrays: every distinct item, in order. */
function union(args: unknown[], context: FunctionContext): unknown {
  if (args.every(Array.isArray)) {
    const out: unknown[] = [];
    for (const item of args.flat()) if (!out.some((seen) => equal(seen, item))) out.push(item);
    return out;
  }
  if (args.every((arg) => isRecord(arg) || arg === null))
    return args.reduce<Record<string, unknown>>((merged, arg) => merge(merged, arg ?? {}), {});
  throw context.fail('union() takes objects or arrays, all of one kind');
}

function merge(a: Record<string, unknown>, b: unknown): Record<string, unknown> {
  const out = { ...a };
  for (const [key, value] of Object.entries(b as Record<string, unknown>)) {
    const before = out[key];
    out[key] = isRecord(before) && isRecord(value) ? merge(before, value) : value;
  }
  return out;
}

function createObject(args: unknown[], context: FunctionContext): Record<string, unknown> {
  if (args.length % 2 !== 0) throw context.fail('createObject() takes pairs of a key and a value');
  const out: Record<string, unknown> = {};
  for (let i = 0; i < args.length; i += 2) out[text(args[i], context)] = args[i + 1];
  return out;
}

function range(args: unknown[], context: FunctionContext): number[] {
  count(args, 2, context);
  const start = integer(args[0], context);
  const n = integer(args[1], context);
  if (n < 0 || n > 10_000) throw context.fail(`range() makes 0–10000 numbers, got ${n}`);
  return Array.from({ length: n }, (_, i) => start + i);
}

function toInt(args: unknown[], context: FunctionContext): number {
  count(args, 1, context);
  const [value] = args;
  if (typeof value === 'number') return Math.trunc(value);
  if (typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value)) return Number(value);
  throw context.fail(`int() takes an integer or its text, got ${JSON.stringify(value)}`);
}

function toBool(args: unknown[], context: FunctionContext): boolean {
  count(args, 1, context);
  const [value] = args;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw context.fail(`bool() takes true, false, their text or a number, got ${JSON.stringify(value)}`);
}

/** ARM's `string()`: booleans as .NET writes them (`True`), arrays and objects as JSON. */
function toText(args: unknown[], context: FunctionContext): string {
  count(args, 1, context);
  const [value] = args;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

function arithmetic(op: (a: number, b: number) => number): ArmFunction {
  return (args, context) => {
    count(args, 2, context);
    const a = integer(args[0], context);
    const b = integer(args[1], context);
    if ((context.name.toLowerCase() === 'div' || context.name.toLowerCase() === 'mod') && b === 0)
      throw context.fail(`${context.name}() by zero`);
    return op(a, b);
  };
}

function compare(op: (a: number) => boolean): ArmFunction {
  return (args, context) => {
    count(args, 2, context);
    const [a, b] = args;
    if (typeof a === 'number' && typeof b === 'number') return op(a - b);
    if (typeof a === 'string' && typeof b === 'string') return op(a < b ? -1 : a > b ? 1 : 0);
    throw context.fail(`${context.name}() compares two integers or two strings`);
  };
}

function format(args: unknown[], context: FunctionContext): string {
  const [pattern, ...values] = args;
  return text(pattern, context).replace(/\{(\d+)(?::[^}]*)?\}/g, (_all, index: string) =>
    text(values[Number(index)], context),
  );
}

function resourceId(args: unknown[], context: FunctionContext): string {
  // [subscriptionId], [resourceGroupName], type, name1, name2…: only the type and names matter here.
  const typeAt = args.findIndex((arg) => typeof arg === 'string' && arg.includes('/'));
  if (typeAt < 0 || typeAt === args.length - 1)
    throw context.fail('resourceId() needs a resource type and a name');
  const names = args.slice(typeAt + 1).map((arg) => text(arg, context));
  return `/providers/${text(args[typeAt], context)}/${names.join('/')}`;
}

function concat(args: unknown[], context: FunctionContext): unknown {
  return args.every(Array.isArray) && args.length > 0
    ? args.flat()
    : args.map((arg) => text(arg, context)).join('');
}

/** `value[key]`: an array's item by index, an object's field by name (without case, as ARM does); `undefined` when there is none. */
export function property(value: unknown, key: unknown): unknown {
  if (Array.isArray(value) && typeof key === 'number') return value[key];
  if (!isRecord(value) || typeof key !== 'string') return undefined;
  const name = key in value ? key : Object.keys(value).find((k) => k.toLowerCase() === key.toLowerCase());
  return name === undefined ? undefined : value[name];
}

function tryGet(args: unknown[], context: FunctionContext): unknown {
  if (args.length < 2) throw context.fail('tryGet() takes a value and keys');
  return args.slice(1).reduce((value, key) => property(value, key) ?? null, args[0]);
}

const stringOrArray = (value: unknown, context: FunctionContext): string | unknown[] => {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  throw context.fail(`${context.name}() takes a string or an array, got ${JSON.stringify(value)}`);
};

/** By lower-case name. */
export const ARM_FUNCTIONS: Readonly<Record<string, ArmFunction>> = {
  parameters: (args, context) => lookup('parameter', args, context),
  variables: (args, context) => lookup('variable', args, context),
  copyindex: copyIndex,
  concat,
  format,
  resourceid: resourceId,
  length,
  range,
  add: arithmetic((a, b) => a + b),
  sub: arithmetic((a, b) => a - b),
  mul: arithmetic((a, b) => a * b),
  div: arithmetic((a, b) => Math.trunc(a / b)),
  mod: arithmetic((a, b) => a % b),
  min: (args, context) =>
    Math.min(
      ...(args.length === 1 && Array.isArray(args[0]) ? args[0] : args).map((a) => integer(a, context)),
    ),
  max: (args, context) =>
    Math.max(
      ...(args.length === 1 && Array.isArray(args[0]) ? args[0] : args).map((a) => integer(a, context)),
    ),
  string: toText,
  int: toInt,
  bool: toBool,
  tolower: (args, context) => text(args[0], context).toLowerCase(),
  toupper: (args, context) => text(args[0], context).toUpperCase(),
  trim: (args, context) => text(args[0], context).trim(),
  replace: (args, context) =>
    text(args[0], context).split(text(args[1], context)).join(text(args[2], context)),
  split: (args, context) => text(args[0], context).split(text(args[1], context)),
  join: (args, context) => {
    const [items, separator] = args;
    if (!Array.isArray(items)) throw context.fail('join() takes an array and a separator');
    return items.map((item) => text(item, context)).join(text(separator, context));
  },
  substring: (args, context) => {
    const value = text(args[0], context);
    const start = integer(args[1] ?? 0, context);
    const n = args[2] === undefined ? value.length - start : integer(args[2], context);
    if (start < 0 || n < 0 || start + n > value.length)
      throw context.fail(`substring() reaches past the end of ${JSON.stringify(value)}`);
    return value.slice(start, start + n);
  },
  startswith: (args, context) =>
    text(args[0], context).toLowerCase().startsWith(text(args[1], context).toLowerCase()),
  endswith: (args, context) =>
    text(args[0], context).toLowerCase().endsWith(text(args[1], context).toLowerCase()),
  first: (args, context) => {
    const value = stringOrArray(args[0], context);
    return typeof value === 'string' ? value.charAt(0) : (value[0] ?? null);
  },
  last: (args, context) => {
    const value = stringOrArray(args[0], context);
    return typeof value === 'string' ? value.charAt(value.length - 1) : (value.at(-1) ?? null);
  },
  skip: (args, context) => stringOrArray(args[0], context).slice(Math.max(0, integer(args[1], context))),
  take: (args, context) => stringOrArray(args[0], context).slice(0, Math.max(0, integer(args[1], context))),
  coalesce: (args) => args.find((arg) => arg !== null && arg !== undefined) ?? null,
  empty: (args, context) => {
    count(args, 1, context);
    return isEmpty(args[0]);
  },
  contains,
  union,
  createobject: createObject,
  createarray: (args) => args,
  items: (args, context) => {
    const [value] = args;
    if (!isRecord(value)) throw context.fail(`items() takes an object, got ${JSON.stringify(value)}`);
    return Object.keys(value)
      .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()))
      .map((key) => ({ key, value: value[key] }));
  },
  array: (args) => (Array.isArray(args[0]) ? args[0] : [args[0]]),
  json: (args, context) => {
    try {
      return JSON.parse(text(args[0], context)) as unknown;
    } catch {
      throw context.fail(`json() takes JSON text, got ${JSON.stringify(args[0])}`);
    }
  },
  tryget: tryGet,
  equals: (args, context) => {
    count(args, 2, context);
    return equal(args[0], args[1]);
  },
  not: (args, context) => !boolean(args[0], context),
  and: (args, context) => args.map((arg) => boolean(arg, context)).every(Boolean),
  or: (args, context) => args.map((arg) => boolean(arg, context)).some(Boolean),
  greater: compare((d) => d > 0),
  greaterorequals: compare((d) => d >= 0),
  less: compare((d) => d < 0),
  lessorequals: compare((d) => d <= 0),
  null: () => null,
  true: () => true,
  false: () => false,
};

/** For messages: what is evaluated. */
export const SUPPORTED_FUNCTIONS = [
  'parameters',
  'variables',
  'copyIndex',
  'concat',
  'format',
  'resourceId',
  'if',
  'coalesce',
  'length',
  'range',
  'add/sub/mul/div/mod',
  'string/int/bool',
  'toLower/toUpper',
  'empty',
  'contains',
  'union',
  'createObject',
  'items',
  'equals/not/and/or',
  'tryGet',
  '…',
] as const;
