/** Zone membership and Route 53's listing order (the name codec itself is shared/zone/names.ts). */

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
