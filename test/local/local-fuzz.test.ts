/**
 * Bounded fuzzing of every server the local stack runs (fast-check): the local Route 53, the
 * demo control port and a demo backend get generated HTTP request lines, headers and bodies as
 * raw bytes; the DNS server gets random and mutated messages over UDP and TCP. Every input is
 * answered (HTTP in the service's error shape; DNS with a response or nothing), no rejection goes
 * unhandled, and each server still serves a normal request afterwards. A failure prints the seed.
 */
import { ListHostedZonesByNameCommand, Route53Client } from '@aws-sdk/client-route-53';
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import * as dnsPacket from 'dns-packet';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoBackends, type DemoBackends } from '../../infra/local/demo.js';
import { startDnsServer, type DnsServer } from '../../infra/local/dns/index.js';
import { startLocalRoute53, type LocalRoute53 } from '../../infra/local/route53/server.js';
import { testZones } from './dns-fixtures.js';
import { rawRequest } from '../support/raw-http.js';

const RUNS = { http: 300, udp: 400, tcp: 100 };
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
const SIGNED =
  'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/route53/aws4_request, SignedHeaders=host;x-amz-date, Signature=' +
  '0'.repeat(64);

let route53: LocalRoute53;
let demo: DemoBackends;
/** How many times a demo backend went up or down (what `tm local` logs). */
let demoChanges = 0;
let dns: DnsServer;
let route53Port: number;
let controlPort: number;

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  route53 = await startLocalRoute53();
  route53.createHostedZone('example.com');
  route53Port = Number(new URL(route53.endpoint).port);
  demo = await startDemoBackends(() => demoChanges++);
  controlPort = Number(new URL(demo.controlUrl).port);
  dns = await startDnsServer({ zones: testZones(), port: 0 });
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await Promise.all([route53.stop(), demo.stop(), dns.stop()]);
});

// --- HTTP ---------------------------------------------------------------------------------

const token = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,12}$/);
const method = fc.oneof(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH'), token);
const target = fc.oneof(
  fc.constantFrom(
    '/',
    '/2013-04-01/hostedzone',
    '/2013-04-01/hostedzone/Z1/rrset',
    '/2013-04-01/hostedzonesbyname?maxitems=abc',
    '/2013-04-01/change/%E0%A4%A',
    '/toggle/east',
    '/down/west',
    'http://[::1',
    'http://[::1]:80/2013-04-01/hostedzone',
    'http://evil.example/2013-04-01/hostedzone',
    '*',
    '//',
  ),
  fc.string({ maxLength: 200 }).map((s) => `/${encodeURI(s)}`),
  fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((s) => s.replace(/[\r\n ]/g, '')),
);
const version = fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9', 'HTTX', '');
const header = fc.oneof(
  fc.tuple(fc.constantFrom('Origin'), fc.constantFrom('null', 'http://evil.example')),
  fc.tuple(fc.constantFrom('Authorization'), fc.oneof(fc.constant(SIGNED), fc.string({ maxLength: 80 }))),
  fc.tuple(fc.constantFrom('X-TM-Control'), fc.constantFrom('1', '')),
  fc.tuple(fc.constantFrom('Content-Length'), fc.oneof(fc.nat().map(String), fc.string({ maxLength: 6 }))),
  fc.tuple(fc.constantFrom('Transfer-Encoding'), fc.constantFrom('chunked', 'gzip, chunked', 'x')),
  fc.tuple(fc.constantFrom('Content-Type'), fc.constantFrom('text/plain', 'text/xml', 'application/json')),
  fc.tuple(fc.constantFrom('Sec-Fetch-Site'), fc.constantFrom('cross-site', 'same-origin')),
  fc.tuple(
    token,
    fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, ' ')),
  ),
  fc.tuple(
    fc.constantFrom('X-Big'),
    fc.integer({ min: 1, max: 40_000 }).map((n) => 'x'.repeat(n)),
  ),
);
const body = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 400 }),
  fc.constantFrom(
    '<ChangeResourceRecordSetsRequest><ChangeBatch><Changes><Change><Action>CREATE</Action></Change></Changes></ChangeBatch></ChangeResourceRecordSetsRequest>',
    '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]><x>&a;&a;&a;</x>',
    '<'.repeat(2_000),
    '0\r\n\r\n',
    'zz\r\nnot chunked\r\n',
  ),
);
const request = fc
  .record({
    method,
    target,
    version,
    headers: fc.array(header, { maxLength: 6 }),
    body,
    withHost: fc.boolean(),
  })
  .map(({ method, target, version, headers, body, withHost }) => ({
    text:
      `${method} ${target} ${version}\r\n` +
      (withHost ? 'Host: 127.0.0.1\r\n' : '') +
      headers.map(([name, value]) => `${name}: ${value}\r\n`).join('') +
      'Connection: close\r\n\r\n' +
      body,
  }));

