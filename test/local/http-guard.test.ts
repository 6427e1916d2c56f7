/**
 * The shared guard of local HTTP listeners (infra/local/http-guard.ts): loopback only,
 * every failure answered in the service's shape, browser requests refused, bodies bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startGuardedHttpServer,
  type GuardedHttpServer,
  type HttpGuardError,
} from '../../infra/local/http-guard.js';
import { httpRequest, rawRequest } from '../support/raw-http.js';

let server: GuardedHttpServer;
const reported: unknown[] = [];

beforeAll(async () => {
  server = await startGuardedHttpServer({
    caller: { header: 'X-Test-Control' },
    maxBodyBytes: 64,
    handle: async ({ method, url, body }) => {
      if (url.pathname === '/throw') throw new Error('handler bug');
      if (url.pathname === '/reject') return Promise.reject(new Error('async handler bug'));
      return { status: 200, body: `${method} ${url.pathname}${url.search} ${body.length}` };
    },
    errorReply: (error: HttpGuardError) => {
      if (error.message.includes('render-bug')) throw new Error('renderer bug');
      return {
        status: error.status,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: error.code, message: error.message }),
      };
    },
    onError: (error) => reported.push(error),
  });
});
afterAll(() => server.stop());

const control = { 'X-Test-Control': '1' };
const json = (body: string) => JSON.parse(body) as { code: string; message: string };

describe('the HTTP guard', () => {
  it('listens on 127.0.0.1 only', () => {
    expect(server.endpoint).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('passes a request with the caller proof, an absolute-form target reduced to path and query', async () => {
    const direct = await rawRequest(server.port, httpRequest('POST', '/a?b=1', server.port, control, 'xyz'));
    expect(direct).toMatchObject({ status: 200, body: 'POST /a?b=1 3' });
    const absolute = await rawRequest(
      server.port,
      httpRequest('GET', `http://127.0.0.1:${server.port}/p?q`, server.port, control),
    );
    expect(absolute).toMatchObject({ status: 200, body: 'GET /p?q 0' });
  });

  it.each([
    { name: 'a handler that throws', path: '/throw', message: 'handler bug' },
    { name: 'a handler whose promise rejects', path: '/reject', message: 'async handler bug' },
  ])('$name → 500 InternalFailure in the service shape, reported once', async ({ path, message }) => {
    const before = reported.length;
    const reply = await rawRequest(server.port, httpRequest('GET', path, server.port, control));
    expect(reply.status).toBe(500);
    expect(json(reply.body).code).toBe('InternalFailure');
    expect(reported.slice(before).map((e) => (e as Error).message)).toEqual([message]);
  });

  it.each([
    { name: 'no caller header', headers: {}, status: 403, code: 'MissingControlHeader' },
    { name: 'an Origin', headers: { ...control, Origin: 'null' }, status: 403, code: 'AccessDenied' },
    {
      name: 'a Sec-Fetch-Mode header',
      headers: { ...control, 'Sec-Fetch-Mode': 'no-cors' },
      status: 403,
      code: 'AccessDenied',
    },
    {
      name: 'a body over the limit',
      headers: control,
      body: 'x'.repeat(65),
      status: 413,
      code: 'RequestEntityTooLarge',
    },
  ])('$name → $status $code', async ({ headers, body, status, code }) => {
    const reply = await rawRequest(server.port, httpRequest('POST', '/x', server.port, headers, body));
    expect(reply.status).toBe(status);
    expect(json(reply.body).code).toBe(code);
  });

  it('a body over the limit sent without Content-Length (chunked) is refused as well', async () => {
    const head = `POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Test-Control: 1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
    const reply = await rawRequest(server.port, `${head}50\r\n${'y'.repeat(80)}\r\n0\r\n\r\n`);
    expect(reply.status).toBe(413);
  });

  it('an error renderer that throws still gets a plain 500 out, and the server keeps serving', async () => {
    const reply = await rawRequest(
      server.port,
      `GET /render-bug HTTP/1.1\r\nHost: render-bug.example\r\nConnection: close\r\n\r\n`,
    );
    expect(reply.status).toBe(500);
    expect(reply.body).toBe('internal error\n');
    const next = await rawRequest(server.port, httpRequest('GET', '/ok', server.port, control));
    expect(next.status).toBe(200);
  });
});
