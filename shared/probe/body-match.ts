/**
 * Does a response body contain a profile's `expectedBody`? The probe keeps the first
 * `BODY_CAP_BYTES` of the body as text only when some judge of the request has an
 * expectedBody; each judge matches its own. Patterns were checked safe at validate time.
 */
import { LRUCache } from 'lru-cache';
import type { ExpectedBody } from '../profile/types.js';

/** Compiled patterns by `flags/pattern`, the 1,000 most recently used (a config change may add a few). */
const compiled = new LRUCache<string, RegExp>({
  max: 1_000,
  memoMethod: (key) => new RegExp(key.slice(key.indexOf('/') + 1), key.slice(0, key.indexOf('/'))),
});

export function bodyMatches(expected: ExpectedBody, body: string): boolean {
  if (expected.kind === 'substring') return body.includes(expected.text);
  return compiled.memo(`${expected.flags}/${expected.pattern}`).test(body);
}

/** `"ok"` for a substring, `/^OK$/m` for a regular expression. */
export function describeExpectedBody(expected: ExpectedBody): string {
  return expected.kind === 'substring'
    ? JSON.stringify(expected.text)
    : `/${expected.pattern}/${expected.flags}`;
}
