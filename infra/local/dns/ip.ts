/** IPv4/IPv6 addresses and CIDR blocks as big integers, for longest-prefix matching. No I/O. */

export type IpFamily = 4 | 6;

export interface IpAddress {
  readonly family: IpFamily;
  readonly value: bigint;
}

export interface CidrBlock {
  readonly family: IpFamily;
  /** The network address (host bits zero). */
  readonly network: bigint;
  readonly prefixLength: number;
  /** As written, e.g. `192.0.2.0/24`. */
  readonly text: string;
}

export const bitsOf = (family: IpFamily): number => (family === 4 ? 32 : 128);

function parseIpv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = (value << 8n) | BigInt(octet);
  }
  return value;
}

function parseHextets(groups: readonly string[]): bigint[] | undefined {
  const out: bigint[] = [];
  for (const group of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return undefined;
    out.push(BigInt(`0x${group}`));
  }
  return out;
}

function parseIpv6(text: string): bigint | undefined {
  let body = text;
  let embeddedV4: bigint[] = [];
  const lastColon = body.lastIndexOf(':');
  if (lastColon < 0) return undefined;
  // An embedded IPv4 address in the last 32 bits (e.g. ::ffff:192.0.2.1).
  if (body.slice(lastColon + 1).includes('.')) {
    const v4 = parseIpv4(body.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    embeddedV4 = [v4 >> 16n, v4 & 0xffffn];
    body = body.slice(0, lastColon + 1);
    if (!body.endsWith('::')) body = body.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const [headText = '', tailText] = halves;
  const head = headText === '' ? [] : parseHextets(headText.split(':'));
  const tail = tailText === undefined || tailText === '' ? [] : parseHextets(tailText.split(':'));
  if (!head || !tail) return undefined;
  const explicit = head.length + tail.length + embeddedV4.length;
  let groups: bigint[];
  if (tailText === undefined) {
    if (explicit !== 8) return undefined;
    groups = [...head, ...embeddedV4];
  } else {
    if (explicit > 7) return undefined;
    groups = [...head, ...new Array<bigint>(8 - explicit).fill(0n), ...tail, ...embeddedV4];
  }
  return groups.reduce((acc, g) => (acc << 16n) | g, 0n);
}

/** Parses a textual IPv4 or IPv6 address; `undefined` when it is neither. */
export function parseIp(text: string): IpAddress | undefined {
  const trimmed = text.trim();
  if (trimmed.includes(':')) {
    const value = parseIpv6(trimmed.replace(/%.*$/, ''));
    return value === undefined ? undefined : { family: 6, value };
  }
  const value = parseIpv4(trimmed);
  return value === undefined ? undefined : { family: 4, value };
}

const V4_MAPPED_PREFIX = 0xffffn << 32n;

/** `::ffff:a.b.c.d` (what a dual-stack socket reports for an IPv4 peer) as the IPv4 address it is. */
export function unmapIpv4(address: IpAddress): IpAddress {
  if (address.family === 6 && address.value >> 32n === 0xffffn) {
    return { family: 4, value: address.value - V4_MAPPED_PREFIX };
  }
  return address;
}

export function maskOf(family: IpFamily, prefixLength: number): bigint {
  const bits = BigInt(bitsOf(family));
  const all = (1n << bits) - 1n;
  return (all << (bits - BigInt(prefixLength))) & all;
}

/** The address with every bit after `prefixLength` cleared. */
export function truncate(address: IpAddress, prefixLength: number): IpAddress {
  return { family: address.family, value: address.value & maskOf(address.family, prefixLength) };
}

export type CidrParse = { ok: true; block: CidrBlock } | { ok: false; problem: string };

/** Parses `address/prefix`; a bare address is a full-length block. Host bits must be zero. */
export function parseCidr(text: string): CidrParse {
  const [addressText = '', prefixText, extra] = text.trim().split('/');
  if (extra !== undefined) return { ok: false, problem: `"${text}" is not a CIDR block (address/prefix)` };
  const address = parseIp(addressText);
  if (!address) return { ok: false, problem: `"${text}" does not start with an IPv4 or IPv6 address` };
  const bits = bitsOf(address.family);
  const prefixLength =
    prefixText === undefined ? bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!Number.isInteger(prefixLength) || prefixLength < 0 || prefixLength > bits) {
    return { ok: false, problem: `"${text}" needs a prefix length 0–${bits}` };
  }
  const network = truncate(address, prefixLength).value;
  if (network !== address.value) {
    return {
      ok: false,
      problem: `"${text}" has host bits set after /${prefixLength} (did you mean ${formatIp({ family: address.family, value: network })}/${prefixLength}?)`,
    };
  }
  return {
    ok: true,
    block: { family: address.family, network, prefixLength, text: `${addressText}/${prefixLength}` },
  };
}

export function cidrContains(block: CidrBlock, address: IpAddress): boolean {
  return (
    block.family === address.family &&
    (address.value & maskOf(block.family, block.prefixLength)) === block.network
  );
}

/** Dotted quad for IPv4; full, uncompressed lower-case groups for IPv6 (enough for messages and the wire). */
export function formatIp(address: IpAddress): string {
  if (address.family === 4) {
    return [24n, 16n, 8n, 0n].map((shift) => String((address.value >> shift) & 0xffn)).join('.');
  }
  const groups: string[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n)
    groups.push(((address.value >> shift) & 0xffffn).toString(16));
  return groups.join(':');
}
