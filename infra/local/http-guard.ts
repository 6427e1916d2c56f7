/**
 * The one way a local stand-in listens for HTTP. `startGuardedHttpServer` binds
 * 127.0.0.1 only, refuses what a browser (or a page that rebinds a DNS name to
 * 127.0.0.1) can send, reads the body with a size limit, and turns every failure —
 * a request line Node parses but `URL` does not, a handler that throws, a socket
 * error — into an answer in the service's own error shape. No request can crash
 * the process, and a web page cannot change local state.
 *
 * Browser requests are told apart by what browsers always add and cannot be made
 * to leave out: an `Origin` header (every cross-origin fetch, every POST) or a
 * `Sec-Fetch-*` header (every request of a current browser), and a `Host` that is
 * not a loopback name (DNS rebinding). On top, the caller must prove it is a
 * program: an AWS Signature Version 4 `Authorization` header for the service (the
 * AWS SDK and CLI sign every call; a page cannot set that header cross-site
 * without a CORS preflight, which carries an Origin), or a custom header.
 *
 * A server whose callers are browsers — a page it serves itself, and that page's own
 * requests — names the caller `{ ownPage: true }` instead: reading only (GET, HEAD), a
 * `Host` of exactly `127.0.0.1:<port>` or `localhost:<port>` (DNS rebinding), an `Origin`
 * only when it is that same origin, and no request another site started (`Sec-Fetch-Site`
 * cross-site or same-site), except a top-level navigation (a link to the page).
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { TrafficManagerError } from '../../shared/errors.js';

const LOOPBACK_HOST = '127.0.0.1';

/** What a guarded server answers: status, headers and body. */
export interface HttpReply {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: string | Buffer;
}

