import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProbeHandler } from '../../functions/probe/handler.js';
import { roundDueAtOf } from '../../shared/probe/round-schedule.js';
import { endpointVerdictKey } from '../../shared/probe/target.js';
import type { ExternalEndpoint } from '../../shared/profile/types.js';
import { Keys } from '../../shared/state/keys.js';
import { freshTable, handlerEnvironment, putProfiles } from '../support/dynamodb.js';
import { logLinesOf, powertoolsLine } from '../support/log-lines.js';
import { external, monitor, profile } from './worker.fixtures.js';

/** The deployed handler; a new one is a new container's. */
let handler = createProbeHandler();

const REGION = 'eu-west-1';
const PERIOD = 10_000;

function sqsEvent(...bodies: string[]): SQSEvent {
  const records = bodies.map((body, i): SQSRecord => ({
    messageId: `m-${i}`,
    receiptHandle: `r-${i}`,
    body,
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: String(Date.now()),
      SenderId: 'tick',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-west-1:123456789012:rounds',
    awsRegion: REGION,
  }));
  return { Records: records };
}
const round = (dueAt: number) => JSON.stringify({ dueAt, roundPeriodMs: PERIOD });

describe('probe round handler (synthetic SQS events, DynamoDB Local, a loopback HTTP backend)', () => {
  let server: Server;
  let healthy = true;
  let tableName: string;
  let dynamodb: Awaited<ReturnType<typeof freshTable>>['dynamodb'];
  let targetKey: string;
  const saved = { ...process.env };
  let firstDueAt = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.statusCode = healthy ? 200 : 503;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const table = await freshTable();
    ({ tableName, dynamodb } = table);
    const shop = profile('shop', {
      monitorConfig: monitor({
        port,
        intervalInSeconds: 10,
        timeoutInSeconds: 5,
        toleratedNumberOfFailures: 0,
      }),
      endpoints: [external('east', '127.0.0.1', { targetKind: 'ipv4' })],
    });
    targetKey = endpointVerdictKey(shop, shop.endpoints[0] as ExternalEndpoint);
    await putProfiles(table, [shop], [REGION]);
    Object.assign(process.env, handlerEnvironment(table, REGION));
    handler = createProbeHandler();
  });

  afterAll(async () => {
    process.env = saved;
    await new Promise((resolve) => server.close(resolve));
  });

  const stored = async (key: { pk: string; sk: string }) => {
    const got = await dynamodb.send(new GetItemCommand({ TableName: tableName, Key: marshall(key) }));
    return got.Item === undefined ? undefined : unmarshall(got.Item);
  };

  it('a round message probes the region’s targets and writes the first verdict and the heartbeat', async () => {
    // Act
    firstDueAt = roundDueAtOf(Date.now(), PERIOD);
    const response = await handler(sqsEvent(round(firstDueAt)));
    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect(await stored(Keys.verdict(targetKey, REGION))).toMatchObject({ verdict: 'up', region: REGION });
    expect(await stored(Keys.heartbeat(REGION))).toMatchObject({
      region: REGION,
      targets: 1,
      periodMs: 60_000,
    });
  });

  it('a duplicate delivery, a round a whole period late and a message that is not a round are acknowledged and skipped', async () => {
    // Prepare
    healthy = false;
    // Act
    let response: Awaited<ReturnType<typeof handler>> | undefined;
    const lines = await logLinesOf(
      async () =>
        (response = await handler(sqsEvent(round(firstDueAt), round(firstDueAt - 2 * PERIOD), 'garbage'))),
    );
    // Assess: nothing was probed, so the endpoint's failure is not noticed yet; each skip is logged by Powertools
    expect(response).toEqual({ batchItemFailures: [] });
    expect(lines).toContainEqual(
      expect.objectContaining(powertoolsLine('INFO', 'skipping a round already run')),
    );
    expect(lines).toContainEqual(
      expect.objectContaining(powertoolsLine('WARN', 'ignoring a message that is not a round')),
    );
    expect((await stored(Keys.verdict(targetKey, REGION)))?.verdict).toBe('up');
    healthy = true;
  });

  it('a new container continues from the table, and a failing backend turns the region down in that round (tolerated 0)', async () => {
    // Prepare
    handler = createProbeHandler();
    healthy = false;
    // Act
    await handler(sqsEvent(round(roundDueAtOf(Date.now(), PERIOD))));
    // Assess
    expect(await stored(Keys.verdict(targetKey, REGION))).toMatchObject({
      verdict: 'down',
      reason: 'status',
    });
    healthy = true;
  });
});
