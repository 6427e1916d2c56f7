/** The local DNS server queried with dig (Debian dnsutils) over UDP and TCP on loopback. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServer } from '../../infra/local/dns/index.js';
import {
  BIG_ANSWER_SIZE,
  dig,
  digAvailable,
  seededRandom,
  testZones,
  type DigResult,
} from './dns-fixtures.js';

interface DigRow {
  readonly name: string;
  readonly args: readonly string[];
  readonly status: 'NOERROR' | 'NXDOMAIN' | 'REFUSED';
  /** Exactly these answer records, as `owner TTL TYPE data`, in any order. */
  readonly answers?: readonly string[];
  /** One answer record, one of these `owner TTL TYPE data`. */
  readonly oneOf?: readonly string[];
  /** The SOA in the authority section (negative answers). */
  readonly soa?: boolean;
  /** The echoed EDNS Client Subnet as dig prints it: address/source/scope. */
  readonly clientSubnet?: string;
}

const rows: readonly DigRow[] = [
  {
    name: 'simple: every value of the record, with the record TTL',
    args: ['simple.example.com', 'A'],
    status: 'NOERROR',
    answers: ['simple.example.com 60 A 192.0.2.1', 'simple.example.com 60 A 192.0.2.2'],
  },
  {
    name: 'simple AAAA: the AAAA record with its own TTL',
    args: ['simple.example.com', 'AAAA'],
    status: 'NOERROR',
    answers: ['simple.example.com 120 AAAA 2001:db8::1'],
  },
  {
    name: 'weighted: one record with a weight, never the weight-0 one',
    args: ['weighted.example.com', 'A'],
    status: 'NOERROR',
    oneOf: ['weighted.example.com 0 A 10.0.0.1', 'weighted.example.com 0 A 10.0.0.2'],
  },
  {
    name: 'weighted: weight-0 records are served when all weights are 0',
    args: ['zero.example.com', 'A'],
    status: 'NOERROR',
    oneOf: ['zero.example.com 0 A 10.0.1.1', 'zero.example.com 0 A 10.0.1.2'],
  },
  {
    name: 'latency: the record in the client region (192.0.2.0/24 → eu-central-1)',
    args: ['latency.example.com', 'A', '+subnet=192.0.2.1/32'],
    status: 'NOERROR',
    answers: ['latency.example.com 60 A 10.1.0.2'],
    clientSubnet: '192.0.2.1/32/24',
  },
  {
    name: 'latency: the nearest region when none is the client region (ap-northeast-1 → ap-southeast-1)',
    args: ['latency.example.com', 'A', '+subnet=198.51.100.1/32'],
    status: 'NOERROR',
    answers: ['latency.example.com 60 A 10.1.0.3'],
  },
  {
    name: 'latency: nearest region for an IPv6 client (eu-west-2 → eu-central-1)',
    args: ['latency.example.com', 'A', '+subnet=2001:db8::1/128'],
    status: 'NOERROR',
    answers: ['latency.example.com 60 A 10.1.0.2'],
    clientSubnet: '2001:db8::1/128/32',
  },
  {
    name: 'latency: without ECS the source address (127.0.0.1 → us-east-1)',
    args: ['latency.example.com', 'A'],
    status: 'NOERROR',
    answers: ['latency.example.com 60 A 10.1.0.1'],
  },
  {
    name: 'geolocation: subdivision wins (US-CA)',
    args: ['geo.example.com', 'A', '+subnet=203.0.113.5/32'],
    status: 'NOERROR',
    answers: ['geo.example.com 60 A 10.2.0.1'],
    clientSubnet: '203.0.113.5/32/24',
  },
  {
    name: 'geolocation: country wins over continent (DE)',
    args: ['geo.example.com', 'A', '+subnet=192.0.2.1/24'],
    status: 'NOERROR',
    answers: ['geo.example.com 60 A 10.2.0.2'],
    clientSubnet: '192.0.2.0/24/24',
  },
  {
    name: 'geolocation: continent when the country has no record (GB → EU)',
    args: ['geo.example.com', 'A', '+subnet=2001:db8::1/128'],
    status: 'NOERROR',
    answers: ['geo.example.com 60 A 10.2.0.3'],
  },
  {
    name: 'geolocation: the * record when nothing else matches (JP)',
    args: ['geo.example.com', 'A', '+subnet=198.51.100.1/32'],
    status: 'NOERROR',
    answers: ['geo.example.com 60 A 10.2.0.4'],
  },
  {
    name: 'geolocation: no match and no * record → NOERROR with no answer',
    args: ['geo-nodefault.example.com', 'A', '+subnet=198.51.100.1/32'],
    status: 'NOERROR',
    answers: [],
    soa: true,
  },
  {
    name: 'CIDR: the longest prefix wins (/25 inside /24)',
    args: ['cidr.example.com', 'A', '+subnet=192.0.2.200/32'],
    status: 'NOERROR',
    answers: ['cidr.example.com 60 A 10.5.0.2'],
    clientSubnet: '192.0.2.200/32/25',
  },
  {
    name: 'CIDR: the /24 answer is scoped to the half without the /25',
    args: ['cidr.example.com', 'A', '+subnet=192.0.2.7/32'],
    status: 'NOERROR',
    answers: ['cidr.example.com 60 A 10.5.0.1'],
    clientSubnet: '192.0.2.7/32/25',
  },
  {
    name: 'CIDR: IPv6 blocks match IPv6 clients',
    args: ['cidr.example.com', 'A', '+subnet=2001:db8:1::5/128'],
    status: 'NOERROR',
    answers: ['cidr.example.com 60 A 10.5.0.4'],
    clientSubnet: '2001:db8:1::5/128/48',
  },
  {
    name: 'CIDR: the * location when no block matches',
    args: ['cidr.example.com', 'A', '+subnet=198.51.100.1/32'],
    status: 'NOERROR',
    answers: ['cidr.example.com 60 A 10.5.0.3'],
    clientSubnet: '198.51.100.1/32/6',
  },
  {
    name: 'CIDR: no block and no * location → NOERROR with no answer',
    args: ['cidr-nodefault.example.com', 'A', '+subnet=198.51.100.1/32'],
    status: 'NOERROR',
    answers: [],
    soa: true,
  },
  {
    name: 'failover: PRIMARY when it is there',
    args: ['failover.example.com', 'A'],
    status: 'NOERROR',
    answers: ['failover.example.com 60 A 10.6.0.1'],
  },
  {
    name: 'failover: SECONDARY when there is no PRIMARY',
    args: ['secondary-only.example.com', 'A'],
    status: 'NOERROR',
    answers: ['secondary-only.example.com 60 A 10.6.1.2'],
  },
  {
    name: 'failover: SECONDARY when the PRIMARY alias evaluates target health and its target answers nothing',
    args: ['fo-alias.example.com', 'A'],
    status: 'NOERROR',
    answers: ['fo-alias.example.com 60 A 10.7.0.2'],
  },
  {
    name: 'alias: the target records under the query name, with the target TTL',
    args: ['alias.example.com', 'A'],
    status: 'NOERROR',
    answers: ['alias.example.com 60 A 192.0.2.1', 'alias.example.com 60 A 192.0.2.2'],
  },
  {
    name: 'CNAME chain within the zone: every link, then the addresses',
    args: ['www.example.com', 'A'],
    status: 'NOERROR',
    answers: [
      'www.example.com 300 CNAME web.example.com',
      'web.example.com 200 CNAME simple.example.com',
      'simple.example.com 60 A 192.0.2.1',
      'simple.example.com 60 A 192.0.2.2',
    ],
  },
  {
    name: 'CNAME query: only the CNAME, not followed',
    args: ['www.example.com', 'CNAME'],
    status: 'NOERROR',
    answers: ['www.example.com 300 CNAME web.example.com'],
  },
  {
    name: 'CNAME to a missing name in the zone → NXDOMAIN with the CNAME',
    args: ['dangling.example.com', 'A'],
    status: 'NXDOMAIN',
    answers: ['dangling.example.com 300 CNAME missing.example.com'],
    soa: true,
  },
  {
    name: 'CNAME out of the zone: the CNAME alone, for the resolver to follow',
    args: ['outside.example.com', 'A'],
    status: 'NOERROR',
    answers: ['outside.example.com 300 CNAME target.example.net'],
  },
  {
    name: 'NXDOMAIN for a name with no records, with the SOA',
    args: ['nope.example.com', 'A'],
    status: 'NXDOMAIN',
    answers: [],
    soa: true,
  },
  {
    name: 'NODATA (NOERROR, no answer, SOA) for another type at an existing name',
    args: ['simple.example.com', 'MX'],
    status: 'NOERROR',
    answers: [],
    soa: true,
  },
  {
    name: 'NODATA for an empty non-terminal',
    args: ['under.example.com', 'A'],
    status: 'NOERROR',
    answers: [],
    soa: true,
  },
  {
    name: 'SOA at the apex: Route 53’s default SOA (TTL 900, minimum 86400, awsdns names)',
    args: ['example.com', 'SOA'],
    status: 'NOERROR',
    answers: [
      'example.com 900 SOA ns-1536.awsdns-00.co.uk. awsdns-hostmaster.amazon.com. 1 7200 900 1209600 86400',
    ],
  },
  {
    name: 'REFUSED for a name outside every zone',
    args: ['example.org', 'A'],
    status: 'REFUSED',
    answers: [],
  },
  {
    name: 'ECS echoed with scope 0 when the answer does not depend on the client',
    args: ['simple.example.com', 'A', '+subnet=192.0.2.0/24'],
    status: 'NOERROR',
    clientSubnet: '192.0.2.0/24/0',
  },
  {
    name: 'query names are case-insensitive',
    args: ['SIMPLE.Example.COM', 'A'],
    status: 'NOERROR',
    answers: ['SIMPLE.Example.COM 60 A 192.0.2.1', 'SIMPLE.Example.COM 60 A 192.0.2.2'],
  },
];

