import { performance } from 'node:perf_hooks';
import net, { type LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttpProber, probeHttp } from '../../functions/probe/probers/http.js';
import { PROBE_USER_AGENT } from '../../functions/probe/probers/user-agent.js';
import type { Header, StatusCodeRange } from '../../shared/profile/types.js';
import { judgeObservation } from '../../shared/probe/judge.js';
import type { ProbeResult } from '../../shared/probe/result.js';
import type { ProbeJudging, ProbeRequest, Prober } from '../../shared/probe/target.js';
import packageJson from '../../package.json' with { type: 'json' };
import {
  closedPort,
  selfSignedCertificate,
  startBlackhole,
  startHttpServer,
  startHttpsServer,
  type Blackhole,
  type TestHttpServer,
} from '../support/servers.js';

const DEADLINE_MS = 300;
/** The deadline must hold to within this (SPEC §2 timeout; issue 3: ±100 ms). */
const DEADLINE_SLACK_MS = 100;

/** What is sent and how it is judged, as one test value. */
type Check = ProbeRequest & ProbeJudging;

function target(protocol: 'HTTP' | 'HTTPS', port: number, overrides: Partial<Check> = {}): Check {
  return {
    key: 'test',
    protocol,
    host: '127.0.0.1',
    port,
    path: '/',
    method: 'GET',
    headers: [],
    expectedStatusCodeRanges: [{ min: 200, max: 200 }],
    timeoutMs: 5_000,
    healthRule: { kind: 'consecutiveFailures' },
    toleratedNumberOfFailures: 3,
    intervalMs: 30_000,
    ...overrides,
  };
}

/** Probes with the judge's timeout and judges the observation, as the worker does. */
async function check(checked: Check, prober: Prober = probeHttp): Promise<ProbeResult> {
  return judgeObservation(await prober(checked, checked.timeoutMs), checked);
}

async function timed(run: Promise<ProbeResult>): Promise<{ result: ProbeResult; elapsedMs: number }> {
  const start = performance.now();
  const result = await run;
  return { result, elapsedMs: performance.now() - start };
}

function failureOf(result: ProbeResult): { reason: string; detail: string } {
  if (result.ok) throw new Error(`expected a failure, got success with status ${result.statusCode}`);
  return { reason: result.reason, detail: result.detail };
}

let plain: TestHttpServer;
let secure: TestHttpServer;
let blackhole: Blackhole;

beforeAll(async () => {
  [plain, secure, blackhole] = await Promise.all([startHttpServer(), startHttpsServer(), startBlackhole()]);
});

afterAll(async () => {
  await Promise.all([plain.close(), secure.close(), blackhole.close()]);
});

// Deadline and timing bounds (±100 ms) can be missed when a loaded 2-core CI machine stalls the
// event loop; a retry measures again, the bounds stay as the spec states them.
describe('HTTP prober: the status code decides', { retry: 2 }, () => {
  const defaultRange: StatusCodeRange[] = [{ min: 200, max: 200 }];
  const twoRanges: StatusCodeRange[] = [
    { min: 200, max: 299 },
    { min: 301, max: 301 },
  ];
  it.each([
    { name: '200 succeeds with the default range 200-200', code: 200, ranges: defaultRange, ok: true },
    {
      name: '204 fails with the default range (another 2xx is not enough)',
      code: 204,
      ranges: defaultRange,
      ok: false,
    },
    { name: '204 succeeds when 200-299 is expected', code: 204, ranges: twoRanges, ok: true },
    {
      name: '301 fails with the default range (redirects are not followed)',
      code: 301,
      ranges: defaultRange,
      ok: false,
    },
    {
      name: '302 fails with the default range (redirects are not followed)',
      code: 302,
      ranges: defaultRange,
      ok: false,
    },
    { name: '500 fails', code: 500, ranges: defaultRange, ok: false },
    { name: '301 succeeds with ranges "200-299, 301-301"', code: 301, ranges: twoRanges, ok: true },
    { name: '302 fails with ranges "200-299, 301-301"', code: 302, ranges: twoRanges, ok: false },
  ])('$name', async ({ code, ranges, ok }) => {
    // Prepare
    const before = plain.received.length;
    const probeTarget = target('HTTP', plain.port, {
      path: `/status/${code}`,
      expectedStatusCodeRanges: ranges,
    });

    // Act
    const result = await check(probeTarget);

    // Assess
    expect(result.ok).toBe(ok);
    expect(result.statusCode).toBe(code);
    if (!result.ok) expect(result.reason).toBe('status');
    expect(plain.received.slice(before).map((r) => r.url)).toEqual([`/status/${code}`]);
  });
});

