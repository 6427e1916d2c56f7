/**
 * IP addresses, CIDR blocks and `first-last` ranges as big integers: enough to validate
 * Subnet routing ranges, convert them to the CIDR blocks Route 53 stores, and detect
 * overlaps. Pure; no node:net.
 */
export type IpFamily = 'ipv4' | 'ipv6';

export const ADDRESS_BITS: Readonly<Record<IpFamily, number>> = { ipv4: 32, ipv6: 128 };

/**
 * Route 53 CIDR collections accept IPv4 blocks /1–/24 and IPv6 blocks /1–/48; the zero-bit
 * block is the default (`*`) location, which is what an endpoint without subnets is.
 */
export const ROUTE53_MAX_PREFIX: Readonly<Record<IpFamily, number>> = { ipv4: 24, ipv6: 48 };

export interface IpAddress {
  readonly family: IpFamily;
  readonly value: bigint;
}

const IPV4_OCTET = /^(?:0|[1-9][0-9]{0,2})$/;
const IPV6_GROUP = /^[0-9a-fA-F]{1,4}$/;

/** Dotted quad without leading zeros (`010.0.0.1` is ambiguous: octal in some parsers). */
export function parseIPv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!IPV4_OCTET.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = (value << 8n) | BigInt(octet);
  }
  return value;
}

/** RFC 4291 text forms, including `::` and a trailing dotted quad; no zone index, no brackets. */
export function parseIPv6(text: string): bigint | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const head = groupsOf(halves[0] ?? '');
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? '') : [];
  const all = [...head, ...tail];
  const words: number[] = [];
  for (const [index, group] of all.entries()) {
    if (index === all.length - 1 && group.includes('.')) {
      const v4 = parseIPv4(group);
      if (v4 === undefined) return undefined;
      words.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
    } else if (IPV6_GROUP.test(group)) {
      words.push(parseInt(group, 16));
    } else {
      return undefined;
    }
  }
  const headWords = words.slice(0, head.length);
  const tailWords = words.slice(head.length);
  const present = words.length;
  if (halves.length === 1 && present !== 8) return undefined;
  if (halves.length === 2 && present > 7) return undefined;
  const zeros = new Array<number>(8 - present).fill(0);
  const full = halves.length === 2 ? [...headWords, ...zeros, ...tailWords] : words;
  return full.reduce((acc, word) => (acc << 16n) | BigInt(word), 0n);
}

export function parseIp(text: string): IpAddress | undefined {
  const v4 = parseIPv4(text);
  if (v4 !== undefined) return { family: 'ipv4', value: v4 };
  const v6 = parseIPv6(text);
  if (v6 !== undefined) return { family: 'ipv6', value: v6 };
  return undefined;
}

/** IPv4 dotted quad; IPv6 in the RFC 5952 canonical form (lower case, longest zero run as `::`). */
export function formatIp(address: IpAddress): string {
  if (address.family === 'ipv4') {
    return [24n, 16n, 8n, 0n].map((shift) => String((address.value >> shift) & 0xffn)).join('.');
  }
  const words = Array.from({ length: 8 }, (_, i) =>
    Number((address.value >> BigInt(112 - 16 * i)) & 0xffffn),
  );
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < 8;) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLength && j - i >= 2) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = words.map((w) => w.toString(16));
  if (bestStart < 0) return hex.join(':');
  const left = hex.slice(0, bestStart).join(':');
  const right = hex.slice(bestStart + bestLength).join(':');
  return `${left}::${right}`;
}

export interface Cidr {
  readonly family: IpFamily;
  readonly network: bigint;
  readonly prefix: number;
}

export function formatCidr(cidr: Cidr): string {
  return `${formatIp({ family: cidr.family, value: cidr.network })}/${cidr.prefix}`;
}

