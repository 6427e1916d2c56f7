/**
 * Creating the table on a busy DynamoDB Local: an attempt whose answer comes later than the
 * client's bound (4 s) may still have created the table; the SDK's retry then finds it. A
 * loopback proxy in front of the real DynamoDB Local holds the first CreateTable answer back.
 */
import { randomUUID } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoDbClient, HTTP_TIMEOUTS } from '../../functions/shared/aws-clients.js';
import { createTable } from '../../infra/local/table.js';
import { localClients } from '../support/dynamodb.js';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
let proxy: Server;
let proxyEndpoint: string;
let createTableCalls = 0;

beforeAll(async () => {
  const upstream = new URL(localClients().endpoint);
  proxy = createServer((req, res) => {
    const isCreate = String(req.headers['x-amz-target']).endsWith('.CreateTable');
    const holdMs = isCreate && createTableCalls++ === 0 ? HTTP_TIMEOUTS.requestTimeout + 500 : 0;
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          setTimeout(() => {
            if (res.destroyed) return;
            res.writeHead(answer.statusCode ?? 500, answer.headers).end(Buffer.concat(chunks));
          }, holdMs),
        );
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyEndpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
});

describe('createTable on a slow DynamoDB Local', () => {
  it('an attempt answered after the client gave up created the table: the retry that finds it is a success', async () => {
    const client = dynamoDbClient({ endpoint: proxyEndpoint, region: 'us-east-1', credentials });
    const tableName = `tm-slow-${randomUUID().slice(0, 8)}`;

    const { streamArn } = await createTable(client, tableName);

    expect(createTableCalls).toBeGreaterThanOrEqual(2);
    expect(streamArn).toContain(tableName);
  });

  it('a table that existed before the first attempt is still refused', async () => {
    const { dynamodb } = localClients();
    const tableName = `tm-taken-${randomUUID().slice(0, 8)}`;
    await createTable(dynamodb, tableName);
    await expect(createTable(dynamodb, tableName)).rejects.toThrow(/preexisting table/);
  });
});
