/**
 * Subnet routing ranges of a definition: a CIDR block or a `first-last` range, turned into
 * the CIDR blocks Route 53 stores (IP parsing is shared/ip/addresses.ts).
 */
import { LRUCache } from 'lru-cache';
import {
  ADDRESS_BITS,
  formatCidr,
  formatIp,
  lastAddressOf,
  maskOf,
  parseCidr,
  parseIp,
  rangeToCidrs,
  type IpFamily,
} from '../ip/addresses.js';

/**
 * Route 53 CIDR collections accept IPv4 blocks /1–/24 and IPv6 blocks /1–/48; the zero-bit
 * block is the default (`*`) location, which is what an endpoint without subnets is.
 */
const ROUTE53_MAX_PREFIX: Readonly<Record<IpFamily, number>> = { ipv4: 24, ipv6: 48 };

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
 * The schema, the rules and the normaliser each parse every range; one parse per distinct
 * text serves all three (results are immutable), the 50,000 most recently used.
 */
const parsedSubnets = new LRUCache<string, SubnetParse>({ max: 50_000, memoMethod: parseSubnetText });

/**
 * Parses a Subnet routing range: `address/prefix` (host bits must be zero) or
 * `first-last` (same family, first ≤ last). Every resulting block must fit Route 53.
 */
export function parseSubnet(source: string): SubnetParse {
  return parsedSubnets.memo(source);
}

function parseSubnetText(source: string): SubnetParse {
  const slash = source.split('/');
  const dash = source.split('-');
  let family: IpFamily;
  let first: bigint;
  let last: bigint;
  if (slash.length === 2) {
    const parsed = parseCidr(source);
    if (parsed.ok) {
      family = parsed.cidr.family;
      first = parsed.cidr.network;
      last = lastAddressOf(parsed.cidr);
    } else if (parsed.reason === 'host-bits') {
      return {
        ok: false,
        rule: 'format',
        message: `must be a network address (host bits are set; did you mean ${formatCidr(parsed.network)}?)`,
      };
    } else if (parsed.reason === 'prefix' && /^(?:0|[1-9][0-9]{0,2})$/.test(slash[1] ?? '')) {
      return { ok: false, rule: 'format', message: `must have a prefix length 0–${parsed.bits}` };
    } else {
      return { ok: false, rule: 'format', message: SUBNET_FORMAT };
    }
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
    // The smallest range of whole blocks around it: the way around, with what it adds.
    const mask = maskOf(family, maxPrefix);
    const from = first & mask;
    const to = last | (~mask & ((1n << BigInt(ADDRESS_BITS[family])) - 1n));
    const wider = `${formatIp({ family, value: from })}-${formatIp({ family, value: to })}`;
    return {
      ok: false,
      rule: 'route53-cidr',
      message: `must be made of whole ${unit} blocks: Route 53 CIDR routing accepts ${family === 'ipv4' ? 'IPv4' : 'IPv6'} blocks up to ${unit} (the whole blocks around it are ${wider}, ${to - from - (last - first)} more addresses)`,
    };
  }
  return { ok: true, family, first, last, cidrs: blocks.map(formatCidr) };
}