async function route53Serves(): Promise<void> {
  const client = new Route53Client({
    endpoint: route53.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const zones = await client.send(new ListHostedZonesByNameCommand({}));
  client.destroy();
  expect(zones.HostedZones?.map((z) => z.Name)).toEqual(['example.com.']);
}

describe('HTTP fuzzing', () => {
  it(`the local Route 53 answers ${RUNS.http} generated requests in its error shape and keeps serving`, async () => {
    await fc.assert(
      fc.asyncProperty(request, async ({ text }) => {
        const reply = await rawRequest(route53Port, text, 5_000);
        if (reply.status >= 400 && reply.body.length > 0) expect(reply.body).toContain('<ErrorResponse');
        expect(reply.status === 0 || reply.status < 600).toBe(true);
      }),
      { numRuns: RUNS.http },
    );
    await route53Serves();
    expect(unhandled).toEqual([]);
  });

  it(`the demo control port and a demo backend answer ${RUNS.http} generated requests and keep serving`, async () => {
    await fc.assert(
      fc.asyncProperty(request, fc.boolean(), async ({ text }, toBackend) => {
        const before = demoChanges;
        const port = toBackend ? demo.port : controlPort;
        const host = toBackend ? '127.0.0.11' : '127.0.0.1';
        const reply = await rawRequestTo(host, port, text);
        expect(reply === 'closed' || reply < 600).toBe(true);
        // A request with an Origin or a Sec-Fetch header never changes a backend.
        if (/^(Origin|Sec-Fetch-Site):/im.test(text)) expect(demoChanges).toBe(before);
      }),
      { numRuns: RUNS.http },
    );
    const health = await rawRequestTo('127.0.0.12', demo.port, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(health === 200 || health === 503).toBe(true);
    expect(unhandled).toEqual([]);
  });
});

/** The status of the reply (or `closed`), from a server on any loopback address. */
function rawRequestTo(host: string, port: number, text: string): Promise<number | 'closed'> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let data = '';
    const timer = setTimeout(() => socket.destroy(), 5_000);
    socket.on('connect', () => socket.end(text));
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(data)?.[1];
      resolve(status === undefined ? 'closed' : Number(status));
    });
  });
}

// --- DNS ----------------------------------------------------------------------------------

const validQuery = fc
  .record({
    id: fc.integer({ min: 0, max: 0xffff }),
    name: fc.constantFrom(
      'simple.example.com',
      'weighted.example.com',
      'nope.example.com',
      'example.org',
      'a.b',
    ),
    type: fc.constantFrom('A', 'AAAA', 'CNAME', 'ANY', 'SOA', 'TXT', 'MX'),
    ecs: fc.option(
      fc.record({
        family: fc.constantFrom(1, 2, 3),
        source: fc.integer({ min: 0, max: 140 }),
        scope: fc.integer({ min: 0, max: 3 }),
        address: fc.uint8Array({ maxLength: 18 }),
      }),
    ),
  })
  .map(({ id, name, type, ecs }) =>
    dnsPacket.encode({
      id,
      type: 'query',
      questions: [{ name, type: type as dnsPacket.RecordType }],
      additionals: [
        {
          name: '.',
          type: 'OPT',
          udpPayloadSize: 1232,
          flags: 0,
          options:
            ecs === null
              ? []
              : [
                  {
                    code: 8,
                    data: Buffer.from([0, ecs.family, ecs.source, ecs.scope, ...ecs.address]),
                  } as unknown as dnsPacket.PacketOpt,
                ],
        } as dnsPacket.Answer,
      ],
    }),
  );
