import { describe, expect, it } from 'vitest';
import {
  AWS_COMMERCIAL_REGIONS,
  classifyTarget,
  formatIp,
  geoLocationOf,
  isAwsRegion,
  parseIp,
  parseSubnet,
  US_SUBDIVISION_CODES,
} from '../support/profile-api.js';

describe('IP addresses', () => {
  it.each([
    { name: 'IPv4', text: '192.0.2.1', family: 'ipv4', canonical: '192.0.2.1' },
    { name: 'IPv6 compressed', text: '2001:DB8::1', family: 'ipv6', canonical: '2001:db8::1' },
    {
      name: 'IPv6 in full',
      text: '2001:0db8:0000:0000:0000:0000:0000:0001',
      family: 'ipv6',
      canonical: '2001:db8::1',
    },
    { name: 'IPv6 unspecified', text: '::', family: 'ipv6', canonical: '::' },
    {
      name: 'IPv6 with a trailing dotted quad',
      text: '::ffff:192.0.2.1',
      family: 'ipv6',
      canonical: '::ffff:c000:201',
    },
    { name: 'IPv6 with no zero run', text: '1:2:3:4:5:6:7:8', family: 'ipv6', canonical: '1:2:3:4:5:6:7:8' },
    {
      name: 'IPv6 compressing the longest zero run',
      text: '1:0:0:2:0:0:0:3',
      family: 'ipv6',
      canonical: '1:0:0:2::3',
    },
    {
      name: 'IPv6 leaving a single zero group',
      text: '1:0:2:3:4:5:6:7',
      family: 'ipv6',
      canonical: '1:0:2:3:4:5:6:7',
    },
  ])('parses and canonicalizes $name', ({ text, family, canonical }) => {
    // Act
    const address = parseIp(text);

    // Assess
    expect(address?.family).toBe(family);
    expect(address && formatIp(address)).toBe(canonical);
  });

  it.each([
    { name: 'an octet above 255', text: '192.0.2.256' },
    { name: 'a leading zero (octal ambiguity)', text: '192.0.2.01' },
    { name: 'three octets', text: '192.0.2' },
    { name: 'two :: in IPv6', text: '1::2::3' },
    { name: 'nine IPv6 groups', text: '1:2:3:4:5:6:7:8:9' },
    { name: 'eight groups plus ::', text: '1:2:3:4::5:6:7:8' },
    { name: 'seven groups without ::', text: '1:2:3:4:5:6:7' },
    { name: 'a five-digit group', text: '12345::1' },
    { name: 'a bad dotted quad tail', text: '::ffff:192.0.2' },
    { name: 'a zone index', text: 'fe80::1%eth0' },
    { name: 'brackets', text: '[2001:db8::1]' },
  ])('rejects $name', ({ text }) => {
    // Act / Assess
    expect(parseIp(text)).toBeUndefined();
  });
});

describe('endpoint targets', () => {
  it.each([
    {
      name: 'a host name, lower-cased without the trailing dot',
      text: 'East.Shop.Example.NET.',
      expected: { kind: 'hostname', value: 'east.shop.example.net' },
    },
    {
      name: 'a single-label host name',
      text: 'localhost',
      expected: { kind: 'hostname', value: 'localhost' },
    },
    { name: 'an IPv4 address', text: '203.0.113.10', expected: { kind: 'ipv4', value: '203.0.113.10' } },
    { name: 'an IPv6 address', text: '2001:DB8::10', expected: { kind: 'ipv6', value: '2001:db8::10' } },
    { name: 'an all-numeric last label', text: 'host.123', expected: undefined },
    { name: 'an underscore', text: 'a_b.example.net', expected: undefined },
    { name: 'a label over 63 characters', text: `${'a'.repeat(64)}.example.net`, expected: undefined },
    { name: 'an empty string', text: '', expected: undefined },
  ])('classifies $name', ({ text, expected }) => {
    // Act / Assess
    expect(classifyTarget(text)).toEqual(expected);
  });
});

