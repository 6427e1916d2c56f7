/**
 * The two list fields that also accept a string (Azure's form): custom headers
 * `"h1:v1, h2:v2"` and expected status codes `"200-299, 301-301"`. Both forms are
 * validated here with the same rules; issue paths are relative to the field.
 */
import { LIMITS } from './defaults.js';
import { isRecord, type IssuePath, type ValidationIssue } from './issues.js';
import { isHeaderName, isHeaderValue } from './names.js';
import { seenBefore } from './rules/report.js';
import { looksSecret, referenceProblem, SECRET_REFERENCE_MESSAGES } from './secret-references.js';
import type { Header, HeaderValue, SecretReference, StatusCodeRange } from './types.js';

export type HeadersInput = readonly { readonly name: string; readonly value: HeaderValue }[] | string;
export type StatusCodeRangesInput = readonly { readonly min: number; readonly max: number }[] | string;

interface Entry {
  readonly fields: Record<string, unknown>;
  /** Where a field's problem is reported: `[i, 'name']` for objects, `[i]` for string entries. */
  readonly fieldPath: (field: string) => IssuePath;
  /** What a field's problem shows as received: the field's value, or the whole string entry. */
  readonly received: (field: string) => unknown;
}

export function parseHeaders(input: unknown) {
  const issues: ValidationIssue[] = [];
  const { entries, count } = entriesOf(input, ['name', 'value'], issues, LIMITS.customHeaders, {
    listMessage: 'must be a list of { name, value } or a "name:value, name:value" string',
    entryMessage: 'must be "name:value"',
    splitEntry: (text) => {
      const colon = text.indexOf(':');
      return colon < 1
        ? undefined
        : { name: text.slice(0, colon).trim(), value: text.slice(colon + 1).trim() };
    },
  });
  const headers: Header[] = [];
  const seen = new Map<string, number>();
  for (const entry of entries) {
    const { name, value } = entry.fields;
    let valid = true;
    if (typeof name === 'string' && name.length > LIMITS.headerNameLength) {
      issues.push(lengthIssue(entry, 'name', name, 'header name', LIMITS.headerNameLength));
      valid = false;
    } else if (typeof name !== 'string' || !isHeaderName(name)) {
      issues.push(fieldIssue(entry, 'name', 'format', 'must be a header name (an RFC 7230 token)'));
      valid = false;
    }
    const headerValue = isRecord(value)
      ? referenceOf(value, entry.fieldPath('value'), issues)
      : plainValueOf(value, entry, issues, typeof name === 'string' && looksSecret(name));
    if (headerValue === undefined) valid = false;
    if (!valid) continue;
    const header: Header = { name: name as string, value: headerValue! };
    if (header.name.toLowerCase() === 'host') {
      if (typeof header.value !== 'string') {
        issues.push(
          fieldIssue(
            entry,
            'value',
            'host-reference',
            'must be written inline: the Host header names the site (and the TLS server name), it is no secret',
          ),
        );
      } else if (header.value.includes('*')) {
        issues.push(
          fieldIssue(
            entry,
            'value',
            'host-wildcard',
            'must not contain "*": a wildcard Host header is not supported',
          ),
        );
      }
    }
    if (header.name.toLowerCase() === 'user-agent') {
      issues.push(
        fieldIssue(
          entry,
          'name',
          'reserved-header',
          'must not be User-Agent: every probe sends User-Agent: traffic-manager-probe/<version>, so endpoint owners can recognise it',
        ),
      );
    }
    const first = seenBefore(seen, header.name.toLowerCase(), headers.length);
    if (first !== undefined)
      issues.push(
        fieldIssue(entry, 'name', 'unique-header', `must be unique: header [${first}] has the same name`),
      );
    headers.push(header);
  }
  if (count > LIMITS.customHeaders) {
    issues.push(issueAt([], 'too-many', count, `must hold at most ${LIMITS.customHeaders} headers`));
  }
  return { value: headers, issues };
}

/** A plain value; a problem with the value of a credential-like header never shows the value. */
function plainValueOf(
  value: unknown,
  entry: Entry,
  issues: ValidationIssue[],
  secretLooking: boolean,
): string | undefined {
  if (typeof value === 'string' && value.length > LIMITS.headerValueLength) {
    issues.push(lengthIssue(entry, 'value', value, 'header value', LIMITS.headerValueLength));
    return undefined;
  }
  if (typeof value !== 'string' || !isHeaderValue(value)) {
    const message =
      typeof value === 'string'
        ? 'must be printable ASCII without line breaks'
        : SECRET_REFERENCE_MESSAGES.shape;
    const hidden =
      secretLooking && typeof value === 'string'
        ? { receivedText: `a value of ${value.length} characters (not shown)` }
        : {};
    issues.push({
      ...fieldIssue(entry, 'value', 'format', message),
      ...hidden,
    });
    return undefined;
  }
  return value;
}

