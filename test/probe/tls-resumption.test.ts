import { constants, randomBytes } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { SecureVersion, TLSSocket } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpProber, TLS_SESSION_MAX_AGE_MS } from '../../functions/probe/probers/http.js';
import type { ProbeObservation } from '../../shared/probe/result.js';
import type { ProbeRequest } from '../../shared/probe/target.js';
import { selfSignedCertificate, type SelfSignedCertificate } from '../support/servers.js';

/** A loopback HTTPS server that records, per request, whether its TLS session was resumed. */
interface ResumingServer {
  readonly port: number;
  /** TCP connections accepted. */
  connections: number;
  /** Per request, in order: was the TLS session resumed. */
  readonly reused: boolean[];
  readonly server: https.Server;
  close(): Promise<void>;
}

const servers: ResumingServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function startServer(
  certificate: SelfSignedCertificate,
  options: https.ServerOptions = {},
): Promise<ResumingServer> {
  const reused: boolean[] = [];
  const server = https.createServer(
    { key: certificate.key, cert: certificate.cert, ...options },
    (request, response) => {
      reused.push((request.socket as TLSSocket).isSessionReused());
      if (request.url === '/hang') return;
      response.writeHead(200, { connection: 'close' }).end('ok');
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const started: ResumingServer = {
    port: (server.address() as AddressInfo).port,
    connections: 0,
    reused,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', () => started.connections++);
  servers.push(started);
  return started;
}

function target(port: number, overrides: Partial<ProbeRequest> = {}): ProbeRequest {
  return {
    key: `https-${port}`,
    protocol: 'HTTPS',
    host: '127.0.0.1',
    port,
    path: '/',
    method: 'GET',
    headers: [],
    ...overrides,
  };
}

function answered(observation: ProbeObservation): ProbeObservation & { statusCode: number } {
  if (!observation.answered)
    throw new Error(`expected an answer, got ${observation.reason}: ${observation.detail}`);
  return observation as ProbeObservation & { statusCode: number };
}

describe('HTTPS prober: TLS session resumption', { retry: 2 }, () => {
  it.each<{ version: SecureVersion }>([{ version: 'TLSv1.3' }, { version: 'TLSv1.2' }])(
    '$version: the second probe resumes the first one’s session, on a new TCP connection',
    async ({ version }) => {
      const server = await startServer(await selfSignedCertificate(), {
        minVersion: version,
        maxVersion: version,
      });
      const probe = createHttpProber();

      for (let i = 0; i < 3; i++)
        expect(answered(await probe(target(server.port), 5_000)).statusCode).toBe(200);

      expect(server.reused).toEqual([false, true, true]);
      expect(server.connections).toBe(3);
    },
  );

  it('a resumed probe reports the certificate of its full handshake; a replaced certificate is seen at the age bound', async () => {
    const [first, second] = await Promise.all([selfSignedCertificate(30), selfSignedCertificate(45)]);
    const server = await startServer(first);
    let now = 1_000_000;
    const probe = createHttpProber({ now: () => now });
    expect(answered(await probe(target(server.port), 5_000)).certificate?.notAfter).toBe(first.notAfter);

    // Renewed in place, keeping its ticket keys (as servers that share keys across a fleet do).
    const ticketKeys = server.server.getTicketKeys();
    server.server.setSecureContext({ key: second.key, cert: second.cert });
    server.server.setTicketKeys(ticketKeys);
    now += TLS_SESSION_MAX_AGE_MS - 1;
    const resumed = answered(await probe(target(server.port), 5_000));
    now += 1;
    const renewed = answered(await probe(target(server.port), 5_000));

    expect(server.reused).toEqual([false, true, false]);
    expect(resumed.certificate?.notAfter).toBe(first.notAfter);
    expect(renewed.certificate?.notAfter).toBe(second.notAfter);
  });

  it('the age bound counts from the full handshake, not from the latest resumed session', async () => {
    const server = await startServer(await selfSignedCertificate());
    let now = 0;
    const probe = createHttpProber({ now: () => now, tlsSessionMaxAgeMs: 1_000 });

    for (const at of [0, 400, 800, 1_000, 1_400]) {
      now = at;
      answered(await probe(target(server.port), 5_000));
    }

    expect(server.reused).toEqual([false, true, true, false, true]);
  });

  it('a server that never resumes is probed healthy with a full handshake each time', async () => {
    // Without tickets and without a session store of its own, a Node server cannot resume.
    const server = await startServer(await selfSignedCertificate(), {
      secureOptions: constants.SSL_OP_NO_TICKET,
    });
    const probe = createHttpProber();

    for (let i = 0; i < 3; i++)
      expect(answered(await probe(target(server.port), 5_000)).statusCode).toBe(200);

    expect(server.reused).toEqual([false, false, false]);
  });

  it('a session the server rejects is replaced by the new handshake’s, not offered again', async () => {
    const server = await startServer(await selfSignedCertificate());
    const probe = createHttpProber();
    answered(await probe(target(server.port), 5_000));

    server.server.setTicketKeys(randomBytes(48));
    answered(await probe(target(server.port), 5_000));
    answered(await probe(target(server.port), 5_000));

    expect(server.reused).toEqual([false, false, true]);
  });

  it('after a probe that failed, the next one makes a full handshake', async () => {
    const server = await startServer(await selfSignedCertificate());
    const probe = createHttpProber();
    answered(await probe(target(server.port), 5_000));

    const failed = await probe(target(server.port, { path: '/hang' }), 300);
    answered(await probe(target(server.port), 5_000));

    expect(failed).toMatchObject({ answered: false, reason: 'timeout' });
    expect(server.reused).toEqual([false, true, false]);
  });

  it('a session is offered only to its own host, port and SNI name', async () => {
    const certificate = await selfSignedCertificate();
    // Both servers accept each other's tickets: only the prober's cache keeps them apart.
    const ticketKeys = randomBytes(48);
    const [one, other] = await Promise.all([
      startServer(certificate, { ticketKeys }),
      startServer(certificate, { ticketKeys }),
    ]);
    const probe = createHttpProber();

    answered(await probe(target(one.port), 5_000));
    answered(await probe(target(other.port), 5_000));
    answered(await probe(target(one.port, { host: 'localhost' }), 5_000));
    answered(
      await probe(target(one.port, { headers: [{ name: 'Host', value: 'shop.example.com' }] }), 5_000),
    );
    answered(await probe(target(one.port), 5_000));

    expect(other.reused).toEqual([false]);
    expect(one.reused).toEqual([false, false, false, true]);
  });

  it('the cache holds at most its cap: the least recently probed target is dropped first', async () => {
    const server = await startServer(await selfSignedCertificate());
    const probe = createHttpProber({ tlsSessionCacheEntries: 2 });
    const named = (name: string): ProbeRequest =>
      target(server.port, { headers: [{ name: 'Host', value: name }] });

    for (const name of ['a.example', 'b.example', 'c.example']) answered(await probe(named(name), 5_000));
    answered(await probe(named('c.example'), 5_000));
    answered(await probe(named('b.example'), 5_000));
    answered(await probe(named('a.example'), 5_000));

    expect(server.reused).toEqual([false, false, false, true, true, false]);
  });

  it('tlsSessionCacheEntries 0 keeps no session: every probe makes a full handshake', async () => {
    const server = await startServer(await selfSignedCertificate());
    const probe = createHttpProber({ tlsSessionCacheEntries: 0 });

    for (let i = 0; i < 2; i++) answered(await probe(target(server.port), 5_000));

    expect(server.reused).toEqual([false, false]);
  });
});
