/**
 * IP addresses and CIDR blocks, for the whole project: validation of definitions, Subnet
 * routing ranges, and the local DNS server's longest-prefix matching. Parsing and formatting
 * are ipaddr.js (pure JS, widely used); addresses are held as big integers so ranges, masks and
 * overlaps are plain arithmetic. `rangeToCidrs` is ours (ipaddr.js has no range → blocks).
 *
 * Accepted text: a dotted quad without leading zeros (`010.0.0.1` is octal in some parsers,
 * decimal in others), or an RFC 4291 IPv6 address (`::` and a trailing dotted quad allowed);
 * no zone index, no brackets, no surrounding spaces. IPv6 is written in the RFC 5952 form
 * (lower case, the longest run of zero groups as `::`).
 */
import ipaddr from 'ipaddr.js';

export type IpFamily = 'ipv4' | 'ipv6';

export const ADDRESS_BITS: Readonly<Record<IpFamily, number>> = { ipv4: 32, ipv6: 128 };

export interface IpAddress {
  readonly family: IpFamily;
  readonly value: bigint;
}

export interface Cidr {
  readonly family: IpFamily;
  /** The network address (host bits zero). */
  readonly network: bigint;
  readonly prefix: number;
}

/** The address `text` spells, or undefined. */
export function parseIp(text: string): IpAddress | undefined {
  // ipaddr.js answers "not an address" by throwing and catching an Error, whose stack trace
  // costs ~70 µs; a host name (the common input) is told apart by its characters first.
  if (!/^[\d.]+$/.test(text) && !text.includes(':')) return undefined;
  if (ipaddr.IPv4.isValidFourPartDecimal(text))
    return fromBytes('ipv4', ipaddr.IPv4.parse(text).toByteArray());
  if (!ipaddr.IPv6.isValid(text)) return undefined;
  const address = ipaddr.IPv6.parse(text);
  if (address.zoneId !== undefined) return undefined;
  // ipaddr.js reads a trailing dotted quad leniently; hold it to the IPv4 rule above.
  const quad = /:([^:]*\.[^:]*)$/.exec(text)?.[1];
  if (quad !== undefined && !ipaddr.IPv4.isValidFourPartDecimal(quad)) return undefined;
  return fromBytes('ipv6', address.toByteArray());
}

/** IPv4 as a dotted quad; IPv6 in the RFC 5952 form. */
export function formatIp(address: IpAddress): string {
  const bytes: number[] = [];
  for (let shift = BigInt(ADDRESS_BITS[address.family] - 8); shift >= 0n; shift -= 8n) {
    bytes.push(Number((address.value >> shift) & 0xffn));
  }
  const parsed = ipaddr.fromByteArray(bytes);
  return parsed.kind() === 'ipv6' ? (parsed as ipaddr.IPv6).toRFC5952String() : parsed.toString();
}

export function formatCidr(cidr: Cidr): string {
  return `${formatIp({ family: cidr.family, value: cidr.network })}/${cidr.prefix}`;
}

/** `::ffff:a.b.c.d` (what a dual-stack socket reports for an IPv4 peer) as the IPv4 address it is. */
export function unmapIpv4(address: IpAddress): IpAddress {
  if (address.family === 'ipv6' && address.value >> 32n === 0xffffn) {
    return { family: 'ipv4', value: address.value & 0xffffffffn };
  }
  return address;
}

export function maskOf(family: IpFamily, prefix: number): bigint {
  const bits = BigInt(ADDRESS_BITS[family]);
  const all = (1n << bits) - 1n;
  return (all << (bits - BigInt(prefix))) & all;
}

/** The address with every bit after `prefix` cleared. */
export function truncate(address: IpAddress, prefix: number): IpAddress {
  return { family: address.family, value: address.value & maskOf(address.family, prefix) };
}

/** The block's highest address. */
export function lastAddressOf(cidr: Cidr): bigint {
  return cidr.network | (((1n << BigInt(ADDRESS_BITS[cidr.family])) - 1n) ^ maskOf(cidr.family, cidr.prefix));
}

export function cidrContains(cidr: Cidr, address: IpAddress): boolean {
  return (
    cidr.family === address.family && (address.value & maskOf(cidr.family, cidr.prefix)) === cidr.network
  );
}

/** Why a text is not a CIDR block; each caller words the message for its own reader. */
export type CidrParse =
  | { readonly ok: true; readonly cidr: Cidr }
  | { readonly ok: false; readonly reason: 'address' }
  | { readonly ok: false; readonly reason: 'prefix'; readonly bits: number }
  | { readonly ok: false; readonly reason: 'host-bits'; readonly network: Cidr };

/**
 * `address/prefix` (prefix 0–32 or 0–128, no leading zeros) with the host bits zero; with
 * `bareAddress`, an address alone is its full-length block.
 */
export function parseCidr(text: string, options: { bareAddress?: boolean } = {}): CidrParse {
  const slash = text.indexOf('/');
  if (slash < 0 && !options.bareAddress) return { ok: false, reason: 'address' };
  const address = parseIp(slash < 0 ? text : text.slice(0, slash));
  if (address === undefined) return { ok: false, reason: 'address' };
  const bits = ADDRESS_BITS[address.family];
  const prefixText = slash < 0 ? String(bits) : text.slice(slash + 1);
  const prefix = /^(?:0|[1-9][0-9]{0,2})$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (!(prefix <= bits)) return { ok: false, reason: 'prefix', bits };
  const network = truncate(address, prefix).value;
  const cidr = { family: address.family, network, prefix };
  return network === address.value ? { ok: true, cidr } : { ok: false, reason: 'host-bits', network: cidr };
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

function fromBytes(family: IpFamily, bytes: readonly number[]): IpAddress {
  return { family, value: bytes.reduce((value, byte) => (value << 8n) | BigInt(byte), 0n) };
}
