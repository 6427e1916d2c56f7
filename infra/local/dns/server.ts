/**
 * The local authoritative DNS server: UDP and TCP on one port of loopback,
 * answering from the local Route 53's zones (`respond.ts` does the DNS part).
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { ZoneReader } from '../zone-reader.js';
import { DEFAULT_CLIENT_LOCATIONS, type ClientLocationTable } from './client-locations.js';
import { DnsPortAccessError, DnsPortInUseError, LocalDnsError } from './errors.js';
import { respond, type ResponderContext } from './respond.js';

/** The port `tm local` uses unless told `--dns-port`. */
export const DEFAULT_DNS_PORT = 5353;
const DNS_HOST = '127.0.0.1';
/** A TCP connection that completes no query for this long is closed (RFC 7766 §6.2.3: seconds, not minutes). */
const DEFAULT_TCP_IDLE_TIMEOUT_MS = 10_000;
/** A query begun on TCP must be complete this long after its first byte (no one-byte-at-a-time clients). */
const DEFAULT_TCP_MESSAGE_TIMEOUT_MS = 5_000;
/** TCP connections at once; more are closed as they arrive. */
const DEFAULT_MAX_TCP_CONNECTIONS = 64;
/**
 * Answers buffered for a TCP client that does not read: above this, the server stops reading
 * that connection (the kernel's buffers then push back on the client) until the client drains it.
 */
const TCP_WRITE_HIGH_WATER_BYTES = 64 * 1024;
/** With port 0, how many free TCP ports to try before giving up on finding one whose UDP side is free too. */
const FREE_PORT_ATTEMPTS = 20;

export interface DnsServerOptions {
  /** Where the zones come from (the local Route 53). */
  readonly zones: ZoneReader;
  /** UDP and TCP port; 0 picks a free one. @default 5353 */
  readonly port?: number;
  /** Client subnets → location. @default - the built-in `client-locations.json` */
  readonly locations?: ClientLocationTable;
  /** Uniform in [0, 1), for weighted and multivalue answers. @default Math.random */
  readonly random?: () => number;
  /**
   * Resolves once the zones hold what was first published. Until then every query is answered
   * SERVFAIL: an empty zone's NXDOMAIN would be cached by a resolver for the SOA's negative TTL.
   * @default - ready at once
   */
  readonly ready?: Promise<unknown>;
  /** Socket errors after start (they never stop the server). @default - ignored */
  readonly onError?: (error: Error) => void;
  /** @default DEFAULT_TCP_IDLE_TIMEOUT_MS */
  readonly tcpIdleTimeoutMs?: number;
  /** @default DEFAULT_TCP_MESSAGE_TIMEOUT_MS */
  readonly tcpMessageTimeoutMs?: number;
  /** @default DEFAULT_MAX_TCP_CONNECTIONS */
  readonly maxTcpConnections?: number;
}

export type DnsServer = Awaited<ReturnType<typeof startDnsServer>>;

const isErrno = (error: unknown, code: string): boolean =>
  (error as NodeJS.ErrnoException | undefined)?.code === code;