/** `{ secret: ARN }` or `{ parameter: NAME }` (list form only: the string form is plain text). */
function referenceOf(
  value: Record<string, unknown>,
  path: IssuePath,
  issues: ValidationIssue[],
): SecretReference | undefined {
  const keys = Object.keys(value);
  const [kind] = keys;
  if (keys.length !== 1 || (kind !== 'secret' && kind !== 'parameter')) {
    issues.push(issueAt(path, 'reference', value, SECRET_REFERENCE_MESSAGES.shape));
    return undefined;
  }
  const target = value[kind];
  const problem = referenceProblem(kind, target);
  if (problem !== undefined) {
    issues.push(issueAt([...path, kind], 'reference', target, problem));
    return undefined;
  }
  return kind === 'secret' ? { secret: target as string } : { parameter: target as string };
}

export function parseStatusCodeRanges(input: unknown) {
  const issues: ValidationIssue[] = [];
  const { entries, count } = entriesOf(input, ['min', 'max'], issues, LIMITS.expectedStatusCodeRanges, {
    listMessage: 'must be a list of { min, max } or a "200-299, 301-301" string',
    entryMessage: 'must be "min-max" (e.g. "200-299") or one code',
    splitEntry: (text) => {
      const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(text);
      return match === null ? undefined : { min: Number(match[1]), max: Number(match[2] ?? match[1]) };
    },
  });
  const ranges: StatusCodeRange[] = [];
  const { min: lowest, max: highest } = LIMITS.statusCode;
  const codeMessage = `must be an integer ${lowest}–${highest}`;
  for (const entry of entries) {
    const { min, max } = entry.fields;
    const isCode = (v: unknown): v is number =>
      Number.isInteger(v) && (v as number) >= lowest && (v as number) <= highest;
    if (!isCode(min))
      issues.push(fieldIssue(entry, 'min', min === undefined ? 'required' : 'range', codeMessage));
    if (!isCode(max))
      issues.push(fieldIssue(entry, 'max', max === undefined ? 'required' : 'range', codeMessage));
    if (!isCode(min) || !isCode(max)) continue;
    if (min > max) {
      issues.push(fieldIssue(entry, 'max', 'order', 'must have min ≤ max'));
      continue;
    }
    ranges.push({ min, max });
  }
  if (count === 0 && issues.length === 0) {
    issues.push(issueAt([], 'range-count', input, `must hold 1–${LIMITS.expectedStatusCodeRanges} ranges`));
  }
  if (count > LIMITS.expectedStatusCodeRanges) {
    issues.push(
      issueAt([], 'too-many', count, `must hold at most ${LIMITS.expectedStatusCodeRanges} ranges`),
    );
  }
  return { value: ranges, issues };
}

interface FormSyntax {
  readonly listMessage: string;
  readonly entryMessage: string;
  readonly splitEntry: (text: string) => Record<string, unknown> | undefined;
}

/**
 * The entries of either form, and how many there are. Only the first `max` are examined:
 * beyond the limit the field is wrong anyway (its `too-many` issue says so), and a long
 * string of commas must not cost an issue per entry.
 */
function entriesOf(
  input: unknown,
  fields: readonly string[],
  issues: ValidationIssue[],
  max: number,
  syntax: FormSyntax,
): { entries: Entry[]; count: number } {
  if (typeof input === 'string') {
    if (input.trim() === '') return { entries: [], count: 0 };
    const parts = input.split(',');
    const entries: Entry[] = [];
    for (const [index, raw] of parts.slice(0, max).entries()) {
      const text = raw.trim();
      const split = syntax.splitEntry(text);
      if (split === undefined) {
        issues.push(issueAt([index], 'format', text, syntax.entryMessage));
        continue;
      }
      entries.push({ fields: split, fieldPath: () => [index], received: () => text });
    }
    return { entries, count: parts.length };
  }
  if (!Array.isArray(input)) {
    issues.push(issueAt([], input === undefined ? 'required' : 'type', input, syntax.listMessage));
    return { entries: [], count: 0 };
  }
  const entries: Entry[] = [];
  for (const [index, item] of input.slice(0, max).entries()) {
    if (!isRecord(item)) {
      issues.push(issueAt([index], 'type', item, `must be an object with ${fields.join(' and ')}`));
      continue;
    }
    for (const key of Object.keys(item)) {
      if (!fields.includes(key))
        issues.push(issueAt([index, key], 'unknown-field', item[key], 'is not a known field'));
    }
    entries.push({
      fields: item,
      fieldPath: (field) => [index, field],
      received: (field) => item[field],
    });
  }
  return { entries, count: input.length };
}

function issueAt(path: IssuePath, rule: string, received: unknown, message: string): ValidationIssue {
  return { path, rule, received, message };
}

/** A problem with one field of an entry, at its place and showing what the entry holds there. */
function fieldIssue(entry: Entry, field: string, rule: string, message: string): ValidationIssue {
  return issueAt(entry.fieldPath(field), rule, entry.received(field), message);
}

/** A field's text over `max` characters: the issue shows its length, not the text. */
function lengthIssue(entry: Entry, field: string, text: string, what: string, max: number): ValidationIssue {
  const issue = fieldIssue(entry, field, 'length', `must be a ${what} of at most ${max} characters`);
  return { ...issue, receivedText: `${text.length} characters` };
}
