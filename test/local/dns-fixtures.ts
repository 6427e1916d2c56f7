/** Shared by the local DNS tests: an in-memory ZoneReader, the test zone, a seeded random, and a dig runner/parser. */
import { execFile } from 'node:child_process';
import { promises as dns } from 'node:dns';
import { existsSync } from 'node:fs';
import type { ZoneReader, ZoneSnapshot } from '../../infra/local/zone-reader.js';
import type { CidrCollection, RecordSet } from '../../shared/zone/record-set.js';

export const DIG = '/usr/bin/dig';
export const digAvailable = existsSync(DIG);

/** Finds the zone with the longest name that `name` is in or under, like the local Route 53 does. */
export function inMemoryZones(
  zones: readonly ZoneSnapshot[],
  collections: readonly CidrCollection[] = [],
): ZoneReader {
  return {
    findZone: (name) =>
      [...zones]
        .sort((a, b) => b.zoneName.length - a.zoneName.length)
        .find((zone) => name === zone.zoneName || name.endsWith(`.${zone.zoneName}`)),
    cidrCollection: (id) => collections.find((collection) => collection.id === id),
  };
}

/** mulberry32: a small seeded PRNG so that "random" answers are reproducible run to run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const a = (name: string, values: string[], extra: Partial<RecordSet> = {}): RecordSet => ({
  name,
  type: 'A',
  ttl: 60,
  values,
  ...extra,
});

export const CIDR_COLLECTION: CidrCollection = {
  id: 'c-offices',
  name: 'offices',
  locations: { office: ['192.0.2.0/24'], lab: ['192.0.2.128/25'], tokyo: ['2001:db8:1::/48'] },
};

export const BIG_ANSWER_SIZE = 100;

const records: RecordSet[] = [
  a('simple.example.com', ['192.0.2.1', '192.0.2.2']),
  { name: 'simple.example.com', type: 'AAAA', ttl: 120, values: ['2001:db8::1'] },
  a('weighted.example.com', ['10.0.0.1'], { ttl: 0, setIdentifier: 'heavy', weight: 3 }),
  a('weighted.example.com', ['10.0.0.2'], { ttl: 0, setIdentifier: 'light', weight: 1 }),
  a('weighted.example.com', ['10.0.0.3'], { ttl: 0, setIdentifier: 'off', weight: 0 }),
  a('zero.example.com', ['10.0.1.1'], { ttl: 0, setIdentifier: 'z1', weight: 0 }),
  a('zero.example.com', ['10.0.1.2'], { ttl: 0, setIdentifier: 'z2', weight: 0 }),
  a('latency.example.com', ['10.1.0.1'], { setIdentifier: 'use1', region: 'us-east-1' }),
  a('latency.example.com', ['10.1.0.2'], { setIdentifier: 'euc1', region: 'eu-central-1' }),
  a('latency.example.com', ['10.1.0.3'], { setIdentifier: 'apse1', region: 'ap-southeast-1' }),
  a('geo.example.com', ['10.2.0.1'], {
    setIdentifier: 'us-ca',
    geoLocation: { countryCode: 'US', subdivisionCode: 'CA' },
  }),
  a('geo.example.com', ['10.2.0.2'], { setIdentifier: 'de', geoLocation: { countryCode: 'DE' } }),
  a('geo.example.com', ['10.2.0.3'], { setIdentifier: 'eu', geoLocation: { continentCode: 'EU' } }),
  a('geo.example.com', ['10.2.0.4'], { setIdentifier: 'default', geoLocation: { countryCode: '*' } }),
  a('geo-nodefault.example.com', ['10.3.0.1'], { setIdentifier: 'de', geoLocation: { countryCode: 'DE' } }),
  ...Array.from({ length: 10 }, (_, i) =>
    a('multi.example.com', [`10.4.0.${i + 1}`], {
      ttl: 0,
      setIdentifier: `m${i + 1}`,
      multiValueAnswer: true,
    }),
  ),
  a('cidr.example.com', ['10.5.0.1'], {
    setIdentifier: 'office',
    cidrRoutingConfig: { collectionId: 'c-offices', locationName: 'office' },
  }),
  a('cidr.example.com', ['10.5.0.2'], {
    setIdentifier: 'lab',
    cidrRoutingConfig: { collectionId: 'c-offices', locationName: 'lab' },
  }),
  a('cidr.example.com', ['10.5.0.4'], {
    setIdentifier: 'tokyo',
    cidrRoutingConfig: { collectionId: 'c-offices', locationName: 'tokyo' },
  }),
  a('cidr.example.com', ['10.5.0.3'], {
    setIdentifier: 'default',
    cidrRoutingConfig: { collectionId: 'c-offices', locationName: '*' },
  }),
  a('cidr-nodefault.example.com', ['10.5.1.1'], {
    setIdentifier: 'office',
    cidrRoutingConfig: { collectionId: 'c-offices', locationName: 'office' },
  }),
  a('failover.example.com', ['10.6.0.1'], { setIdentifier: 'primary', failover: 'PRIMARY' }),
  a('failover.example.com', ['10.6.0.2'], { setIdentifier: 'secondary', failover: 'SECONDARY' }),
  a('secondary-only.example.com', ['10.6.1.2'], { setIdentifier: 'secondary', failover: 'SECONDARY' }),
  {
    name: 'alias.example.com',
    type: 'A',
    values: [],
    aliasTarget: { hostedZoneId: 'Z1', dnsName: 'simple.example.com.', evaluateTargetHealth: false },
  },
  // The primary is an alias to a name with no A records and evaluates target health: Route 53 answers the secondary.
  {
    name: 'fo-alias.example.com',
    type: 'A',
    setIdentifier: 'primary',
    failover: 'PRIMARY',
    values: [],
    aliasTarget: { hostedZoneId: 'Z1', dnsName: 'v6only.example.com', evaluateTargetHealth: true },
  },
  a('fo-alias.example.com', ['10.7.0.2'], { setIdentifier: 'secondary', failover: 'SECONDARY' }),
  { name: 'v6only.example.com', type: 'AAAA', ttl: 60, values: ['2001:db8::6'] },
  { name: 'www.example.com', type: 'CNAME', ttl: 300, values: ['web.example.com'] },
  { name: 'web.example.com', type: 'CNAME', ttl: 200, values: ['simple.example.com'] },
  { name: 'dangling.example.com', type: 'CNAME', ttl: 300, values: ['missing.example.com'] },
  { name: 'outside.example.com', type: 'CNAME', ttl: 300, values: ['target.example.net'] },
  { name: 'loop1.example.com', type: 'CNAME', ttl: 300, values: ['loop2.example.com'] },
  { name: 'loop2.example.com', type: 'CNAME', ttl: 300, values: ['loop1.example.com'] },
  a('deep.under.example.com', ['10.8.0.1']),
  a(
    'big.example.com',
    Array.from({ length: BIG_ANSWER_SIZE }, (_, i) => `10.9.${Math.floor(i / 250)}.${(i % 250) + 1}`),
  ),
];

export const TEST_ZONE: ZoneSnapshot = { hostedZoneId: 'Z1', zoneName: 'example.com', records };
export const testZones = (): ZoneReader => inMemoryZones([TEST_ZONE], [CIDR_COLLECTION]);

export interface DigRecord {
  readonly name: string;
  readonly ttl: number;
  readonly type: string;
  readonly data: string;
}

export interface DigResult {
  readonly status: string;
  readonly flags: readonly string[];
  readonly answers: readonly DigRecord[];
  readonly authority: readonly DigRecord[];
  /** `192.0.2.0/24/24` (address/source/scope) when the response echoed ECS. */
  readonly clientSubnet?: string;
  readonly transport?: string;
  readonly raw: string;
}

