/**
 * DNS names between the Route 53 wire form and the `RecordSet` convention.
 *
 * Route 53 answers names fully qualified, lower case, with characters other
 * than a–z, 0–9, `-` and `_` as `\ooo` octal escapes (so `*.example.com`
 * comes back as `\052.example.com.`); the in-process view (`RecordSet`) uses
 * lower case without the trailing dot.
 * https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/DomainNameFormat.html
 */

/** Any accepted spelling (escaped or not, trailing dot or not) → lower case, no trailing dot. */
export function normalizeName(input: string): string {
  const unescaped = input.replace(/\\([0-7]{3})/g, (_match, octal: string) =>
    String.fromCharCode(parseInt(octal, 8)),
  );
  const lower = unescaped.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** Normalized name → the form Route 53 returns (trailing dot, octal escapes). */
export function toApiName(name: string): string {
  const escaped = name.replace(
    /[^a-z0-9\-_.]/g,
    (char) => `\\${char.charCodeAt(0).toString(8).padStart(3, '0')}`,
  );
  return `${escaped}.`;
}

/** Whether `name` is the zone apex or under it (both normalized). */
export function isInZone(name: string, zoneName: string): boolean {
  return name === zoneName || name.endsWith(`.${zoneName}`);
}

/**
 * The key Route 53 sorts names by: labels reversed, with the trailing dot
 * (`www.example.com` → `com.example.www.`), compared in ASCII order.
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_ListResourceRecordSets.html
 */
export function reversedLabelKey(name: string): string {
  return `${name.split('.').reverse().join('.')}.`;
}

/** Plain code-unit comparison (ASCII order), never locale-aware. */
export function compareAscii(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