/** A request that passed the guard. */
export interface GuardedRequest {
  readonly method: string;
  /** The path and query (an absolute-form request target is reduced to them). */
  readonly url: URL;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** Why the guard (or the handler) did not produce a normal answer. Codes follow AWS's common errors. */
const GUARD_ERROR = {
  /** The request line, target or framing is not valid HTTP (400). */
  InvalidRequest: 400,
  /** A browser request, or a Host that is not loopback (403). */
  AccessDenied: 403,
  /** No `Authorization` header (403). */
  MissingAuthenticationToken: 403,
  /** An `Authorization` header that is not a SigV4 signature for this service (403). */
  IncompleteSignature: 403,
  /** The custom header a control endpoint needs is missing (403). */
  MissingControlHeader: 403,
  /** A page server is asked to change something (405). */
  MethodNotAllowed: 405,
  /** Nothing at that path (404). */
  NotFound: 404,
  /** Body over the limit (413). */
  RequestEntityTooLarge: 413,
  /** The handler failed (500). */
  InternalFailure: 500,
} as const;
export type GuardErrorCode = keyof typeof GUARD_ERROR;

/** A request the guard answers itself; `code` is the AWS-style error code it answers with. */
export class HttpGuardError extends TrafficManagerError {
  override readonly name = 'HttpGuardError';
  readonly status: number;
  constructor(
    readonly code: GuardErrorCode,
    message: string,
  ) {
    super(message);
    this.status = GUARD_ERROR[code];
  }
}

/** Who may call, besides not being a browser. */
export type CallerProof =
  /** An AWS SigV4 `Authorization` header whose credential scope names this service (`route53`, `events`…). */
  | { readonly sigv4Service: string }
  /** A custom header (any non-empty value): a page cannot send one cross-site without a preflight. */
  | { readonly header: string }
  /** A browser showing a page this server serves: same origin, reading only. */
  | { readonly ownPage: true };

export interface GuardedHttpServerOptions {
  /** TCP port on 127.0.0.1. @default 0 (any free port) */
  readonly port?: number;
  readonly caller: CallerProof;
  /** @default 1 MiB */
  readonly maxBodyBytes?: number;
  readonly handle: (request: GuardedRequest) => HttpReply | Promise<HttpReply>;
  /** Renders a refusal or a failure in the service's error shape (it must not throw; if it does, a plain 500 goes out). */
  readonly errorReply: (error: HttpGuardError) => HttpReply;
  /** Handler failures (answered 500) and errors of the error renderer, for the log. @default - ignored */
  readonly onError?: (error: unknown) => void;
}

export type GuardedHttpServer = Awaited<ReturnType<typeof startGuardedHttpServer>>;

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;

/** `AWS4-HMAC-SHA256 Credential=KEY/20260101/us-east-1/route53/aws4_request, SignedHeaders=a;b, Signature=<64 hex>` */
const SIGV4 =
  /^AWS4-HMAC-SHA256 Credential=[A-Za-z0-9]+\/\d{8}\/[a-z0-9-]+\/([a-z0-9-]+)\/aws4_request, ?SignedHeaders=[a-z0-9-]+(?:;[a-z0-9-]+)*, ?Signature=[0-9a-f]{64}$/;
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** What the guard looks at besides the headers. */
export interface RequestFacts {
  readonly method: string;
  /** The local port the request came in on. */
  readonly port: number;
}

/** Refuses a browser request or a caller without proof; returns nothing when the request may pass. */
function refusal(
  headers: IncomingHttpHeaders,
  caller: CallerProof,
  facts: RequestFacts,
): HttpGuardError | undefined {
  if ('ownPage' in caller) return pageRefusal(headers, facts);
  if (headers.origin !== undefined)
    return new HttpGuardError('AccessDenied', 'Cross-site requests (with an Origin header) are refused');
  if (Object.keys(headers).some((name) => name.startsWith('sec-fetch-')))
    return new HttpGuardError('AccessDenied', 'Browser requests (with Sec-Fetch headers) are refused');
  const host = (headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
  if (!LOOPBACK_NAMES.has(host))
    return new HttpGuardError('AccessDenied', `Host '${headers.host ?? ''}' is not a loopback name`);
  if ('header' in caller) {
    const value = headers[caller.header.toLowerCase()];
    return value === undefined || value === ''
      ? new HttpGuardError('MissingControlHeader', `This endpoint needs the ${caller.header} header`)
      : undefined;
  }
  const authorization = headers.authorization;
  if (authorization === undefined)
    return new HttpGuardError('MissingAuthenticationToken', 'Missing Authentication Token');
  const scope = SIGV4.exec(authorization);
  if (scope === null)
    return new HttpGuardError(
      'IncompleteSignature',
      'The Authorization header is not an AWS Signature Version 4 (sign the request with an AWS SDK or the AWS CLI)',
    );
  if (scope[1] !== caller.sigv4Service)
    return new HttpGuardError(
      'IncompleteSignature',
      `Credential should be scoped to correct service: '${caller.sigv4Service}'`,
    );
  return undefined;
}

/** `{ ownPage: true }`: see the module comment. */
function pageRefusal(
  headers: IncomingHttpHeaders,
  { method, port }: RequestFacts,
): HttpGuardError | undefined {
  if (method !== 'GET' && method !== 'HEAD')
    return new HttpGuardError('MethodNotAllowed', `${method} is refused: this page only reads (GET)`);
  const host = (headers.host ?? '').toLowerCase();
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`)
    return new HttpGuardError(
      'AccessDenied',
      `Host '${headers.host ?? ''}' is refused: open the page as http://127.0.0.1:${port}/`,
    );
  if (headers.origin !== undefined && headers.origin.toLowerCase() !== `http://${host}`)
    return new HttpGuardError('AccessDenied', `Requests from another origin (${headers.origin}) are refused`);
  const site = headers['sec-fetch-site'];
  if ((site === 'cross-site' || site === 'same-site') && headers['sec-fetch-mode'] !== 'navigate')
    return new HttpGuardError('AccessDenied', 'Requests another site started are refused');
  return undefined;
}

/** The request target as a URL on loopback; absolute-form targets keep only path and query. */
function targetOf(raw: string | undefined): URL {
  const target = raw ?? '';
  try {
    if (target.startsWith('/')) return new URL(target, `http://${LOOPBACK_HOST}`);
    const absolute = new URL(target);
    if (absolute.protocol !== 'http:') throw new TypeError('not http');
    return new URL(`${absolute.pathname}${absolute.search}`, `http://${LOOPBACK_HOST}`);
  } catch {
    throw new HttpGuardError(
      'InvalidRequest',
      `Invalid request target: ${JSON.stringify(target.slice(0, 200))}`,
    );
  }
}

async function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit)
    throw new HttpGuardError('RequestEntityTooLarge', `Request body larger than ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit)
      throw new HttpGuardError('RequestEntityTooLarge', `Request body larger than ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function startGuardedHttpServer(options: GuardedHttpServerOptions) {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const report = (error: unknown) => {
    try {
      options.onError?.(error);
    } catch {
      // a failing logger must not take the server down either
    }
  };
  const errorReply = (error: HttpGuardError): HttpReply => {
    try {
      return options.errorReply(error);
    } catch (renderError) {
      report(renderError);
      return { status: 500, headers: { 'content-type': 'text/plain' }, body: 'internal error\n' };
    }
  };

  async function answer(request: IncomingMessage): Promise<HttpReply> {
    try {
      const url = targetOf(request.url);
      const refused = refusal(request.headers, options.caller, {
        method: request.method ?? 'GET',
        port: request.socket.localPort ?? 0,
      });
      if (refused !== undefined) throw refused;
      const body = await readBody(request, maxBodyBytes);
      return await options.handle({ method: request.method ?? 'GET', url, headers: request.headers, body });
    } catch (error) {
      if (error instanceof HttpGuardError) return errorReply(error);
      report(error);
      return errorReply(
        new HttpGuardError('InternalFailure', `Internal failure: ${(error as Error)?.message ?? error}`),
      );
    }
  }

  const send = (response: ServerResponse, reply: HttpReply, close: boolean) => {
    if (response.headersSent || response.destroyed) return;
    response.writeHead(reply.status, { ...reply.headers, ...(close ? { connection: 'close' } : {}) });
    response.end(reply.body);
  };

  const server = createServer(
    { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
    (request, response) => {
      answer(request)
        .then((reply) => send(response, reply, reply.status >= 400 && !request.complete))
        .catch((error: unknown) => {
          report(error);
          response.destroy();
        });
    },
  );
  server.maxConnections = 64; // further connections wait in the kernel's backlog
  // Node's parser rejected the bytes (not HTTP, bad header, too large…): answer in the service's shape, then close.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
    const reply = errorReply(
      new HttpGuardError('InvalidRequest', `Malformed HTTP request (${error.code ?? error.message})`),
    );
    const body = Buffer.isBuffer(reply.body) ? reply.body : Buffer.from(reply.body);
    const head = [
      `HTTP/1.1 ${reply.status} ${reply.status === 400 ? 'Bad Request' : 'Error'}`,
      ...Object.entries(reply.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
      `content-length: ${body.length}`,
      'connection: close',
    ].join('\r\n');
    socket.end(Buffer.concat([Buffer.from(`${head}\r\n\r\n`), body]));
  });
  server.on('error', report);

  await once(server.listen(options.port ?? 0, LOOPBACK_HOST), 'listening');
  const { port } = server.address() as AddressInfo;

  let stopping: Promise<void> | undefined;
  return {
    port,
    /** `http://127.0.0.1:<port>` */
    endpoint: `http://${LOOPBACK_HOST}:${port}`,
    stop: () => {
      stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopping;
    },
  };
}
