/** Endpoint targets: a host name or an IP literal, normalized. */
import { formatIp, parseIp } from '../ip/addresses.js';
import { isHostName, normalizeDnsName } from './names.js';

export interface ClassifiedTarget {
  readonly kind: 'hostname' | 'ipv4' | 'ipv6';
  /** Host names lower case without the trailing dot; IPv6 in canonical form. */
  readonly value: string;
}

export function classifyTarget(text: string): ClassifiedTarget | undefined {
  const ip = parseIp(text);
  if (ip !== undefined) return { kind: ip.family, value: formatIp(ip) };
  if (isHostName(text)) return { kind: 'hostname', value: normalizeDnsName(text) };
  return undefined;
}