/** A valid query with bytes flipped, cut short or extended; or plain random bytes. */
const dnsMessage = fc.oneof(
  validQuery,
  fc
    .tuple(validQuery, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }))
    .map(([query, flips]) => {
      const copy = Buffer.from(query);
      for (const [at, value] of flips) copy[at % copy.length] = value;
      return copy;
    }),
  fc.tuple(validQuery, fc.nat()).map(([query, cut]) => query.subarray(0, cut % (query.length + 1))),
  fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes)),
);

function udpOnce(message: Buffer): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    const timer = setTimeout(() => {
      socket.close();
      resolve(undefined);
    }, 150);
    socket.on('message', (reply) => {
      clearTimeout(timer);
      socket.close();
      resolve(reply);
    });
    socket.send(message, dns.port, '127.0.0.1');
  });
}

async function dnsAnswersOverUdp(): Promise<void> {
  const reply = await udpOnce(
    dnsPacket.encode({ id: 4242, type: 'query', questions: [{ name: 'simple.example.com', type: 'A' }] }),
  );
  expect(reply && dnsPacket.decode(reply).id).toBe(4242);
}

describe('DNS fuzzing', () => {
  it(`UDP: ${RUNS.udp} random and mutated messages, each answered with a response or dropped`, async () => {
    await fc.assert(
      fc.asyncProperty(dnsMessage, async (message) => {
        const reply = await udpOnce(message);
        if (reply !== undefined && message.length >= 2) {
          expect(reply.readUInt16BE(0)).toBe(message.readUInt16BE(0)); // the id echoed
          expect(reply[2]! & 0x80).toBe(0x80); // QR: a response
        }
      }),
      { numRuns: RUNS.udp },
    );
    await dnsAnswersOverUdp();
  });

  it(`TCP: ${RUNS.tcp} connections of framed, misframed and random bytes; the server keeps answering`, async () => {
    const stream = fc.array(
      fc.oneof(
        dnsMessage.map((m) => Buffer.concat([Buffer.from([m.length >> 8, m.length & 0xff]), m])),
        dnsMessage,
        fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b)),
      ),
      { minLength: 1, maxLength: 5 },
    );
    await fc.assert(
      fc.asyncProperty(stream, async (parts) => {
        await new Promise<void>((resolve) => {
          const socket = connect(dns.port, '127.0.0.1');
          const timer = setTimeout(() => socket.destroy(), 100);
          socket.on('error', () => undefined);
          socket.on('close', () => {
            clearTimeout(timer);
            resolve();
          });
          socket.on('connect', () => socket.write(Buffer.concat(parts)));
          socket.resume();
        });
      }),
      { numRuns: RUNS.tcp },
    );
    await dnsAnswersOverUdp();
    const answered = await new Promise<number>((resolve, reject) => {
      const socket = connect(dns.port, '127.0.0.1');
      socket.on('error', reject);
      socket.once('data', (chunk: Buffer) => {
        socket.destroy();
        resolve(dnsPacket.decode(chunk.subarray(2)).id ?? -1);
      });
      socket.write(
        dnsPacket.streamEncode({
          id: 77,
          type: 'query',
          questions: [{ name: 'simple.example.com', type: 'A' }],
        }),
      );
    });
    expect(answered).toBe(77);
    expect(unhandled).toEqual([]);
  });
});
