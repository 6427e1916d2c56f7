/** Name syntax shared by the schema: resource names, DNS names, header tokens. */

/** Profile and endpoint names: 1–63 letters, digits or '-', not starting or ending with '-'. */
const RESOURCE_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
/** RFC 7230 `token`. */
const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Visible ASCII, space and tab: no line breaks (header injection) and nothing undici would reject. */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
const HOSTED_ZONE_ID = /^Z[A-Z0-9]{1,31}$/;

export const MAX_DNS_NAME_LENGTH = 253;

export function isResourceName(name: string): boolean {
  return RESOURCE_NAME.test(name);
}

/** Lower case, without the trailing dot of an absolute name. */
export function normalizeDnsName(name: string): string {
  return (name.endsWith('.') ? name.slice(0, -1) : name).toLowerCase();
}

/** One or more LDH labels, at most 253 characters; `absoluteAllowed` accepts one trailing dot. */
export function isDnsName(name: string, absoluteAllowed: boolean): boolean {
  const bare = absoluteAllowed && name.endsWith('.') ? name.slice(0, -1) : name;
  if (bare.length === 0 || bare.length > MAX_DNS_NAME_LENGTH) return false;
  return bare.split('.').every((label) => DNS_LABEL.test(label));
}

/** A DNS name usable as a probe target: an all-numeric last label would be a malformed IP address. */
export function isHostName(name: string): boolean {
  if (!isDnsName(name, true)) return false;
  return !/(?:^|\.)[0-9]+$/.test(normalizeDnsName(name));
}

export function isHeaderName(name: string): boolean {
  return HEADER_TOKEN.test(name);
}

export function isHeaderValue(value: string): boolean {
  return HEADER_VALUE.test(value);
}

export function isHostedZoneId(id: string): boolean {
  return HOSTED_ZONE_ID.test(id);
}

/** Edit distance, to suggest the field an unknown key was probably meant to be. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1]?.toLowerCase() === b[j - 1]?.toLowerCase() ? 0 : 1;
      current.push(
        Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}
