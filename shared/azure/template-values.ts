/**
 * The values of an ARM template's expressions: `parameters()` and `variables()` of one
 * template (`templateScope`), every expression in a resource evaluated with property copy
 * loops expanded and `null` fields left out (`resolve`), and the scope inside a copy loop.
 */
import { isRecord } from '../profile/issues.js';
import { ArmExpressionError, evaluateString, type ExpressionScope } from './expressions.js';
import type { ReadResult } from './shapes.js';

/** More than any profile has endpoints: a copy count beyond it is a mistake, not a profile. */
export const MAX_COPY = 1000;

export function withCopyIndex(scope: ExpressionScope, loop: string, index: number): ExpressionScope {
  return {
    parameter: (name) => scope.parameter(name),
    variable: (name) => scope.variable(name),
    copyIndex: (name) =>
      name === undefined || name.toLowerCase() === loop.toLowerCase() ? index : scope.copyIndex?.(name),
  };
}

/**
 * `parameters()` from the parameters files, else the template's `defaultValue`, else `null`
 * for a `nullable` one; `variables()` from the template, its variable `copy` loops expanded.
 */
export function templateScope(
  template: Record<string, unknown>,
  values: Map<string, unknown>,
): ExpressionScope {
  const declared = isRecord(template.parameters) ? template.parameters : {};
  const { copy: variableLoops, ...variables } = isRecord(template.variables) ? template.variables : {};
  const evaluating = new Set<string>();
  const scope: ExpressionScope = {
    parameter(name) {
      const key = Object.keys(declared).find((k) => k.toLowerCase() === name.toLowerCase());
      if (key === undefined) return undefined;
      const given = [...values.keys()].find((k) => k.toLowerCase() === key.toLowerCase());
      if (given !== undefined) return values.get(given);
      const declaration = declared[key];
      if (!isRecord(declaration)) return undefined;
      if ('defaultValue' in declaration) return once(`p:${key}`, declaration.defaultValue, scope);
      return declaration.nullable === true ? null : undefined;
    },
    variable(name) {
      const key = Object.keys(variables).find((k) => k.toLowerCase() === name.toLowerCase());
      if (key !== undefined) return once(`v:${key}`, variables[key], scope);
      const loop = Array.isArray(variableLoops)
        ? variableLoops.find(
            (entry: unknown) =>
              isRecord(entry) &&
              typeof entry.name === 'string' &&
              entry.name.toLowerCase() === name.toLowerCase(),
          )
        : undefined;
      if (!isRecord(loop)) return undefined;
      const expanded = once(`v:${name}`, { copy: [loop] }, scope);
      return isRecord(expanded) ? expanded[String(loop.name)] : undefined;
    },
  };
  function once(key: string, value: unknown, within: ExpressionScope): unknown {
    if (evaluating.has(key)) throw new ArmExpressionError(`refers to itself (${key.slice(2)})`);
    evaluating.add(key);
    try {
      return deep(value, within);
    } finally {
      evaluating.delete(key);
    }
  }
  return scope;
}

/** Every expression in `value` evaluated, `null` fields left out (ARM's "not set"); a problem naming the field for each one that cannot be. */
export function resolve(
  value: unknown,
  where: string,
  scope: ExpressionScope,
  result: ReadResult,
): { value: unknown; failed: boolean } {
  let failed = false;
  const resolved = deep(value, scope, (error, at, text) => {
    failed = true;
    result.problems.push({
      where: `${where}${at}`,
      message: `${error.message}, got ${JSON.stringify(text)}`,
    });
  });
  return { value: resolved, failed };
}

type OnError = (error: ArmExpressionError, at: string, text: string) => void;

/** Without `onError`, the first expression that cannot be evaluated throws (a parameter's defaultValue, a variable). */
function deep(value: unknown, scope: ExpressionScope, onError?: OnError, at = ''): unknown {
  if (typeof value === 'string') {
    try {
      return evaluateString(value, scope);
    } catch (error) {
      if (!(error instanceof ArmExpressionError) || onError === undefined) throw error;
      onError(error, at, value);
      return undefined;
    }
  }
  if (Array.isArray(value))
    return value.map((item: unknown, index) => deep(item, scope, onError, `${at}[${index}]`));
  if (!isRecord(value)) return value;
  const { copy, ...fields } = value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(fields)) {
    const evaluated = deep(field, scope, onError, `${at}.${key}`);
    if (evaluated !== null) out[key] = evaluated;
  }
  if (copy === undefined) return out;
  if (!Array.isArray(copy)) {
    out.copy = deep(copy, scope, onError, `${at}.copy`);
    return out; // a field named copy, not a property loop: the schema says whether it belongs
  }
  copy.forEach((loop: unknown, index) => {
    const place = `${at}.copy[${index}]`;
    if (!isRecord(loop) || typeof loop.name !== 'string' || !('count' in loop) || !('input' in loop)) {
      const error = new ArmExpressionError(
        'must be { "name": …, "count": …, "input": … }, an ARM property copy loop',
      );
      if (onError === undefined) throw error;
      onError(error, place, JSON.stringify(loop));
      return;
    }
    const count = deep(loop.count, scope, onError, `${place}.count`);
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > MAX_COPY) {
      if (count === undefined) return; // reported (the count is there: an expression that could not be evaluated)
      const error = new ArmExpressionError(
        `count must be an integer 0–${MAX_COPY}, got ${JSON.stringify(count)}`,
      );
      if (onError === undefined) throw error;
      onError(error, `${place}.count`, String(loop.count));
      return;
    }
    out[loop.name] = Array.from({ length: count }, (_, i) =>
      deep(loop.input, withCopyIndex(scope, loop.name as string, i), onError, `${place}.input (copy ${i})`),
    );
  });
  return out;
}