describe('Subnet ranges become Route 53 CIDR blocks', () => {
  it.each([
    { name: 'an IPv4 CIDR as itself', source: '10.0.0.0/8', cidrs: ['10.0.0.0/8'] },
    {
      name: 'an aligned range as one block',
      source: '198.51.100.0-198.51.100.255',
      cidrs: ['198.51.100.0/24'],
    },
    {
      name: 'an unaligned range as several blocks',
      source: '203.0.112.0-203.0.114.255',
      cidrs: ['203.0.112.0/23', '203.0.114.0/24'],
    },
    { name: 'an IPv6 CIDR canonicalized', source: '2001:DB8:0::/32', cidrs: ['2001:db8::/32'] },
    {
      name: 'an IPv6 range',
      source: '2001:db8::-2001:db8:1:ffff:ffff:ffff:ffff:ffff',
      cidrs: ['2001:db8::/47'],
    },
  ])('converts $name', ({ source, cidrs }) => {
    // Act
    const parsed = parseSubnet(source);

    // Assess
    expect(parsed.ok && parsed.cidrs).toEqual(cidrs);
  });

  it.each([
    {
      name: 'host bits set, suggesting the network',
      source: '10.1.2.3/8',
      rule: 'format',
      message: 'must be a network address (host bits are set; did you mean 10.0.0.0/8?)',
    },
    {
      name: 'a prefix over 32',
      source: '10.0.0.0/33',
      rule: 'format',
      message: 'must have a prefix length 0–32',
    },
    {
      name: 'a non-numeric prefix',
      source: '10.0.0.0/x',
      rule: 'format',
      message: "must be a CIDR block ('10.0.0.0/8') or a range ('192.0.2.0-192.0.2.255')",
    },
    {
      name: 'a bare address',
      source: '10.0.0.0',
      rule: 'format',
      message: "must be a CIDR block ('10.0.0.0/8') or a range ('192.0.2.0-192.0.2.255')",
    },
    {
      name: 'a bad range end',
      source: '10.0.0.0-10.0.0',
      rule: 'format',
      message: "must be a CIDR block ('10.0.0.0/8') or a range ('192.0.2.0-192.0.2.255')",
    },
    {
      name: 'mixed families',
      source: '10.0.0.0-2001:db8::',
      rule: 'format',
      message: 'must have both ends of the range in the same IP family',
    },
    {
      name: 'first after last',
      source: '10.0.1.0-10.0.0.0',
      rule: 'order',
      message: 'must have first ≤ last',
    },
    {
      name: 'every address (that is the fallback)',
      source: '0.0.0.0/0',
      rule: 'route53-cidr',
      message: 'must not cover every address: leave one endpoint without subnets as the fallback instead',
    },
    {
      name: 'an IPv4 block longer than /24',
      source: '192.0.2.1-192.0.2.99',
      rule: 'route53-cidr',
      message:
        'must be made of whole /24 blocks: Route 53 CIDR routing accepts IPv4 blocks up to /24 (the whole blocks around it are 192.0.2.0-192.0.2.255, 157 more addresses)',
    },
    {
      name: 'an IPv6 block longer than /48',
      source: '2001:db8::/64',
      rule: 'route53-cidr',
      message:
        'must be made of whole /48 blocks: Route 53 CIDR routing accepts IPv6 blocks up to /48 (the whole blocks around it are 2001:db8::-2001:db8:0:ffff:ffff:ffff:ffff:ffff, 1208907372870555465154560 more addresses)',
    },
  ])('rejects $name', ({ source, rule, message }) => {
    // Act / Assess
    expect(parseSubnet(source)).toEqual({ ok: false, rule, message });
  });
});

describe('Route 53 location codes', () => {
  it.each([
    { name: 'WORLD as the default location', code: 'WORLD', expected: { countryCode: '*' } },
    { name: 'a continent', code: 'GEO-EU', expected: { continentCode: 'EU' } },
    { name: 'a country in any case', code: 'de', expected: { countryCode: 'DE' } },
    { name: 'Ukraine', code: 'UA', expected: { countryCode: 'UA' } },
    {
      name: 'a US state',
      code: 'US-CA',
      expected: { countryCode: 'US', subdivisionCode: 'CA' },
    },
    {
      name: 'the District of Columbia',
      code: 'US-DC',
      expected: { countryCode: 'US', subdivisionCode: 'DC' },
    },
    { name: 'an unknown continent', code: 'GEO-XX', expected: undefined },
    { name: 'a non-ISO country', code: 'UK', expected: undefined },
    { name: 'a subdivision outside the US', code: 'DE-BY', expected: undefined },
    { name: 'an unknown US state', code: 'US-XX', expected: undefined },
    { name: 'too many parts', code: 'US-CA-SF', expected: undefined },
  ])('reads $name', ({ code, expected }) => {
    // Act / Assess
    expect(geoLocationOf(code)).toEqual(expected);
  });

  it('covers all 50 states and DC', () => {
    // Act / Assess
    expect(new Set(US_SUBDIVISION_CODES).size).toBe(51);
  });
});

describe('AWS regions', () => {
  it.each([
    { name: 'us-east-1', region: 'us-east-1', expected: true },
    { name: 'eu-central-2', region: 'eu-central-2', expected: true },
    { name: 'a GovCloud region (another partition)', region: 'us-gov-west-1', expected: false },
    { name: 'a China region (another partition)', region: 'cn-north-1', expected: false },
    { name: 'an upper-case name', region: 'US-EAST-1', expected: false },
  ])('knows $name', ({ region, expected }) => {
    // Act / Assess
    expect(isAwsRegion(region)).toBe(expected);
  });

  it('lists each region once', () => {
    // Act / Assess
    expect(new Set(AWS_COMMERCIAL_REGIONS).size).toBe(AWS_COMMERCIAL_REGIONS.length);
  });
});
