/**
 * The local Route 53 against requests no SDK sends: malformed request lines, browser
 * (cross-site) requests, unsigned requests and DNS-rebinding Host headers. Each gets an
 * answer in Route 53's `ErrorResponse` shape, nothing changes in the zone, and the
 * server keeps serving the real SDK client.
 */
import { ListResourceRecordSetsCommand, type Route53Client } from '@aws-sdk/client-route-53';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRoute53, type LocalRoute53 } from '../../infra/local/route53/server.js';
import { httpRequest, rawRequest, SIGNED_ROUTE53 } from '../support/raw-http.js';
import { route53Client } from '../../functions/shared/aws-clients.js';

let route53: LocalRoute53;
let client: Route53Client;
let port: number;
let zoneId: string;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

const SIGNED = SIGNED_ROUTE53;

const changeBody = `<?xml version="1.0" encoding="UTF-8"?>
<ChangeResourceRecordSetsRequest xmlns="https://route53.amazonaws.com/doc/2013-04-01/"><ChangeBatch><Changes><Change>
<Action>CREATE</Action><ResourceRecordSet><Name>evil.example.com</Name><Type>A</Type><TTL>60</TTL>
<ResourceRecords><ResourceRecord><Value>192.0.2.66</Value></ResourceRecord></ResourceRecords>
</ResourceRecordSet></Change></Changes></ChangeBatch></ChangeResourceRecordSetsRequest>`;

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  route53 = await startLocalRoute53();
  port = Number(new URL(route53.endpoint).port);
  zoneId = route53.createHostedZone('example.com');
  client = route53Client({
    endpoint: route53.endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    requestsPerSecond: 1000,
  });
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  client.destroy();
  await route53.stop();
});

async function stillServesTheSdk(): Promise<void> {
  const listed = await client.send(new ListResourceRecordSetsCommand({ HostedZoneId: zoneId }));
  expect(listed.ResourceRecordSets?.map((r) => r.Name)).not.toContain('evil.example.com.');
}

const errorCode = (body: string) => /<Code>([^<]*)<\/Code>/.exec(body)?.[1];

describe('requests the local Route 53 refuses, in its own error shape', () => {
  it.each([
    {
      name: 'a request line whose URL does not parse (GET http://[::1)',
      request: () => `GET http://[::1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
      status: 400,
      code: 'InvalidRequest',
    },
    {
      name: 'a browser page posting text/plain with a foreign Origin (cross-site)',
      request: () =>
        httpRequest(
          'POST',
          `/2013-04-01/hostedzone/${zoneId}/rrset`,
          port,
          { 'Content-Type': 'text/plain', Origin: 'http://evil.example', Authorization: SIGNED },
          changeBody,
        ),
      status: 403,
      code: 'AccessDenied',
    },
    {
      name: 'a browser request without Origin but with Sec-Fetch-Site (a form or image)',
      request: () =>
        httpRequest(
          'POST',
          `/2013-04-01/hostedzone/${zoneId}/rrset`,
          port,
          { 'Sec-Fetch-Site': 'cross-site', Authorization: SIGNED },
          changeBody,
        ),
      status: 403,
      code: 'AccessDenied',
    },
    {
      name: 'an unsigned request (no Authorization header)',
      request: () => httpRequest('POST', `/2013-04-01/hostedzone/${zoneId}/rrset`, port, {}, changeBody),
      status: 403,
      code: 'MissingAuthenticationToken',
    },
    {
      name: 'an Authorization header that is not an AWS Signature Version 4',
      request: () =>
        httpRequest(
          'POST',
          `/2013-04-01/hostedzone/${zoneId}/rrset`,
          port,
          { Authorization: 'Bearer x' },
          changeBody,
        ),
      status: 403,
      code: 'IncompleteSignature',
    },
    {
      name: 'a signature scoped to another service than route53',
      request: () =>
        httpRequest(
          'POST',
          `/2013-04-01/hostedzone/${zoneId}/rrset`,
          port,
          { Authorization: SIGNED.replace('/route53/', '/s3/') },
          changeBody,
        ),
      status: 403,
      code: 'IncompleteSignature',
    },
    {
      name: 'a Host header that is not loopback (DNS rebinding)',
      request: () =>
        httpRequest(
          'POST',
          `/2013-04-01/hostedzone/${zoneId}/rrset`,
          port,
          { Authorization: SIGNED },
          changeBody,
        ).replace(`Host: 127.0.0.1:${port}`, `Host: rebind.evil.example:${port}`),
      status: 403,
      code: 'AccessDenied',
    },
  ])('$name → $status $code, the zone unchanged', async ({ request, status, code }) => {
    const reply = await rawRequest(port, request());
    expect(reply.status).toBe(status);
    expect(reply.headers['content-type']).toBe('text/xml');
    expect(reply.body).toContain('<ErrorResponse');
    expect(errorCode(reply.body)).toBe(code);
    await stillServesTheSdk();
    expect(unhandled).toEqual([]);
  });

  it('a syntactically broken request (not HTTP at all) is answered 400 in the same shape', async () => {
    const reply = await rawRequest(port, '\u0000\u0001garbage\r\n\r\n');
    expect(reply.status).toBe(400);
    expect(errorCode(reply.body)).toBe('InvalidRequest');
    await stillServesTheSdk();
  });

  it('a signed request shaped like the SDK’s still works (the AWS CLI and SDK sign every call)', async () => {
    const reply = await rawRequest(
      port,
      httpRequest('GET', `/2013-04-01/hostedzone/${zoneId}`, port, { Authorization: SIGNED }),
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('<GetHostedZoneResponse');
  });
});