function sectionRecords(output: string, section: string): DigRecord[] {
  const start = output.indexOf(`;; ${section} SECTION:`);
  if (start < 0) return [];
  const lines = output.slice(start).split('\n').slice(1);
  const out: DigRecord[] = [];
  for (const line of lines) {
    if (line.trim() === '' || line.startsWith(';')) break;
    const [name = '', ttl = '0', , type = '', ...data] = line.split(/\s+/);
    out.push({
      name: name.replace(/\.$/, ''),
      ttl: Number(ttl),
      type,
      data: data.join(' ').replace(/\.$/, ''),
    });
  }
  return out;
}

export function parseDig(raw: string): DigResult {
  return {
    status: /status: (\w+)/.exec(raw)?.[1] ?? 'NO-RESPONSE',
    flags: (/;; flags: ([^;]*);/.exec(raw)?.[1] ?? '').trim().split(/\s+/).filter(Boolean),
    answers: sectionRecords(raw, 'ANSWER'),
    authority: sectionRecords(raw, 'AUTHORITY'),
    clientSubnet: /CLIENT-SUBNET: (\S+)/.exec(raw)?.[1],
    transport: /;; SERVER: .*\((UDP|TCP)\)/.exec(raw)?.[1],
    raw,
  };
}

/** Runs `dig @127.0.0.1 -p PORT …` (one try, 2 s timeout) and parses its output. */
export function dig(port: number, args: readonly string[]): Promise<DigResult> {
  return new Promise((resolve, reject) => {
    execFile(
      DIG,
      ['@127.0.0.1', '-p', String(port), '+tries=1', '+time=2', ...args],
      { timeout: 5_000 },
      (error, stdout) => {
        // dig exits 9 when no server answered; the parsed status then says NO-RESPONSE.
        if (error && typeof error.code !== 'number') reject(error);
        else resolve(parseDig(stdout));
      },
    );
  });
}

/**
 * The A addresses `name` answers, asked with Node's own resolver (c-ares) inside this process:
 * for loops that poll an answer many times a second, where a dig process costs about 15 ms of
 * CPU each (one file of 16-query polls started 4,912 of them). What the loop settles on is then
 * confirmed with dig. No answer (NXDOMAIN, no data, no response) reads as none, as with dig.
 * A fresh channel per query: c-ares caches answers per channel.
 */
export async function addressesOf(port: number, name: string): Promise<string[]> {
  const resolver = new dns.Resolver({ timeout: 2_000, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  return resolver.resolve4(name).catch((error: NodeJS.ErrnoException) => {
    if (typeof error.code === 'string') return [];
    throw error;
  });
}