describe('HTTP prober: the request', { retry: 2 }, () => {
  it('HEAD is sent as HEAD and judged by its status', async () => {
    const before = plain.received.length;

    const result = await check(target('HTTP', plain.port, { method: 'HEAD', path: '/health' }));

    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(plain.received[before]).toMatchObject({ method: 'HEAD', url: '/health' });
  });

  it('custom headers and the Host override arrive at the server', async () => {
    const before = plain.received.length;
    const headers: Header[] = [
      { name: 'X-Probe-Token', value: 'abc123' },
      { name: 'Host', value: 'shop.example.com' },
    ];

    const result = await check(target('HTTP', plain.port, { headers }));

    expect(result.ok).toBe(true);
    expect(plain.received[before]?.headers).toMatchObject({
      'x-probe-token': 'abc123',
      host: 'shop.example.com',
    });
  });

  it('without a Host override the Host header is the target name and port', async () => {
    const before = plain.received.length;

    await check(target('HTTP', plain.port, { host: 'localhost' }));

    expect(plain.received[before]?.headers.host).toBe(`localhost:${plain.port}`);
  });

  it('sends the fixed User-Agent traffic-manager-probe/<version>, which a custom header cannot replace', async () => {
    const before = plain.received.length;

    await check(target('HTTP', plain.port, { headers: [{ name: 'User-Agent', value: 'curl/8' }] }));

    expect(PROBE_USER_AGENT).toBe(`traffic-manager-probe/${packageJson.version}`);
    expect(plain.received[before]?.headers['user-agent']).toBe(PROBE_USER_AGENT);
  });

  it('every probe uses a new connection', async () => {
    const before = plain.received.length;

    await check(target('HTTP', plain.port));
    await check(target('HTTP', plain.port));

    const [first, second] = plain.received.slice(before);
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    // Two requests, two client ports: no keep-alive reuse between probes.
    expect(plain.received.length - before).toBe(2);
  });

  it('a host name is resolved and the phases are reported in order', async () => {
    const result = await check(target('HTTP', plain.port, { host: 'localhost' }));

    expect(result.ok).toBe(true);
    const { dns, connect, firstByte, lastByte } = result.timings;
    expect([dns, connect, firstByte, lastByte].every((t) => typeof t === 'number')).toBe(true);
    expect(dns!).toBeLessThanOrEqual(connect!);
    expect(connect!).toBeLessThanOrEqual(firstByte!);
    expect(firstByte!).toBeLessThanOrEqual(lastByte!);
    expect(result.latencyMs!).toBeGreaterThanOrEqual(0);
    expect(result.latencyMs!).toBeLessThanOrEqual(lastByte! - connect! + 0.01);
  });
});

