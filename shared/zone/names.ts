/**
 * Record names between Route 53's text form and ours (the `RecordSet` convention: lower case,
 * no trailing dot). Route 53's rules (Developer Guide, "DNS domain name format"):
 * - it stores letters lower case, however they were given (also as escapes);
 * - API actions return every character other than a–z, 0–9, `-` and `_` (and the dots between
 *   labels) as a backslash and three octal digits: `*.example.com` → `\052.example.com.`;
 * - the `route53:ChangeResourceRecordSetsNormalizedRecordNames` IAM condition key uses the same
 *   escapes, lower case, without the trailing dot.
 * A name is a sequence of bytes; ours are Unicode strings, whose bytes are their UTF-8
 * encoding (what DNS clients send for a name typed in Unicode), so `exämple` is `ex\303\244mple`.
 * Definitions accept LDH names only (an internationalised name as its `xn--` form), so our own
 * names never need an escape; names written by others in the zone may.
 */

const KEPT = /^[a-z0-9\-_.]$/;
const ESCAPES = /(?:\\[0-7]{3})+/g;
const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Route 53's escaped form without the trailing dot (the IAM condition key's form). */
export function escapeName(name: string): string {
  let out = '';
  for (const char of lowerAscii(name).replace(/\.$/, '')) {
    if (KEPT.test(char)) out += char;
    else for (const byte of utf8.encode(char)) out += `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return out;
}

/** Route 53's form as its API returns it: escaped, with the trailing dot. */
export function toRoute53Name(name: string): string {
  return `${escapeName(name)}.`;
}

/**
 * Any spelling Route 53 accepts or returns (escaped or not, any case, trailing dot or not) →
 * ours. A run of escaped bytes is read as UTF-8; bytes that are not UTF-8 (a name written as
 * Latin-1, like the guide's `ex\344mple`) are read one character per byte.
 */
export function fromRoute53Name(input: string): string {
  const unescaped = input.replace(ESCAPES, (run) => {
    const bytes = Uint8Array.from(run.slice(1).split('\\'), (octal) => parseInt(octal, 8));
    try {
      return strictUtf8.decode(bytes);
    } catch {
      return String.fromCharCode(...bytes);
    }
  });
  return lowerAscii(unescaped).replace(/\.$/, '');
}

/** Route 53 folds A–Z only; other letters are bytes it keeps as they are. */
function lowerAscii(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}
