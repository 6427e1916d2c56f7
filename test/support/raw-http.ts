/**
 * HTTP as an attacker writes it: raw bytes over a TCP socket on loopback, and the reply
 * parsed just enough to assert on (status line, headers, body). Bounded in time.
 */
import { connect } from 'node:net';

export interface RawReply {
  /** 0 when the server closed without answering. */
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** An `Authorization` header shaped like SigV4 for Route 53 (the local stand-ins check its shape, not its signature). */
export const SIGNED_ROUTE53 =
  'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/route53/aws4_request, ' +
  'SignedHeaders=host;x-amz-date, Signature=' +
  'a'.repeat(64);

/** Sends `request` as is and reads until the server closes or `timeoutMs` passes. */
export function rawRequest(port: number, request: string | Buffer, timeoutMs = 5_000): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('connect', () => socket.end(request));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A server that resets after answering has still answered.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseReply(Buffer.concat(chunks).toString('latin1')));
    });
  });
}

export function parseReply(text: string): RawReply {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return { status: 0, headers: {}, body: text };
  const [statusLine = '', ...headerLines] = text.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = text.slice(end + 4);
  if (headers['transfer-encoding'] === 'chunked') body = unchunk(body);
  return { status, headers, body };
}

function unchunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    if (lineEnd === -1) return out;
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!(size > 0)) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

/** A request head (and body) in the usual shape, for tests that vary one part of it. */
export function httpRequest(
  method: string,
  path: string,
  port: number,
  headers: Readonly<Record<string, string>> = {},
  body = '',
): string {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body.length > 0 || method === 'POST') lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
