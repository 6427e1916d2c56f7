/**
 * shared/ip/addresses.ts: the one IP module (definitions, Subnet routing, the local DNS server).
 * Two hand-written copies used to disagree; the rows marked "chosen" pin what was kept.
 */
import { describe, expect, it } from 'vitest';
import {
  cidrContains,
  formatCidr,
  formatIp,
  lastAddressOf,
  parseCidr,
  parseIp,
  rangeToCidrs,
  truncate,
  unmapIpv4,
  type IpAddress,
} from '../../shared/ip/addresses.js';

const ip = (text: string): IpAddress => {
  const address = parseIp(text);
  if (address === undefined) throw new Error(`test address ${text} does not parse`);
  return address;
};

describe('parseIp / formatIp', () => {
  it.each([
    { name: 'IPv4', text: '192.0.2.1', formatted: '192.0.2.1' },
    // chosen: RFC 5952 everywhere (the DNS copy wrote IPv6 uncompressed, 2001:db8:0:0:0:0:0:1)
    { name: 'IPv6 compressed (RFC 5952)', text: '2001:db8::1', formatted: '2001:db8::1' },
    { name: 'IPv6 loopback', text: '::1', formatted: '::1' },
    { name: 'IPv6 with an embedded IPv4 address', text: '::ffff:192.0.2.1', formatted: '::ffff:c000:201' },
    { name: 'IPv6 in full', text: '2001:0db8:0000:0000:0000:0000:0000:0001', formatted: '2001:db8::1' },
    { name: 'IPv6 upper case', text: '2001:DB8::A', formatted: '2001:db8::a' },
  ])('parses and formats $name', ({ text, formatted }) => {
    expect(formatIp(ip(text))).toBe(formatted);
  });

  it.each([
    { name: 'an octet over 255', text: '256.0.0.1' },
    // chosen: leading zeros are refused (the DNS copy read 010.0.0.1 as 10.0.0.1; other parsers read octal 8.0.0.1)
    { name: 'a leading zero (octal ambiguity)', text: '010.0.0.1' },
    { name: 'a leading zero in an embedded IPv4 address', text: '::ffff:010.0.0.1' },
    { name: 'a short dotted form', text: '127.1' },
    { name: 'a hexadecimal octet', text: '0x7f.0.0.1' },
    { name: 'two "::"', text: '1::2::3' },
    { name: 'nine IPv6 groups', text: '1:2:3:4:5:6:7:8:9' },
    { name: 'a host name', text: 'example.com' },
    // chosen: no zone index and no surrounding spaces (the DNS copy stripped both; its socket edge still strips the zone)
    { name: 'a zone index', text: 'fe80::1%eth0' },
    { name: 'surrounding spaces', text: ' 192.0.2.1 ' },
  ])('rejects $name', ({ text }) => {
    expect(parseIp(text)).toBeUndefined();
  });

  it('an IPv4-mapped IPv6 address is its IPv4 address once unmapped; others stay', () => {
    expect(formatIp(unmapIpv4(ip('::ffff:192.0.2.1')))).toBe('192.0.2.1');
    expect(unmapIpv4(ip('2001:db8::1'))).toEqual(ip('2001:db8::1'));
    expect(unmapIpv4(ip('192.0.2.1'))).toEqual(ip('192.0.2.1'));
  });
});

describe('parseCidr', () => {
  it.each([
    { name: 'an IPv4 block', text: '10.0.0.0/8', cidr: '10.0.0.0/8' },
    { name: 'an IPv6 block', text: '2001:db8::/32', cidr: '2001:db8::/32' },
    { name: 'the zero-bit block', text: '0.0.0.0/0', cidr: '0.0.0.0/0' },
  ])('accepts $name', ({ text, cidr }) => {
    const parsed = parseCidr(text);
    expect(parsed.ok && formatCidr(parsed.cidr)).toBe(cidr);
  });

  it.each([
    { name: 'a bare address (unless asked)', text: '10.0.0.0', reason: 'address' },
    { name: 'a word', text: 'office/24', reason: 'address' },
    { name: 'a prefix too long', text: '10.0.0.0/33', reason: 'prefix' },
    // chosen: a prefix is written without leading zeros (the DNS copy accepted /08)
    { name: 'a prefix with a leading zero', text: '10.0.0.0/08', reason: 'prefix' },
    { name: 'two slashes', text: '10.0.0.0/8/8', reason: 'prefix' },
    { name: 'host bits set', text: '10.1.2.3/8', reason: 'host-bits' },
  ])('refuses $name', ({ text, reason }) => {
    expect(parseCidr(text)).toMatchObject({ ok: false, reason });
  });

  it('host bits set: names the network meant', () => {
    const parsed = parseCidr('10.1.2.3/8');
    expect(!parsed.ok && parsed.reason === 'host-bits' && formatCidr(parsed.network)).toBe('10.0.0.0/8');
  });

  it('a bare address is a full-length block when the caller allows it', () => {
    const parsed = parseCidr('2001:db8::1', { bareAddress: true });
    expect(parsed.ok && parsed.cidr.prefix).toBe(128);
  });
});

describe('blocks', () => {
  it('contains the addresses of its family under its prefix only', () => {
    const parsed = parseCidr('192.0.2.0/24');
    if (!parsed.ok) throw new Error('test block does not parse');
    expect(cidrContains(parsed.cidr, ip('192.0.2.200'))).toBe(true);
    expect(cidrContains(parsed.cidr, ip('192.0.3.1'))).toBe(false);
    expect(cidrContains(parsed.cidr, ip('::ffff:192.0.2.1'))).toBe(false);
    expect(formatIp({ family: 'ipv4', value: lastAddressOf(parsed.cidr) })).toBe('192.0.2.255');
  });

  it('truncate clears the host bits', () => {
    expect(formatIp(truncate(ip('2001:db8:1:2::1'), 48))).toBe('2001:db8:1::');
  });

  it('rangeToCidrs covers a range exactly with the fewest blocks', () => {
    const blocks = rangeToCidrs('ipv4', ip('192.0.2.1').value, ip('192.0.2.6').value).map(formatCidr);
    expect(blocks).toEqual(['192.0.2.1/32', '192.0.2.2/31', '192.0.2.4/31', '192.0.2.6/32']);
  });
});
