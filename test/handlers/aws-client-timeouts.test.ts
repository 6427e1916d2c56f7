/**
 * An AWS endpoint that accepts connections and never answers (DynamoDB Local stopped with
 * SIGSTOP, a stuck proxy) must not hold a handler or a `tm` command forever: clients from the
 * one factory bound every attempt, retry it as the production settings say, then fail with
 * the SDK's TimeoutError — which the retry layers and `tm local`'s store watch recognise.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand } from '@aws-sdk/client-dynamodb-streams';
import { PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { ListHostedZonesCommand } from '@aws-sdk/client-route-53';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { GetQueueUrlCommand } from '@aws-sdk/client-sqs';
import { GetParameterCommand } from '@aws-sdk/client-ssm';
import { GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { afterAll, describe, expect, it } from 'vitest';
import {
  cloudWatchClient,
  dynamoDbClient,
  dynamoDbStreamsClient,
  eventBridgeClient,
  HTTP_TIMEOUTS,
  route53Client,
  s3Client,
  secretsManagerClient,
  sqsClient,
  ssmClient,
  stsClient,
} from '../../functions/shared/aws-clients.js';
import { isTransientAwsError } from '../../functions/shared/retry.js';
import { isConnectionFailure } from '../../infra/local/state-store-watch.js';

const region = 'us-east-1';
const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };

/** A TCP server on loopback that reads every request and never writes a byte back. */
async function silentServer(): Promise<{
  endpoint: string;
  requests: () => number;
  close: () => Promise<void>;
}> {
  const sockets = new Set<Socket>();
  let requests = 0;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (chunk) => {
      // One HTTP request per request line (a body may arrive in the same or a later chunk).
      requests += (chunk.toString('latin1').match(/^POST |^GET /gm) ?? []).length;
    });
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const open: { close: () => Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

type Sendable = {
  send(command: unknown): Promise<unknown>;
  destroy(): void;
  config: { requestHandler: unknown };
};

/** Every client of the factory, a call it makes, and its attempts per call in production. */
const CLIENTS: readonly {
  name: string;
  attempts: number;
  client: (endpoint: string) => Sendable;
  command: () => unknown;
}[] = [
  {
    name: 'DynamoDB',
    attempts: 4,
    client: (endpoint) => dynamoDbClient({ endpoint, region, credentials }),
    command: () => new DescribeTableCommand({ TableName: 'tm' }),
  },
  {
    name: 'DynamoDB Streams',
    attempts: 4,
    client: (endpoint) => dynamoDbStreamsClient({ endpoint, region, credentials }),
    command: () => new DescribeStreamCommand({ StreamArn: 'arn:aws:dynamodb:us-east-1:1:table/tm/stream/x' }),
  },
  {
    name: 'SQS',
    attempts: 3,
    client: (endpoint) => sqsClient({ endpoint, region, credentials }),
    command: () => new GetQueueUrlCommand({ QueueName: 'tm' }),
  },
  {
    name: 'Secrets Manager',
    attempts: 3,
    client: (endpoint) => secretsManagerClient({ endpoint, region, credentials }),
    command: () => new GetSecretValueCommand({ SecretId: 'tm' }),
  },
  {
    name: 'SSM',
    attempts: 3,
    client: (endpoint) => ssmClient({ endpoint, region, credentials }),
    command: () => new GetParameterCommand({ Name: 'tm' }),
  },
  {
    name: 'STS',
    attempts: 3,
    client: (endpoint) => stsClient({ endpoint, region, credentials }),
    command: () => new GetCallerIdentityCommand({}),
  },
  {
    name: 'CloudWatch',
    attempts: 3,
    client: (endpoint) => cloudWatchClient({ endpoint, region, credentials }),
    command: () => new DescribeAlarmsCommand({ AlarmNames: ['tm'] }),
  },
  {
    name: 'EventBridge (its event sink is the retry layer)',
    attempts: 1,
    client: (endpoint) => eventBridgeClient({ endpoint, region, credentials }),
    command: () => new PutEventsCommand({ Entries: [{ Source: 'tm', DetailType: 't', Detail: '{}' }] }),
  },
  {
    name: 'S3',
    attempts: 3,
    client: (endpoint) => s3Client({ endpoint, region, credentials }),
    command: () => new GetObjectCommand({ Bucket: 'tm', Key: 'definitions.json' }),
  },
  {
    name: 'Route 53 (the zone gateway is the retry layer)',
    attempts: 1,
    client: (endpoint) => route53Client({ endpoint, credentials, requestsPerSecond: 100 }),
    command: () => new ListHostedZonesCommand({}),
  },
];

describe('AWS clients against an endpoint that accepts and never answers', () => {
  it.concurrent.each(CLIENTS)(
    '$name: each attempt times out, then the call fails with TimeoutError',
    async ({ attempts, client: build, command }) => {
      const server = await silentServer();
      open.push(server);
      const client = build(server.endpoint);
      try {
        const error = await client.send(command()).then(
          () => undefined,
          (e: unknown) => e as Error & { $metadata?: { attempts?: number } },
        );
        expect(error?.name).toBe('TimeoutError');
        expect(error?.message).toContain(`${HTTP_TIMEOUTS.requestTimeout} ms requestTimeout`);
        expect(server.requests()).toBe(attempts);
        // The handlers' retry layers retry it; tm local's store watch counts it as the store not answering.
        expect(isTransientAwsError(error)).toBe(true);
        expect(isConnectionFailure(error)).toBe(true);
        // Also as the probe logs it (String(error) drops the ETIMEDOUT code).
        expect(isConnectionFailure(String(error))).toBe(true);
        // The connection bound is set too (a connect that never completes cannot be made on loopback).
        const handler = client.config.requestHandler as { httpHandlerConfigs(): object };
        expect(handler.httpHandlerConfigs()).toMatchObject(HTTP_TIMEOUTS);
      } finally {
        client.destroy();
      }
    },
    // 4 attempts of 4 s plus the SDK's backoff; a generous bound for a loaded machine.
    60_000,
  );
});
