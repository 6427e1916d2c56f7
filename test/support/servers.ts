/**
 * Real servers on loopback, port 0, for the prober tests and the probe benchmark.
 * The HTTP(S) servers answer by path (see `route`), record what arrived and can be
 * closed at once (open connections included).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import net, { type AddressInfo, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { generate } from 'selfsigned';

export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  /** HTTPS: the SNI name the client sent (`false` when none). */
  readonly servername: string | false | undefined;
}

export interface TestHttpServer {
  readonly port: number;
  readonly received: ReceivedRequest[];
  /** Paths of responses whose connection has closed, in order. */
  readonly closed: string[];
  close(): Promise<void>;
}

/**
 * `/status/<code>` answers that code (with a `Location` for 3xx); `/hang` never
 * answers; `/trickle` sends headers, then one body byte every 50 ms forever;
 * `/endless` sends body as fast as the client reads, forever; `/reset` sends headers
 * and part of the body, then resets the connection; `/maintenance` answers 200 with a
 * maintenance page (MAINTENANCE_PAGE). Anything else: 200 `ok`.
 */
export const MAINTENANCE_PAGE = '<html><body><h1>Down for maintenance</h1></body></html>';

function route(request: IncomingMessage, response: ServerResponse): void {
  const path = request.url ?? '/';
  const status = /^\/status\/(\d{3})$/.exec(path);
  if (status?.[1] !== undefined) {
    const code = Number(status[1]);
    if (code >= 300 && code < 400) response.setHeader('location', '/elsewhere');
    response.writeHead(code).end();
    return;
  }
  switch (path) {
    case '/hang':
      return;
    case '/trickle': {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => response.write('.'), 50);
      response.on('close', () => clearInterval(timer));
      return;
    }
    case '/endless': {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(16 * 1024, 0x61);
      const pump = (): void => {
        while (!response.destroyed && response.write(chunk));
      };
      response.on('drain', pump);
      pump();
      return;
    }
    case '/reset':
      response.writeHead(200, { 'content-length': '1000' });
      response.write('partial');
      setTimeout(() => (request.socket as Socket).resetAndDestroy(), 20);
      return;
    case '/maintenance':
      response.writeHead(200, { 'content-type': 'text/html' }).end(MAINTENANCE_PAGE);
      return;
    default:
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  }
}

function recordingHandler(received: ReceivedRequest[], closed: string[]) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    const socket = request.socket as Partial<TLSSocket>;
    received.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      servername: socket.servername ?? undefined,
    });
    response.on('close', () => closed.push(request.url ?? ''));
    route(request, response);
  };
}

export async function startHttpServer(host = '127.0.0.1'): Promise<TestHttpServer> {
  const received: ReceivedRequest[] = [];
  const closed: string[] = [];
  const server = http.createServer(recordingHandler(received, closed));
  return listening(server, host, received, closed);
}

/** An HTTPS server presenting `certificate` (default: the run's shared 30-day one). */
export async function startHttpsServer(
  host = '127.0.0.1',
  certificate?: SelfSignedCertificate,
): Promise<TestHttpServer> {
  const received: ReceivedRequest[] = [];
  const closed: string[] = [];
  const { key, cert } = certificate ?? (await selfSignedCertificate());
  const server = https.createServer({ key, cert }, recordingHandler(received, closed));
  return listening(server, host, received, closed);
}

async function listening(
  server: http.Server,
  host: string,
  received: ReceivedRequest[],
  closed: string[],
): Promise<TestHttpServer> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    closed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface SelfSignedCertificate {
  readonly key: string;
  readonly cert: string;
  /** The certificate's notAfter, epoch ms (whole seconds). */
  readonly notAfter: number;
}

const certificates = new Map<number, Promise<SelfSignedCertificate>>();

/**
 * One self-signed EC certificate for `localhost` valid for `validDays` from now, made at test
 * time, shared by the run (per validity).
 */
export function selfSignedCertificate(validDays = 30): Promise<SelfSignedCertificate> {
  let certificate = certificates.get(validDays);
  if (certificate === undefined) {
    certificate = (async () => {
      const notAfter = new Date(Math.floor(Date.now() / 1000) * 1000 + validDays * 24 * 3600 * 1000);
      const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
        keyType: 'ec',
        algorithm: 'sha256',
        notAfterDate: notAfter,
      });
      return { key: pems.private, cert: pems.cert, notAfter: notAfter.getTime() };
    })();
    certificates.set(validDays, certificate);
  }
  return certificate;
}

export interface TestTcpServer {
  readonly port: number;
  /** Error codes seen on accepted sockets (`ECONNRESET` when the client reset). */
  readonly socketErrors: string[];
  /** Resolves with the next error code seen on an accepted socket. */
  nextSocketError(): Promise<string>;
  close(): Promise<void>;
}

/** Accepts connections and keeps them open, recording how they end. */
export async function startTcpServer(host = '127.0.0.1'): Promise<TestTcpServer> {
  const sockets = new Set<Socket>();
  const socketErrors: string[] = [];
  const waiting: ((code: string) => void)[] = [];
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? error.name;
      socketErrors.push(code);
      waiting.shift()?.(code);
    });
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    socketErrors,
    nextSocketError: () => new Promise<string>((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port that was just open and is now closed: connecting to it is refused. */
export async function closedPort(host = '127.0.0.1'): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Blackhole {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * A loopback port that never answers a SYN. A child process listens with backlog 1
 * and then blocks its only thread (no CPU used), so it never accepts; we fill its
 * accept queue, after which Linux drops new SYNs and a connect just waits.
 */
export async function startBlackhole(): Promise<Blackhole> {
  const program = `
    const server = require('node:net').createServer();
    server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
      process.stdout.write(server.address().port + '\\n');
      setImmediate(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0));
    });`;
  const child = spawn(process.execPath, ['-e', program], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.once('data', (data: Buffer) => resolve(Number(data.toString().trim())));
    child.once('error', reject);
  });
  // Backlog 1 queues at most two established connections; a server that never accepts keeps
  // them there, and the kernel drops every later SYN. Four fillers fill the queue whatever the
  // event loop's lag (no early stop on a slow 'connect' event), then the next SYN goes unanswered.
  const fillers: Socket[] = [];
  for (let i = 0; i < 4; i++) {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.on('error', () => {});
    fillers.push(socket);
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  return {
    port,
    close: async () => {
      for (const socket of fillers) socket.destroy();
      await stop(child);
    },
  };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