/** Every row runs over UDP; these (one per kind of answer) over TCP too, to keep the run short. */
const TCP_ROWS = [
  'simple:',
  'geolocation: country',
  'CIDR: the longest',
  'CNAME chain',
  'NXDOMAIN',
  'NODATA (',
  'REFUSED',
];

const asLine = (record: DigResult['answers'][number]): string =>
  `${record.name} ${record.ttl} ${record.type} ${record.data}`;

describe.skipIf(!digAvailable)(
  digAvailable
    ? 'local DNS server, queried with dig'
    : 'local DNS server, queried with dig — SKIPPED: /usr/bin/dig is missing (apt-get install dnsutils)',
  () => {
    let server: DnsServer;

    beforeAll(async () => {
      server = await startDnsServer({ zones: testZones(), port: 0, random: seededRandom(7) });
    });
    afterAll(async () => {
      await server?.stop();
    });

    describe.each([
      { transport: 'UDP' as const, table: rows },
      {
        transport: 'TCP' as const,
        table: rows.filter((row) => TCP_ROWS.some((prefix) => row.name.startsWith(prefix))),
      },
    ])('over $transport', ({ transport, table }) => {
      it.concurrent.each(table)('$name', async (row) => {
        // Act
        const result = await dig(server.port, [
          ...row.args,
          '+norecurse',
          ...(transport === 'TCP' ? ['+tcp'] : []),
        ]);

        // Assess
        expect(result.status, result.raw).toBe(row.status);
        expect(result.transport).toBe(transport);
        if (row.status === 'REFUSED') expect(result.flags).not.toContain('aa');
        else expect(result.flags).toContain('aa');
        if (row.answers) expect(result.answers.map(asLine).sort()).toEqual([...row.answers].sort());
        if (row.oneOf) {
          expect(result.answers).toHaveLength(1);
          expect(row.oneOf).toContain(asLine(result.answers[0] as DigResult['answers'][number]));
        }
        if (row.soa !== undefined) {
          expect(result.authority.map((record) => `${record.type} ${record.ttl}`)).toEqual(
            // Negative answers cache for min(SOA TTL, SOA minimum) = 900 s, as with Route 53 (RFC 2308 §5).
            row.soa ? ['SOA 900'] : [],
          );
        }
        if (row.clientSubnet) expect(result.clientSubnet).toBe(row.clientSubnet);
      });
    });

    it('multivalue: at most 8 of the records, all values, in a random choice', async () => {
      // Act
      const results = await Promise.all(
        Array.from({ length: 6 }, () => dig(server.port, ['multi.example.com', 'A', '+norecurse'])),
      );

      // Assess
      const all = Array.from({ length: 10 }, (_, i) => `10.4.0.${i + 1}`);
      for (const result of results) {
        expect(result.answers).toHaveLength(8);
        expect(new Set(result.answers.map((record) => record.data)).size).toBe(8);
        for (const record of result.answers) expect(all).toContain(record.data);
      }
      expect(
        new Set(results.map((result) => result.answers.map((record) => record.data).join(','))).size,
      ).toBeGreaterThan(1);
    });

    it('an answer too big for a plain UDP reply is truncated (TC), then whole over TCP', async () => {
      // Act
      const udp = await dig(server.port, ['big.example.com', 'A', '+norecurse', '+noedns', '+ignore']);
      const tcp = await dig(server.port, ['big.example.com', 'A', '+norecurse', '+tcp']);

      // Assess
      expect(udp.flags).toContain('tc');
      expect(udp.answers).toHaveLength(0);
      expect(tcp.flags).not.toContain('tc');
      expect(tcp.answers).toHaveLength(BIG_ANSWER_SIZE);
    });

    it('a CNAME loop in the zone ends after a bounded number of links', async () => {
      // Act
      const result = await dig(server.port, ['loop1.example.com', 'A', '+norecurse']);

      // Assess
      expect(result.status).toBe('NOERROR');
      expect(result.answers.length).toBeGreaterThan(1);
      expect(result.answers.length).toBeLessThanOrEqual(9);
      expect(result.answers.every((record) => record.type === 'CNAME')).toBe(true);
    });
  },
);
