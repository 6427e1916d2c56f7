/** The local DNS server queried with Node's own resolver (c-ares), and its socket behaviour. */
import { createSocket } from 'node:dgram';
import { promises as dns } from 'node:dns';
import { connect } from 'node:net';
import * as dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DnsPortInUseError, startDnsServer, type DnsServer } from '../../infra/local/dns/index.js';
import { BIG_ANSWER_SIZE, seededRandom, testZones } from './dns-fixtures.js';

let server: DnsServer;

beforeAll(async () => {
  server = await startDnsServer({ zones: testZones(), port: 0, random: seededRandom(42) });
});
afterAll(async () => {
  await server?.stop();
});

/** A fresh resolver per query: c-ares caches answers per channel, and these tests want every answer anew. */
function resolver(): dns.Resolver {
  const fresh = new dns.Resolver({ timeout: 2_000, tries: 1 });
  fresh.setServers([`127.0.0.1:${server.port}`]);
  return fresh;
}

const addressesOf = async (name: string): Promise<string[]> => (await resolver().resolve4(name)).sort();
const errorCodeOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 'resolved',
    (error: NodeJS.ErrnoException) => error.code,
  );

describe('local DNS server, queried with Node’s resolver', () => {
  it.each([
    { name: 'simple: every value', query: 'simple.example.com', addresses: ['192.0.2.1', '192.0.2.2'] },
    {
      name: 'latency: the source address 127.0.0.1 is in us-east-1',
      query: 'latency.example.com',
      addresses: ['10.1.0.1'],
    },
    {
      name: 'geolocation: a US client without subdivision and no US/NA record gets *',
      query: 'geo.example.com',
      addresses: ['10.2.0.4'],
    },
    {
      name: 'CIDR: a loopback client matches no block and gets the * location',
      query: 'cidr.example.com',
      addresses: ['10.5.0.3'],
    },
    { name: 'failover: PRIMARY', query: 'failover.example.com', addresses: ['10.6.0.1'] },
    {
      name: 'failover: SECONDARY when the PRIMARY alias target answers nothing',
      query: 'fo-alias.example.com',
      addresses: ['10.7.0.2'],
    },
    {
      name: 'alias: the target addresses',
      query: 'alias.example.com',
      addresses: ['192.0.2.1', '192.0.2.2'],
    },
    {
      name: 'CNAME chain: the addresses at its end',
      query: 'www.example.com',
      addresses: ['192.0.2.1', '192.0.2.2'],
    },
  ])('$name', async ({ query, addresses }) => {
    // Act
    const answer = await addressesOf(query);

    // Assess
    expect(answer).toEqual(addresses);
  });

  it.each([
    {
      name: 'NXDOMAIN for a name with no records',
      query: () => resolver().resolve4('nope.example.com'),
      code: 'ENOTFOUND',
    },
    {
      name: 'NODATA for another type at an existing name',
      query: () => resolver().resolve6('failover.example.com'),
      code: 'ENODATA',
    },
    {
      name: 'NODATA when geolocation matches nothing',
      query: () => resolver().resolve4('geo-nodefault.example.com'),
      code: 'ENODATA',
    },
    {
      name: 'REFUSED for a name outside every zone',
      query: () => resolver().resolve4('example.org'),
      code: 'EREFUSED',
    },
  ])('$name', async ({ query, code }) => {
    // Act
    const outcome = await errorCodeOf(query());

    // Assess
    expect(outcome).toBe(code);
  });

  it('TTLs come from the records (AAAA 120 s, alias → the target’s 60 s)', async () => {
    // Act
    const v6 = await resolver().resolve6('simple.example.com', { ttl: true });
    const alias = await resolver().resolve4('alias.example.com', { ttl: true });

    // Assess
    expect(v6).toEqual([{ address: '2001:db8::1', ttl: 120 }]);
    expect(alias.map((record) => record.ttl)).toEqual([60, 60]);
  });

  it('CNAME: resolveCname gets the first link', async () => {
    expect(await resolver().resolveCname('www.example.com')).toEqual(['web.example.com']);
  });

  it('weighted: 200 answers split about 3:1 by weight, the weight-0 record never', async () => {
    // Act
    const answers = await Promise.all(Array.from({ length: 200 }, () => addressesOf('weighted.example.com')));

    // Assess
    const counts = new Map<string, number>();
    for (const [address] of answers) counts.set(address ?? '', (counts.get(address ?? '') ?? 0) + 1);
    expect(answers.every((answer) => answer.length === 1)).toBe(true);
    expect(counts.get('10.0.0.3')).toBeUndefined();
    // Expected 150 : 50; the bound is about 5 standard deviations wide.
    expect(counts.get('10.0.0.1')).toBeGreaterThanOrEqual(120);
    expect(counts.get('10.0.0.1')).toBeLessThanOrEqual(180);
    expect((counts.get('10.0.0.1') ?? 0) + (counts.get('10.0.0.2') ?? 0)).toBe(200);
  });

  it('weighted: when every weight is 0 all records are served', async () => {
    // Act
    const answers = await Promise.all(Array.from({ length: 40 }, () => addressesOf('zero.example.com')));

    // Assess
    expect(new Set(answers.flat())).toEqual(new Set(['10.0.1.1', '10.0.1.2']));
  });

  it('multivalue: 8 of the 10 records, a different choice from query to query', async () => {
    // Act
    const answers = await Promise.all(Array.from({ length: 10 }, () => addressesOf('multi.example.com')));

    // Assess
    for (const answer of answers) expect(new Set(answer).size).toBe(8);
    expect(new Set(answers.map((answer) => answer.join(','))).size).toBeGreaterThan(1);
  });

  it('an answer too big for UDP reaches the resolver whole (truncated, then retried over TCP)', async () => {
    expect(await resolver().resolve4('big.example.com')).toHaveLength(BIG_ANSWER_SIZE);
  });
});

