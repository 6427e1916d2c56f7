/**
 * The status page's server (infra/ui/server.ts) on a real loopback socket: the page and its
 * assets with a strict Content-Security-Policy, the snapshot read once however many pages
 * poll, and the guard in its browser-page form — reading only, same origin, a loopback Host
 * with the page's port (DNS rebinding) — with every failure answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardedHttpServer } from '../../infra/local/http-guard.js';
import { FRESH_MS, startStatusPage } from '../../infra/ui/server.js';
import { httpRequest, rawRequest } from '../support/raw-http.js';

let server: GuardedHttpServer;
let reads = 0;
let failNext = false;
const reported: unknown[] = [];

beforeAll(async () => {
  server = await startStatusPage({
    read: async () => {
      reads += 1;
      if (failNext) {
        failNext = false;
        throw new Error('table unreachable');
      }
      return { source: 'test', reads };
    },
    onError: (error) => reported.push(error),
  });
});
afterAll(() => server.stop());

const get = (path: string, headers: Record<string, string> = {}) =>
  rawRequest(server.port, httpRequest('GET', path, server.port, headers));
/** A request with the Host header as given (httpRequest always sends the right one). */
const withHost = (host: string, extra = '') =>
  rawRequest(server.port, `GET /status.json HTTP/1.1\r\nHost: ${host}\r\n${extra}Connection: close\r\n\r\n`);
const errorOf = (body: string) => (JSON.parse(body) as { error: { code: string; message: string } }).error;

describe('status page server', () => {
  it('serves the page, its script and style, each with a strict CSP and nosniff', async () => {
    for (const [path, type] of [
      ['/', 'text/html'],
      ['/page.mjs', 'text/javascript'],
      ['/page.css', 'text/css'],
    ] as const) {
      const reply = await get(path);
      expect(reply.status, path).toBe(200);
      expect(reply.headers['content-type']).toContain(type);
      expect(reply.headers['content-security-policy']).toMatch(/^default-src 'self'; /);
      expect(reply.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
    }
    // No external asset: every reference in the page is to this server.
    const html = (await get('/')).body;
    expect(html).toContain('<script type="module" src="/page.mjs"></script>');
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
  });

  it('one read of the stack serves every poll within FRESH_MS', async () => {
    const before = reads;
    const replies = await Promise.all(Array.from({ length: 5 }, () => get('/status.json')));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(reads - before).toBe(1);
    expect(JSON.parse(replies[0]!.body)).toEqual({ source: 'test', reads });
    expect(replies[0]!.headers['cache-control']).toBe('no-store');
  });

  it('a failed read is answered 503 with the reason, reported, and the next read is tried afresh', async () => {
    await new Promise((resolve) => setTimeout(resolve, FRESH_MS));
    failNext = true;
    const failed = await get('/status.json');
    expect(failed.status).toBe(503);
    expect(errorOf(failed.body)).toEqual({
      code: 'ReadFailed',
      message: 'could not read the status: table unreachable',
    });
    expect(reported).toContainEqual(new Error('table unreachable'));
    await new Promise((resolve) => setTimeout(resolve, FRESH_MS));
    expect((await get('/status.json')).status).toBe(200);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])(
    '%s is refused (405): the page only reads',
    async (method) => {
      const reply = await rawRequest(server.port, httpRequest(method, '/status.json', server.port, {}, '{}'));
      expect(reply.status).toBe(405);
      expect(reply.headers.allow).toBe('GET, HEAD');
      expect(errorOf(reply.body).code).toBe('MethodNotAllowed');
      expect(reply.headers['content-security-policy']).toMatch(/^default-src 'self'/);
    },
  );

  it.each([
    ['a rebound DNS name', 'evil.example:PORT'],
    ['a loopback name on another port', '127.0.0.1:1'],
    ['no port', '127.0.0.1'],
    ['::1 (the page listens on 127.0.0.1 only)', '[::1]:PORT'],
    ['empty', ''],
  ])('Host %s is refused (403)', async (_name, host) => {
    const reply = await withHost(host.replace('PORT', String(server.port)));
    expect(reply.status).toBe(403);
    expect(errorOf(reply.body)).toEqual({
      code: 'AccessDenied',
      message: expect.stringContaining(`open the page as http://127.0.0.1:${server.port}/`),
    });
  });

  it('Host localhost:PORT and 127.0.0.1:PORT are served', async () => {
    expect((await withHost(`localhost:${server.port}`)).status).toBe(200);
    expect((await withHost(`127.0.0.1:${server.port}`)).status).toBe(200);
  });

  it('a foreign Origin is refused (403); the page’s own origin is served', async () => {
    for (const origin of ['http://evil.example', `http://localhost:${server.port}`, 'null']) {
      const reply = await get('/status.json', { Origin: origin });
      expect(reply.status, origin).toBe(403);
      expect(errorOf(reply.body).message).toContain(`Requests from another origin (${origin}) are refused`);
    }
    expect((await get('/status.json', { Origin: `http://127.0.0.1:${server.port}` })).status).toBe(200);
  });

  it('a request another site started is refused; a link to the page (top-level navigation) is served', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const reply = await get('/status.json', { 'Sec-Fetch-Site': site, 'Sec-Fetch-Mode': 'no-cors' });
      expect(reply.status, site).toBe(403);
    }
    expect((await get('/', { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate' })).status).toBe(
      200,
    );
    expect(
      (await get('/status.json', { 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'cors' })).status,
    ).toBe(200);
  });

  it('anything else is answered: an unknown path 404, a malformed request 400, a body 413', async () => {
    const missing = await get('/../../etc/passwd');
    expect(missing.status).toBe(404);
    expect(errorOf(missing.body).code).toBe('NotFound');
    expect((await rawRequest(server.port, 'GARBAGE\r\n\r\n')).status).toBe(400);
    const withBody = await rawRequest(
      server.port,
      `GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello`,
    );
    expect(withBody.status).toBe(413);
    expect((await get('/favicon.ico')).status).toBe(204);
    expect((await get('/')).status).toBe(200);
  });
});