describe('HTTP prober: one deadline, a bounded body', { retry: 2 }, () => {
  it.each([
    { name: 'headers that never come fail with timeout at the deadline', path: '/hang' },
    { name: 'a body that trickles fails with timeout at the deadline', path: '/trickle' },
  ])('$name', async ({ path }) => {
    const { result, elapsedMs } = await timed(
      check(target('HTTP', plain.port, { path, timeoutMs: DEADLINE_MS })),
    );

    expect(failureOf(result).reason).toBe('timeout');
    expect(elapsedMs).toBeGreaterThanOrEqual(DEADLINE_MS - 1);
    expect(elapsedMs).toBeLessThanOrEqual(DEADLINE_MS + DEADLINE_SLACK_MS);
  });

  it('a connection that is never accepted fails with timeout at the deadline', async () => {
    const { result, elapsedMs } = await timed(
      check(target('HTTP', blackhole.port, { timeoutMs: DEADLINE_MS })),
    );

    expect(failureOf(result)).toMatchObject({
      reason: 'timeout',
      detail: expect.stringContaining('connecting'),
    });
    expect(elapsedMs).toBeGreaterThanOrEqual(DEADLINE_MS - 1);
    expect(elapsedMs).toBeLessThanOrEqual(DEADLINE_MS + DEADLINE_SLACK_MS);
  });

  it('an endless body succeeds by its status: the probe stops reading at the cap and closes', async () => {
    const timeoutMs = 4_000;

    const { result, elapsedMs } = await timed(
      check(target('HTTP', plain.port, { path: '/endless', timeoutMs })),
    );

    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(result.timings.lastByte).toBeDefined();
    expect(elapsedMs).toBeLessThan(timeoutMs / 2);
    await vi.waitFor(() => expect(plain.closed).toContain('/endless'), { timeout: 1_000 });
  });

  it('a smaller body cap stops reading sooner, still judged by status', async () => {
    const prober = createHttpProber({ bodyCapBytes: 1 });

    const result = await check(
      target('HTTP', plain.port, { path: '/trickle', timeoutMs: DEADLINE_MS }),
      prober,
    );

    expect(result).toMatchObject({ ok: true, statusCode: 200 });
  });
});

describe('HTTP prober: connection failures', { retry: 2 }, () => {
  it('a reset in the middle of the response fails with reset', async () => {
    const result = await check(target('HTTP', plain.port, { path: '/reset' }));

    expect(failureOf(result).reason).toBe('reset');
    expect(result.statusCode).toBe(200);
  });

  it('a refused connection fails with refused', async () => {
    const port = await closedPort();

    const result = await check(target('HTTP', port));

    expect(failureOf(result).reason).toBe('refused');
  });

  it('a host name that does not resolve fails with dns', async () => {
    const notFound: LookupFunction = (hostname, _options, callback) =>
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
    const prober = createHttpProber({ lookup: notFound });

    const result = await check(target('HTTP', plain.port, { host: 'nowhere.invalid' }), prober);

    expect(failureOf(result).reason).toBe('dns');
  });
});

describe('HTTPS prober', { retry: 2 }, () => {
  it('a self-signed certificate succeeds (validity is not checked) and its expiry, subject and issuer are recorded', async () => {
    const { notAfter } = await selfSignedCertificate();

    const result = await check(target('HTTPS', secure.port));

    expect(result).toMatchObject({
      ok: true,
      statusCode: 200,
      certificate: { notAfter, subject: 'localhost', issuer: 'localhost' },
    });
    const { connect, tls, firstByte } = result.timings;
    expect(connect!).toBeLessThanOrEqual(tls!);
    expect(tls!).toBeLessThanOrEqual(firstByte!);
  });

  it.each([
    { name: 'SNI is the target host name', host: 'localhost', headers: [], servername: 'localhost' },
    {
      name: 'SNI follows a Host override',
      host: '127.0.0.1',
      headers: [{ name: 'host', value: 'shop.example.com:8443' }],
      servername: 'shop.example.com',
    },
    { name: 'no SNI for an IP literal', host: '127.0.0.1', headers: [], servername: false },
    {
      name: 'no SNI for an IPv6 literal in a Host override',
      host: '127.0.0.1',
      headers: [{ name: 'Host', value: '[::1]:8443' }],
      servername: false,
    },
  ])('$name', async ({ host, headers, servername }) => {
    const before = secure.received.length;

    const result = await check(target('HTTPS', secure.port, { host, headers }));

    expect(result.ok).toBe(true);
    expect(secure.received[before]?.servername).toBe(servername);
  });

  it('TLS to a plain-HTTP port fails with tls', async () => {
    const result = await check(target('HTTPS', plain.port));

    expect(failureOf(result).reason).toBe('tls');
  });

  it('a TLS handshake that never completes fails with timeout at the deadline', async () => {
    const { result, elapsedMs } = await timed(
      check(target('HTTPS', blackhole.port, { timeoutMs: DEADLINE_MS })),
    );

    expect(failureOf(result).reason).toBe('timeout');
    expect(elapsedMs).toBeLessThanOrEqual(DEADLINE_MS + DEADLINE_SLACK_MS);
  });
});