describe('local DNS server sockets', () => {
  it('answers two length-prefixed queries sent in one TCP segment', async () => {
    // Prepare
    const queries = [1, 2].map((id) =>
      dnsPacket.streamEncode({ id, type: 'query', questions: [{ name: 'failover.example.com', type: 'A' }] }),
    );
    const socket = connect(server.port, '127.0.0.1');
    const received: Buffer[] = [];

    // Act
    const all = await new Promise<Buffer>((resolve, reject) => {
      socket.on('error', reject);
      socket.on('data', (chunk: Buffer) => {
        received.push(chunk);
        const buffer = Buffer.concat(received);
        const first = buffer.length >= 2 ? buffer.readUInt16BE(0) + 2 : Infinity;
        if (buffer.length >= first + 2 && buffer.length >= first + 2 + buffer.readUInt16BE(first))
          resolve(buffer);
      });
      socket.write(Buffer.concat(queries));
    });
    socket.destroy();

    // Assess
    const first = dnsPacket.decode(all.subarray(2, 2 + all.readUInt16BE(0)));
    const rest = all.subarray(2 + all.readUInt16BE(0));
    const second = dnsPacket.decode(rest.subarray(2, 2 + rest.readUInt16BE(0)));
    expect([first.id, second.id]).toEqual([1, 2]);
    expect(first.answers?.map((answer) => (answer.type === 'A' ? answer.data : answer.type))).toEqual([
      '10.6.0.1',
    ]);
    expect(second.flag_aa).toBe(true);
  });

  it('answers a malformed UDP message with FORMERR', async () => {
    // Prepare
    const socket = createSocket('udp4');

    // Act
    const reply = await new Promise<Buffer>((resolve) => {
      socket.on('message', (message) => resolve(message));
      socket.send(Buffer.from([0xab, 0xcd, 0x01, 0x00, 0x00, 0x05]), server.port, '127.0.0.1');
    });
    socket.close();

    // Assess
    expect(reply.readUInt16BE(0)).toBe(0xabcd);
    expect(reply.readUInt16BE(2) & 0x000f).toBe(1);
  });

  it('a taken port fails with DnsPortInUseError naming the port and --dns-port', async () => {
    // Act
    const attempt = startDnsServer({ zones: testZones(), port: server.port });

    // Assess
    await expect(attempt).rejects.toBeInstanceOf(DnsPortInUseError);
    await expect(attempt).rejects.toThrow(new RegExp(`127\\.0\\.0\\.1:${server.port}.*--dns-port`));
  });

  it('a port whose UDP side alone is taken fails the same way, and leaves no TCP listener behind', async () => {
    // Prepare
    const squatter = createSocket('udp4');
    await new Promise<void>((resolve) => squatter.bind(0, '127.0.0.1', () => resolve()));
    const port = squatter.address().port;

    // Act
    const attempt = startDnsServer({ zones: testZones(), port });

    // Assess
    await expect(attempt).rejects.toBeInstanceOf(DnsPortInUseError);
    squatter.close();
    const retry = await startDnsServer({ zones: testZones(), port });
    expect(retry.port).toBe(port);
    await retry.stop();
  });
});