const closeTcp = (server: Server): Promise<void> =>
  new Promise((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
const closeUdp = (socket: UdpSocket): Promise<void> =>
  new Promise((resolve) => {
    try {
      socket.close(() => resolve());
    } catch {
      resolve(); // not bound or already closed
    }
  });

function bindError(error: unknown, port: number): Error {
  if (isErrno(error, 'EADDRINUSE')) return new DnsPortInUseError(DNS_HOST, port, { cause: error });
  if (isErrno(error, 'EACCES')) return new DnsPortAccessError(DNS_HOST, port, { cause: error });
  return new LocalDnsError(`cannot listen for DNS on ${DNS_HOST}:${port}: ${(error as Error).message}`, {
    cause: error,
  });
}

/** Starts answering DNS on 127.0.0.1:`port` over UDP and TCP; resolves once both listen. */
export async function startDnsServer(options: DnsServerOptions) {
  const requestedPort = options.port ?? DEFAULT_DNS_PORT;
  let ready = options.ready === undefined;
  void options.ready?.then(
    () => (ready = true),
    () => undefined,
  );
  const context: ResponderContext = {
    zones: options.zones,
    locations: options.locations ?? DEFAULT_CLIENT_LOCATIONS,
    random: options.random ?? Math.random,
    ready: () => ready,
  };
  const reportError = (error: Error): void => options.onError?.(error);
  const connections = new Set<Socket>();

  const newTcpServer = (): Server => {
    const server = createServer((socket) => {
      connections.add(socket);
      socket.on('close', () => connections.delete(socket));
      serveTcpConnection(socket, options, context, reportError);
    });
    server.maxConnections = options.maxTcpConnections ?? DEFAULT_MAX_TCP_CONNECTIONS;
    return server;
  };
  const newUdpSocket = (): UdpSocket => createSocket('udp4');

  let tcp = newTcpServer();
  let udp = newUdpSocket();
  let port = requestedPort;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await once(tcp.listen({ host: DNS_HOST, port: requestedPort, exclusive: true }), 'listening');
      port = (tcp.address() as AddressInfo).port;
    } catch (error) {
      await closeUdp(udp);
      throw bindError(error, requestedPort);
    }
    try {
      udp.bind({ address: DNS_HOST, port, exclusive: true });
      await once(udp, 'listening');
      break;
    } catch (error) {
      await Promise.all([closeTcp(tcp), closeUdp(udp)]);
      if (requestedPort !== 0 || !isErrno(error, 'EADDRINUSE') || attempt >= FREE_PORT_ATTEMPTS)
        throw bindError(error, port);
      tcp = newTcpServer();
      udp = newUdpSocket();
    }
  }

  udp.on('error', reportError);
  tcp.on('error', reportError);
  udp.on('message', (message, remote) => {
    const reply = respond(message, remote.address, 'udp', context);
    if (reply) udp.send(reply, remote.port, remote.address, (error) => error && reportError(error));
  });

  let stopping: Promise<void> | undefined;
  return {
    port,
    stop: () => {
      stopping ??= (async () => {
        for (const socket of connections) socket.destroy();
        await Promise.all([closeTcp(tcp), closeUdp(udp)]);
      })();
      return stopping;
    },
  };
}

/**
 * One TCP connection: 2-byte length-prefixed messages (RFC 1035 §4.2.2), answered in order.
 * Reading stops while more than TCP_WRITE_HIGH_WATER_BYTES of answers wait for the client,
 * so a client that pipelines without reading costs a bounded amount of memory; a connection
 * that completes no query within the idle timeout, or takes longer than the message timeout
 * to finish one it began, is closed.
 */
function serveTcpConnection(
  socket: Socket,
  {
    tcpIdleTimeoutMs = DEFAULT_TCP_IDLE_TIMEOUT_MS,
    tcpMessageTimeoutMs = DEFAULT_TCP_MESSAGE_TIMEOUT_MS,
  }: DnsServerOptions,
  context: ResponderContext,
  reportError: (error: Error) => void,
): void {
  let pending: Buffer = Buffer.alloc(0);
  let idleTimer: NodeJS.Timeout | undefined;
  let messageTimer: NodeJS.Timeout | undefined;
  const close = () => socket.destroy();
  const resetIdle = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(close, tcpIdleTimeoutMs);
  };
  socket.on('close', () => {
    clearTimeout(idleTimer);
    clearTimeout(messageTimer);
  });
  socket.on('error', (error) => {
    reportError(error);
    close();
  });

  let paused = false;
  const answerPending = () => {
    while (pending.length >= 2 && !socket.destroyed) {
      if (socket.writableLength > TCP_WRITE_HIGH_WATER_BYTES) {
        paused = true;
        socket.pause();
        socket.once('drain', () => {
          paused = false;
          socket.resume();
          answerPending();
        });
        return;
      }
      const length = pending.readUInt16BE(0);
      if (pending.length < 2 + length) break;
      const message = pending.subarray(2, 2 + length);
      pending = pending.subarray(2 + length);
      clearTimeout(messageTimer);
      messageTimer = undefined;
      resetIdle();
      const reply = respond(message, socket.remoteAddress ?? '', 'tcp', context);
      if (reply) {
        const prefix = Buffer.alloc(2);
        prefix.writeUInt16BE(reply.length);
        socket.write(Buffer.concat([prefix, reply]));
      }
    }
    // A message has begun and not finished: it must finish within the message timeout of its first byte.
    if (pending.length > 0) messageTimer ??= setTimeout(close, tcpMessageTimeoutMs);
  };

  resetIdle();
  socket.on('data', (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    if (!paused) answerPending();
  });
}