describe('HTTP prober: header values stay private', { retry: 2 }, () => {
  const secret = 'S3CRET-header-value';
  const headers: Header[] = [
    { name: 'Authorization', value: `Bearer ${secret}` },
    { name: 'Host', value: `${secret}.example.com` },
  ];
  it.each([
    { name: 'a status failure', path: '/status/500', timeoutMs: 5_000 },
    { name: 'a timeout', path: '/hang', timeoutMs: DEADLINE_MS },
    { name: 'a reset', path: '/reset', timeoutMs: 5_000 },
  ])(
    '$name: the detail never contains a header value, and the prober logs nothing',
    async ({ path, timeoutMs }) => {
      const logs = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
        vi.spyOn(console, level),
      );
      const writes = [vi.spyOn(process.stdout, 'write'), vi.spyOn(process.stderr, 'write')];

      const result = await check(target('HTTP', plain.port, { path, headers, timeoutMs }));

      const { detail } = failureOf(result);
      expect(detail).not.toContain(secret);
      expect(JSON.stringify(result)).not.toContain(secret);
      for (const spy of [...logs, ...writes]) expect(spy).not.toHaveBeenCalled();
      for (const spy of [...logs, ...writes]) spy.mockRestore();
    },
  );
});

describe('HTTP prober: a header secret that was not resolved', () => {
  it('is not sent: the check fails with reason secret naming the header, and the server sees no request', async () => {
    const before = plain.received.length;
    const headers: Header[] = [
      { name: 'X-Plain', value: 'visible' },
      {
        name: 'X-Api-Key',
        value: { secret: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:probe-key' },
      },
    ];

    const result = await check(target('HTTP', plain.port, { headers }));

    expect(failureOf(result)).toEqual({
      reason: 'secret',
      detail: 'header "X-Api-Key": its secret was not resolved before the check, so nothing was sent',
    });
    expect(plain.received.length).toBe(before);
  });
});

/** Whether this machine has an IPv6 loopback to listen on. */
const ipv6Loopback = await new Promise<boolean>((resolve) => {
  const probe = net.createServer();
  probe.once('error', () => resolve(false));
  probe.listen(0, '::1', () => probe.close(() => resolve(true)));
});

describe('HTTP prober: the rest of the request and the result', { retry: 2 }, () => {
  it('an HTTPS check that times out after the handshake still reports the certificate it saw', async () => {
    const { notAfter } = await selfSignedCertificate();

    const result = await check(target('HTTPS', secure.port, { path: '/hang', timeoutMs: DEADLINE_MS }));

    expect(failureOf(result).reason).toBe('timeout');
    expect(result.certificate).toEqual({ notAfter, subject: 'localhost', issuer: 'localhost' });
  });

  it('a request without a path asks for /', async () => {
    const before = plain.received.length;

    const result = await check(target('HTTP', plain.port, { path: undefined }));

    expect(result.ok).toBe(true);
    expect(plain.received[before]?.url).toBe('/');
  });

  it.runIf(ipv6Loopback)('an IPv6 literal target is reached at [address]:port', async () => {
    const server = await startHttpServer('::1');
    try {
      const result = await check(target('HTTP', server.port, { host: '::1' }));

      expect(result).toMatchObject({ ok: true, statusCode: 200 });
      expect(server.received[0]?.headers.host).toBe(`[::1]:${server.port}`);
    } finally {
      await server.close();
    }
  });
});
