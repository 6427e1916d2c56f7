/**
 * A loopback stand-in for the one S3 call the product makes: GetObject (the config writer
 * reads the definitions asset). There is no local S3 here, so this speaks the call's wire
 * protocol — `GET /<bucket>/<key>` path-style, the object as the body with its ETag, and S3's
 * XML errors (`NoSuchBucket`, `NoSuchKey` 404; an unsigned request `AccessDenied` 403; any
 * other method `MethodNotAllowed` 405) — and nothing else. Listens on 127.0.0.1, port 0.
 */
import { createHash } from 'node:crypto';
import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalS3 {
  /** `http://127.0.0.1:<port>`: the S3 client's endpoint (AWS_ENDPOINT_URL_S3). */
  readonly endpoint: string;
  /** Adds or replaces an object. */
  put(bucket: string, key: string, body: string): void;
  /** The `bucket/key` of every GetObject that arrived, in order. */
  readonly gets: string[];
  close(): Promise<void>;
}

export async function startLocalS3(): Promise<LocalS3> {
  const buckets = new Map<string, Map<string, Buffer>>();
  const gets: string[] = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const [, bucket = '', ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const resource = `/${bucket}/${key}`;
    if (request.method !== 'GET')
      return error(
        response,
        405,
        'MethodNotAllowed',
        'The specified method is not allowed against this resource.',
        resource,
      );
    if (!/^AWS4-HMAC-SHA256 Credential=/.test(request.headers.authorization ?? ''))
      return error(response, 403, 'AccessDenied', 'Access Denied', resource);
    const objects = buckets.get(decodeURIComponent(bucket));
    if (objects === undefined)
      return error(response, 404, 'NoSuchBucket', 'The specified bucket does not exist', resource);
    const body = objects.get(key);
    if (body === undefined)
      return error(response, 404, 'NoSuchKey', 'The specified key does not exist.', resource);
    gets.push(`${bucket}/${key}`);
    response.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': body.length,
      ETag: `"${createHash('md5').update(body).digest('hex')}"`,
      'Last-Modified': new Date(0).toUTCString(),
    });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    put(bucket, key, body) {
      const objects = buckets.get(bucket) ?? new Map<string, Buffer>();
      objects.set(key, Buffer.from(body));
      buckets.set(bucket, objects);
    },
    gets,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function error(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  resource: string,
): void {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><Resource>${resource}</Resource><RequestId>local</RequestId></Error>`;
  response.writeHead(status, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(xml) });
  response.end(xml);
}
