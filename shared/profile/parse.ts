/**
 * `parseDefinitions`: the schema (shapes, ranges, string forms) and the cross-field
 * rules both run on every input, so one run reports every problem; only input without
 * any issue is normalized into `Profile[]`.
 */
import type { z } from 'zod';
import { fromAzureForms } from './azure-forms.js';
import { checkInputBounds } from './bounds.js';
import type { ProfileDefaults } from './defaults.js';
import { compareIssues, isRecord, type IssuePath, type ValidationIssue } from './issues.js';
import { checkCountLimits, checkStoredSizes } from './limits.js';
import { editDistance } from './names.js';
import { normalizeProfile } from './normalize.js';
import { deployNotices } from './notices.js';
import { checkRules } from './rules.js';
import { definitionsSchema, KNOWN_FIELDS, MESSAGES } from './schema.js';
import type { Profile } from './types.js';

/** `notices`: what a valid file should still tell its author (see `notices.ts`); they never fail it. */
export type ParseResult =
  { ok: true; profiles: Profile[]; notices: ValidationIssue[] } | { ok: false; issues: ValidationIssue[] };

/**
 * Accepts the list of profiles, or `{ profiles: [...] }`. Input beyond the bounds of
 * `checkInputBounds` gets only those issues: the schema and the rules never see it.
 */
export function parseDefinitions(input: unknown, defaults: ProfileDefaults = {}): ParseResult {
  const bounds = checkInputBounds(Array.isArray(input) ? { profiles: input } : input);
  if (bounds.length > 0) return { ok: false, issues: bounds };
  const issues: ValidationIssue[] = [];
  const wrapped = isRecord(input) && 'profiles' in input;
  if (wrapped) {
    for (const key of Object.keys(input)) {
      if (key !== 'profiles')
        issues.push({
          path: [key],
          rule: 'unknown-field',
          received: input[key],
          message: 'is not a known field',
        });
    }
  }
  // Issues sort by their place in the definitions as written.
  const root = { profiles: wrapped ? input.profiles : input };
  const byPlace = (a: ValidationIssue, b: ValidationIssue) => compareIssues(a, b, root);
  const azure = fromAzureForms(root.profiles);
  const list = azure.profiles;
  issues.push(...azure.issues);
  const parsed = definitionsSchema.safeParse(list, { reportInput: true });
  if (!parsed.success) issues.push(...parsed.error.issues.flatMap((issue) => fromZodIssue(issue, list)));
  if (Array.isArray(list)) issues.push(...checkRules(list), ...checkCountLimits(list));
  if (issues.length > 0 || !parsed.success) return { ok: false, issues: issues.sort(byPlace) };
  const profiles = parsed.data.map((profile) => normalizeProfile(profile, defaults));
  const sizes = checkStoredSizes(profiles);
  if (sizes.length > 0) return { ok: false, issues: sizes };
  return { ok: true, profiles, notices: [...azure.notices, ...deployNotices(profiles)].sort(byPlace) };
}

type ZodIssue = z.core.$ZodIssue;

function fromZodIssue(issue: ZodIssue, list: unknown): ValidationIssue[] {
  const relative = issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
  const path: IssuePath = Array.isArray(list) ? ['profiles', ...relative] : relative;
  const received = 'input' in issue ? issue.input : undefined;
  switch (issue.code) {
    case 'unrecognized_keys': {
      const object = isRecord(received) ? received : {};
      return issue.keys.map((key, index) => ({
        path: [...path, key],
        rule: 'unknown-field',
        received: object[key],
        message: unknownFieldMessage(key, relative, object, index < SUGGESTED_UNKNOWN_FIELDS),
      }));
    }
    case 'invalid_union': {
      const discriminator = 'discriminator' in issue ? issue.discriminator : undefined;
      const message =
        discriminator === 'kind'
          ? MESSAGES.healthRuleKind
          : discriminator === 'type'
            ? MESSAGES.endpointType
            : issue.message;
      return [{ path, rule: 'enum', received: valueAt(list, relative), message }];
    }
    case 'invalid_type':
      return [{ path, rule: received === undefined ? 'required' : 'type', received, message: issue.message }];
    case 'too_small':
    case 'too_big':
      return [{ path, rule: 'range', received, message: issue.message }];
    case 'invalid_value':
      return [{ path, rule: 'enum', received, message: issue.message }];
    case 'invalid_format':
      return [{ path, rule: 'format', received, message: issue.message }];
    case 'custom': {
      const rule = typeof issue.params?.rule === 'string' ? issue.params.rule : 'format';
      const receivedText = issue.params?.receivedText;
      return [
        {
          path,
          rule,
          received,
          message: issue.message,
          ...(typeof receivedText === 'string' ? { receivedText } : {}),
        },
      ];
    }
    default:
      return [{ path, rule: issue.code, received, message: issue.message }];
  }
}

/**
 * The unknown fields of one object that get a "did you mean" hint; past them the message is
 * plain, so an object of 10,000 near-miss keys does not cost 10,000 edit-distance searches.
 */
const SUGGESTED_UNKNOWN_FIELDS = 100;

function unknownFieldMessage(
  key: string,
  objectPath: readonly (string | number)[],
  object: Record<string, unknown>,
  suggest: boolean,
): string {
  const last = objectPath[objectPath.length - 1];
  const parent = objectPath[objectPath.length - 2];
  let known: readonly string[] = [];
  if (objectPath.length === 1) known = KNOWN_FIELDS.profile;
  else if (last === 'dnsConfig' || last === 'monitorConfig' || last === 'healthRule')
    known = KNOWN_FIELDS[last];
  else if (parent === 'endpoints') {
    if (object.type !== 'nested' && KNOWN_FIELDS.nestedOnly.includes(key))
      return 'is not a field of an external endpoint; a nested endpoint needs type: "nested"';
    if (object.type === 'nested' && KNOWN_FIELDS.externalOnly.includes(key))
      return 'is not a field of a nested endpoint';
    known = KNOWN_FIELDS.endpoint;
  }
  if (!suggest) return 'is not a known field';
  const tolerance = Math.max(2, Math.floor(key.length / 3));
  // The distance is at least the difference in length: a key far longer than every field costs nothing.
  const nearest = known
    .filter((field) => Math.abs(field.length - key.length) <= tolerance)
    .map((field) => ({ field, distance: editDistance(key, field) }))
    .sort((a, b) => a.distance - b.distance)[0];
  const closeEnough = nearest !== undefined && nearest.distance <= tolerance;
  return closeEnough
    ? `is not a known field; did you mean ${JSON.stringify(nearest.field)}?`
    : 'is not a known field';
}

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let node = root;
  for (const segment of path) {
    if (Array.isArray(node) && typeof segment === 'number') node = node[segment];
    else if (isRecord(node) && typeof segment === 'string') node = node[segment];
    else return undefined;
  }
  return node;
}
