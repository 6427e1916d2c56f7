/** The client-location table (format, validation, longest prefix); address parsing is test/core/ip.test.ts. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClientLocationsError,
  DEFAULT_CLIENT_LOCATIONS,
  loadClientLocations,
  locateClient,
  parseClientLocations,
  regionDistanceKm,
} from '../../infra/local/dns/index.js';
import { parseIp } from '../../shared/ip/addresses.js';

const ip = (text: string) => {
  const address = parseIp(text);
  if (!address) throw new Error(`test address ${text} does not parse`);
  return address;
};

describe('built-in client-location table', () => {
  it.each([
    {
      name: '127.0.0.0/8 → US / NA / us-east-1',
      client: '127.0.0.1',
      country: 'US',
      continent: 'NA',
      subdivision: undefined,
      awsRegion: 'us-east-1',
    },
    {
      name: '::1 → US / NA / us-east-1',
      client: '::1',
      country: 'US',
      continent: 'NA',
      subdivision: undefined,
      awsRegion: 'us-east-1',
    },
    {
      name: '192.0.2.0/24 → DE / EU / eu-central-1',
      client: '192.0.2.77',
      country: 'DE',
      continent: 'EU',
      subdivision: undefined,
      awsRegion: 'eu-central-1',
    },
    {
      name: '198.51.100.0/24 → JP / AS / ap-northeast-1',
      client: '198.51.100.9',
      country: 'JP',
      continent: 'AS',
      subdivision: undefined,
      awsRegion: 'ap-northeast-1',
    },
    {
      name: '203.0.113.0/24 → US-CA / NA / us-west-1',
      client: '203.0.113.200',
      country: 'US',
      continent: 'NA',
      subdivision: 'CA',
      awsRegion: 'us-west-1',
    },
    {
      name: '2001:db8::/32 → GB / EU / eu-west-2',
      client: '2001:db8:abcd::1',
      country: 'GB',
      continent: 'EU',
      subdivision: undefined,
      awsRegion: 'eu-west-2',
    },
    {
      name: 'longest prefix wins: 100.64.1.0/24 inside 100.64.0.0/10 → AU',
      client: '100.64.1.1',
      country: 'AU',
      continent: 'OC',
      subdivision: undefined,
      awsRegion: 'ap-southeast-2',
    },
    {
      name: 'the shorter block still covers the rest: 100.64.2.1 → BR',
      client: '100.64.2.1',
      country: 'BR',
      continent: 'SA',
      subdivision: undefined,
      awsRegion: 'sa-east-1',
    },
    {
      name: 'anything else → the default entry',
      client: '8.8.8.8',
      country: 'US',
      continent: 'NA',
      subdivision: undefined,
      awsRegion: 'us-east-1',
    },
  ])('$name', ({ client, country, continent, subdivision, awsRegion }) => {
    // Act
    const { location } = locateClient(DEFAULT_CLIENT_LOCATIONS, ip(client));

    // Assess
    expect(location).toEqual({ country, continent, awsRegion, ...(subdivision ? { subdivision } : {}) });
  });
});

describe('client-location table validation', () => {
  const valid = {
    default: { country: 'US', continent: 'NA', awsRegion: 'us-east-1' },
    subnets: { '10.0.0.0/8': { country: 'DE', continent: 'EU', awsRegion: 'eu-central-1' } },
  };

  it('accepts the documented format', () => {
    // Act
    const table = parseClientLocations(valid, 'table.json');

    // Assess
    expect(locateClient(table, ip('10.1.2.3')).location.country).toBe('DE');
    expect(locateClient(table, ip('10.1.2.3')).subnet?.block.prefix).toBe(8);
  });

  it.each([
    {
      name: 'a lower-case country names the path and the value',
      table: { ...valid, default: { ...valid.default, country: 'us' } },
      problem:
        'default.country: must be an upper-case ISO 3166-1 alpha-2 country code such as "DE", got "us"',
    },
    {
      name: 'an unknown continent',
      table: { ...valid, default: { ...valid.default, continent: 'XX' } },
      problem: 'default.continent: must be one of AF, AN, AS, EU, NA, OC, SA, got "XX"',
    },
    {
      name: 'a region that is not an AWS region name',
      table: {
        ...valid,
        subnets: { '10.0.0.0/8': { country: 'DE', continent: 'EU', awsRegion: 'Frankfurt' } },
      },
      problem:
        'subnets."10.0.0.0/8".awsRegion: must be an AWS region name such as "eu-central-1", got "Frankfurt"',
    },
    {
      name: 'a subnet with host bits set suggests the network',
      table: { ...valid, subnets: { '10.1.2.3/8': valid.default } },
      problem: 'subnets: key "10.1.2.3/8" has host bits set after /8 (did you mean 10.0.0.0/8?)',
    },
    {
      name: 'a subnet that is no address',
      table: { ...valid, subnets: { 'office/24': valid.default } },
      problem: 'subnets: key "office/24" does not start with an IPv4 or IPv6 address',
    },
    {
      // One IP module: leading zeros are refused here as in the definitions (octal in some parsers).
      name: 'a subnet with a leading zero',
      table: { ...valid, subnets: { '010.0.0.0/8': valid.default } },
      problem: 'subnets: key "010.0.0.0/8" does not start with an IPv4 or IPv6 address',
    },
    {
      name: 'a host-bits message in the RFC 5952 form',
      table: { ...valid, subnets: { '2001:db8::1/32': valid.default } },
      problem: 'subnets: key "2001:db8::1/32" has host bits set after /32 (did you mean 2001:db8::/32?)',
    },
    {
      name: 'a prefix longer than the address',
      table: { ...valid, subnets: { '10.0.0.0/33': valid.default } },
      problem: 'subnets: key "10.0.0.0/33" needs a prefix length 0–32',
    },
    {
      name: 'an unknown field (a typo)',
      table: { ...valid, default: { ...valid.default, aws_region: 'x' } },
      problem: 'default: Unrecognized key: "aws_region"',
    },
    {
      name: 'a missing default entry',
      table: { subnets: {} },
      problem: 'default: Invalid input: expected object, received undefined, got nothing',
    },
  ])('rejects $name', ({ table, problem }) => {
    // Act
    const attempt = (): unknown => parseClientLocations(table, 'table.json');

    // Assess
    expect(attempt).toThrow(ClientLocationsError);
    try {
      attempt();
    } catch (error) {
      expect((error as ClientLocationsError).problems).toContain(problem);
      expect((error as ClientLocationsError).message).toContain('table.json');
    }
  });

  it('reports every problem at once', () => {
    // Act
    const attempt = (): unknown =>
      parseClientLocations(
        { default: { country: 'us', continent: 'XX', awsRegion: 'x' }, subnets: { nope: valid.default } },
        'table.json',
      );

    // Assess
    expect(attempt).toThrow(ClientLocationsError);
    try {
      attempt();
    } catch (error) {
      expect((error as ClientLocationsError).problems).toHaveLength(4);
    }
  });
});

describe('loadClientLocations', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tm-dns-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('loads a JSON file in the documented format', async () => {
    // Prepare
    const file = join(dir, 'ok.json');
    await writeFile(
      file,
      JSON.stringify({ default: { country: 'FR', continent: 'EU', awsRegion: 'eu-west-3' }, subnets: {} }),
    );

    // Act
    const table = await loadClientLocations(file);

    // Assess
    expect(locateClient(table, ip('127.0.0.1')).location.awsRegion).toBe('eu-west-3');
  });

  it.each([
    { name: 'a file that is not JSON', content: '{ default: ', problem: /not valid JSON/ },
    { name: 'a file that does not exist', content: undefined, problem: /cannot read the file/ },
  ])('fails clearly for $name', async ({ content, problem }) => {
    // Prepare
    const file = join(dir, `${content === undefined ? 'missing' : 'bad'}.json`);
    if (content !== undefined) await writeFile(file, content);

    // Act
    const attempt = loadClientLocations(file);

    // Assess
    await expect(attempt).rejects.toBeInstanceOf(ClientLocationsError);
    await expect(attempt).rejects.toThrow(problem);
  });
});

describe('region distance (the latency stand-in)', () => {
  it.each([
    {
      name: 'Tokyo is nearer Singapore than N. Virginia',
      from: 'ap-northeast-1',
      near: 'ap-southeast-1',
      far: 'us-east-1',
    },
    {
      name: 'London is nearer Frankfurt than N. Virginia',
      from: 'eu-west-2',
      near: 'eu-central-1',
      far: 'us-east-1',
    },
    {
      name: 'N. California is nearer Oregon than Ohio',
      from: 'us-west-1',
      near: 'us-west-2',
      far: 'us-east-2',
    },
  ])('$name', ({ from, near, far }) => {
    expect(regionDistanceKm(from, near)).toBeLessThan(regionDistanceKm(from, far) ?? 0);
  });

  it('an unknown region has no distance', () => {
    expect(regionDistanceKm('xx-nowhere-1', 'us-east-1')).toBeUndefined();
  });
});
