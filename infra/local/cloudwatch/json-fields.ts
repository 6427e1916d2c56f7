/**
 * Typed members of a CloudWatch JSON request, with CloudWatch's errors: a missing required
 * member is `MissingParameter`, a length or enum outside the model is `ValidationError`, a
 * member of the wrong JSON type is the protocol's `SerializationException`. `path` is the
 * member's name in CloudWatch's messages (`MetricData.member.2.Value`).
 */
import { lengthViolation } from '../aws-json.js';
import { CloudWatchApiError, missingParameter, validationError } from './errors.js';

export type JsonObject = Readonly<Record<string, unknown>>;

function wrongType(path: string, expected: string): CloudWatchApiError {
  return new CloudWatchApiError('SerializationException', `${path} must be ${expected}`);
}

/** A member's value; null is absent, as undefined; an absent required member is MissingParameter. */
function memberValue(input: JsonObject, member: string, path: string, required: boolean): unknown {
  const value = input[member];
  if (value !== undefined && value !== null) return value;
  if (required) throw missingParameter(path);
  return undefined;
}

/** A string member of `min`–`max` characters. */
export function stringMember(
  input: JsonObject,
  member: string,
  path: string,
  {
    required = false,
    min = 1,
    max,
  }: { readonly required?: boolean; readonly min?: number; readonly max: number },
): string | undefined {
  const value = memberValue(input, member, path, required);
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw wrongType(path, 'a string');
  const broken = lengthViolation(value, min, max);
  if (broken !== undefined) throw validationError(path, ...broken);
  return value;
}

/** A string member that must be one of `values`. */
export function enumMember<T extends string>(
  input: JsonObject,
  member: string,
  path: string,
  values: readonly T[],
  required = false,
): T | undefined {
  const value = stringMember(input, member, path, { required, max: 255 });
  if (value === undefined) return undefined;
  if (!(values as readonly string[]).includes(value))
    throw validationError(path, value, `Member must satisfy enum value set: [${values.join(', ')}]`);
  return value as T;
}

/**
 * A double member. The SDK sends NaN and ±Infinity as the strings `"NaN"`, `"Infinity"`,
 * `"-Infinity"`; they are returned as numbers for the caller's range rule to refuse.
 */
export function numberMember(
  input: JsonObject,
  member: string,
  path: string,
  required = false,
): number | undefined {
  const value = memberValue(input, member, path, required);
  if (value === undefined || typeof value === 'number') return value;
  if (value === 'NaN' || value === 'Infinity' || value === '-Infinity') return Number(value);
  throw wrongType(path, 'a number');
}

/** An integer member of at least `min`. */
export function integerMember(
  input: JsonObject,
  member: string,
  path: string,
  { required = false, min }: { readonly required?: boolean; readonly min: number },
): number | undefined {
  const value = numberMember(input, member, path, required);
  if (value === undefined) return undefined;
  if (!Number.isInteger(value)) throw wrongType(path, 'an integer');
  if (value < min)
    throw validationError(path, value, `Member must have value greater than or equal to ${min}`);
  return value;
}

export function booleanMember(input: JsonObject, member: string, path: string): boolean | undefined {
  const value = memberValue(input, member, path, false);
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw wrongType(path, 'a boolean');
  return value;
}

export function listMember(
  input: JsonObject,
  member: string,
  path: string,
  required = false,
): unknown[] | undefined {
  const value = memberValue(input, member, path, required);
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw wrongType(path, 'a list');
  return value;
}

export function objectOf(value: unknown, path: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw wrongType(path, 'an object');
  return value as JsonObject;
}
