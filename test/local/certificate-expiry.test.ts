/**
 * Certificate expiry in the local stack (DynamoDB Local with real streams, the evaluator tick,
 * the outbox): two HTTPS endpoints present self-signed certificates, one 5 days from expiry
 * (inside the default 14-day window), one 300 days. `tm status` shows each one's days left, the
 * checks stay Online (a certificate is never a failed check), and the near one gets exactly
 * one CertificateExpiring event however many ticks see it; the far one none. Time scale 0.1:
 * checks every second, a heartbeat and a tick every 6 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStack } from '../../infra/local/stack.js';
import { parseDefinitionsOrThrow } from '../support/parse-definitions.js';
import { selfSignedCertificate, startHttpsServer, type TestHttpServer } from '../support/servers.js';
import { tmAgainstTable } from '../support/tm.js';

const DAY_MS = 86_400_000;
let servers: TestHttpServer[] = [];
let stack: LocalStack;

interface Endpoint {
  endpoint: string;
  status: string;
  certificate?: { notAfter: number; subject: string; issuer: string; daysLeft: number };
}
type Document = { profiles: { profile: string; endpoints: Endpoint[] }[] };

async function eventually<T>(read: () => Promise<T> | T, accept: (value: T) => boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!accept(value)) {
    if (Date.now() > deadline) throw new Error(`not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await read();
  }
  return value;
}

async function statusJson(): Promise<Document> {
  const result = await tmAgainstTable(stack, 'status', '--json');
  if (result.code !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as Document;
}

function endpointOf(document: Document, profile: string): Endpoint | undefined {
  return document.profiles.find((p) => p.profile === profile)?.endpoints[0];
}

describe('certificate expiry', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    const [soon, later] = await Promise.all([selfSignedCertificate(5), selfSignedCertificate(300)]);
    servers = await Promise.all([startHttpsServer('127.0.0.1', soon), startHttpsServer('127.0.0.1', later)]);
    const profile = (name: string, port: number) => ({
      name,
      trafficRoutingMethod: 'Priority',
      dnsConfig: { zoneName: 'example.com', relativeName: name, ttl: 5 },
      monitorConfig: { protocol: 'HTTPS', port, path: '/health', intervalInSeconds: 10, timeoutInSeconds: 5 },
      endpoints: [{ name: 'a', target: '127.0.0.1' }],
    });
    const profiles = parseDefinitionsOrThrow([
      profile('soon', servers[0]!.port),
      profile('later', servers[1]!.port),
    ]);
    stack = await startLocalStack({ profiles, dnsPort: 0, timeScale: 0.1 });
    await stack.published; // DNS answers SERVFAIL until the first publish
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await Promise.all(servers.map((s) => s.close()));
  });

  it('tm status shows the days left of each endpoint’s certificate, and the checks stay Online', async () => {
    // Act
    const document = await eventually(statusJson, (d) =>
      ['soon', 'later'].every(
        (p) => endpointOf(d, p)?.certificate !== undefined && endpointOf(d, p)?.status === 'Online',
      ),
    );

    // Assess
    const [soon, later] = await Promise.all([selfSignedCertificate(5), selfSignedCertificate(300)]);
    expect(endpointOf(document, 'soon')).toMatchObject({
      status: 'Online',
      certificate: { notAfter: soon.notAfter, subject: 'localhost', issuer: 'localhost' },
    });
    expect(endpointOf(document, 'soon')?.certificate?.daysLeft).toBe(
      Math.floor((soon.notAfter - Date.now()) / DAY_MS),
    );
    expect(endpointOf(document, 'later')?.certificate).toMatchObject({
      notAfter: later.notAfter,
      daysLeft: 299,
    });
    const text = await tmAgainstTable(stack, 'status', '--profile', 'soon');
    expect(text.stdout).toMatch(/certificate localhost \(issuer localhost\): 4 days left, until /);
  });

  it('the certificate within its window warns once through the outbox; the one outside it does not', async () => {
    // Prepare: the heartbeats carry both certificates
    await eventually(statusJson, (d) =>
      ['soon', 'later'].every((p) => endpointOf(d, p)?.certificate !== undefined),
    );
    const warnings = () => stack.allEvents.filter((e) => e.kind === 'CertificateExpiring');

    // Act: the tick judges them (it also runs every 6 s by itself) until the warning is on the bus,
    // then three more times
    await eventually(
      async () => {
        await stack.tick();
        return warnings();
      },
      (events) => events.length > 0,
    );
    for (let i = 0; i < 3; i++) await stack.tick();
    await stack.poller.drain();

    // Assess
    const soon = await selfSignedCertificate(5);
    expect(warnings()).toEqual([
      expect.objectContaining({
        eventId: `soon/a/certificate@${soon.notAfter}`,
        profile: 'soon',
        endpoint: 'a',
        notAfter: soon.notAfter,
        subject: 'localhost',
        issuer: 'localhost',
        daysLeft: 4,
        certificateWarningDays: 14,
      }),
    ]);
    const status = await statusJson();
    expect(endpointOf(status, 'soon')?.status).toBe('Online');
  });
});