/** The smallest list of CIDR blocks that covers exactly `first`..`last` (inclusive). */
export function rangeToCidrs(family: IpFamily, first: bigint, last: bigint): Cidr[] {
  const bits = ADDRESS_BITS[family];
  const cidrs: Cidr[] = [];
  let start = first;
  while (start <= last) {
    let size = 0;
    // Grow the block while `start` stays aligned to it and it stays inside the range.
    while (
      size < bits &&
      (start & ((1n << BigInt(size + 1)) - 1n)) === 0n &&
      start + (1n << BigInt(size + 1)) - 1n <= last
    ) {
      size++;
    }
    cidrs.push({ family, network: start, prefix: bits - size });
    start += 1n << BigInt(size);
  }
  return cidrs;
}

export type SubnetParse =
  | {
      readonly ok: true;
      readonly family: IpFamily;
      readonly first: bigint;
      readonly last: bigint;
      /** Canonical CIDR strings covering the range. */
      readonly cidrs: readonly string[];
    }
  | { readonly ok: false; readonly rule: string; readonly message: string };

const SUBNET_FORMAT = "must be a CIDR block ('10.0.0.0/8') or a range ('192.0.2.0-192.0.2.255')";

/**
 * Parses a Subnet routing range: `address/prefix` (host bits must be zero) or
 * `first-last` (same family, first ≤ last). Every resulting block must fit Route 53.
 */
export function parseSubnet(source: string): SubnetParse {
  const slash = source.split('/');
  const dash = source.split('-');
  let family: IpFamily;
  let first: bigint;
  let last: bigint;
  if (slash.length === 2) {
    const address = parseIp(slash[0] ?? '');
    const prefixText = slash[1] ?? '';
    if (address === undefined || !/^(?:0|[1-9][0-9]{0,2})$/.test(prefixText)) {
      return { ok: false, rule: 'format', message: SUBNET_FORMAT };
    }
    family = address.family;
    const bits = ADDRESS_BITS[family];
    const prefix = Number(prefixText);
    if (prefix > bits) return { ok: false, rule: 'format', message: `must have a prefix length 0–${bits}` };
    const hostMask = (1n << BigInt(bits - prefix)) - 1n;
    if ((address.value & hostMask) !== 0n) {
      const network = formatCidr({ family, network: address.value & ~hostMask, prefix });
      return {
        ok: false,
        rule: 'format',
        message: `must be a network address (host bits are set; did you mean ${network}?)`,
      };
    }
    first = address.value;
    last = address.value | hostMask;
  } else if (dash.length === 2) {
    const from = parseIp(dash[0] ?? '');
    const to = parseIp(dash[1] ?? '');
    if (from === undefined || to === undefined) return { ok: false, rule: 'format', message: SUBNET_FORMAT };
    if (from.family !== to.family) {
      return { ok: false, rule: 'format', message: 'must have both ends of the range in the same IP family' };
    }
    if (from.value > to.value) return { ok: false, rule: 'order', message: 'must have first ≤ last' };
    family = from.family;
    first = from.value;
    last = to.value;
  } else {
    return { ok: false, rule: 'format', message: SUBNET_FORMAT };
  }
  const blocks = rangeToCidrs(family, first, last);
  const maxPrefix = ROUTE53_MAX_PREFIX[family];
  if (blocks.some((block) => block.prefix === 0)) {
    return {
      ok: false,
      rule: 'route53-cidr',
      message: 'must not cover every address: leave one endpoint without subnets as the fallback instead',
    };
  }
  if (blocks.some((block) => block.prefix > maxPrefix)) {
    const unit = family === 'ipv4' ? '/24' : '/48';
    return {
      ok: false,
      rule: 'route53-cidr',
      message: `must be made of whole ${unit} blocks: Route 53 CIDR routing accepts ${family === 'ipv4' ? 'IPv4' : 'IPv6'} blocks up to ${unit}`,
    };
  }
  return { ok: true, family, first, last, cidrs: blocks.map(formatCidr) };
}
