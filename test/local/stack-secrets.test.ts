/**
 * Header secrets through the whole local stack: a profile whose Authorization header is a
 * Secrets Manager reference and whose X-Api-Key is an SSM parameter reference. The probe
 * workers read them from the local stand-ins and the loopback backend receives the values;
 * a reference the stand-in does not hold fails its checks with reason "secret". Then every
 * place a value could leak is searched for it: a scan of the whole table, every line the
 * stack logs, every event, and `tm status` (human and JSON) — zero hits.
 */
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoDbClient } from '../../functions/shared/aws-clients.js';
import { localLog } from '../../infra/cli/local-log.js';
import { startLocalStack, type LocalStack } from '../../infra/local/stack.js';
import { parseDefinitions, type MonitorConfigInput } from '../support/profile-api.js';
import { eventually } from '../support/eventually.js';
import { stackStatuses } from '../support/stack-statuses.js';
import { startLoopbackBackend, type LoopbackBackend } from '../support/loopback-backend.js';
import { profileDefinition } from '../support/profiles.js';
import { tmAgainstTable } from '../support/tm.js';

const SECRET = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:shop/probe-token-AbCdEf';
const MISSING = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:shop/missing-QwErTy';
const SECRET_VALUE = 'Bearer local-secret-7f3a9c';
const PARAMETER_VALUE = 'k-local-parameter-4d2e8b';
const BACKEND = '127.0.0.31';
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

const received: { authorization?: string; apiKey?: string }[] = [];
const logged: string[] = [];
let backend: LoopbackBackend;
let stack: LocalStack;

describe('header secrets in the local stack', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    backend = await startLoopbackBackend(BACKEND, (req, res) => {
      received.push({ authorization: req.headers.authorization, apiKey: req.headers['x-api-key'] as string });
      res.writeHead(req.headers.authorization === SECRET_VALUE ? 200 : 401).end();
    });
    const monitorConfig = (authorization: string): MonitorConfigInput => ({
      port: backend.port,
      intervalInSeconds: 10,
      timeoutInSeconds: 5,
      toleratedNumberOfFailures: 0,
      customHeaders: [
        { name: 'Authorization', value: { secret: authorization } },
        { name: 'X-Api-Key', value: { parameter: '/shop/api-key' } },
      ],
    });
    const parsed = parseDefinitions(
      ['shop', 'broken'].map((name) =>
        profileDefinition({
          name,
          dnsConfig: { ttl: 5 },
          monitorConfig: monitorConfig(name === 'shop' ? SECRET : MISSING),
          endpoints: [{ name: 'a', target: BACKEND }],
        }),
      ),
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    stack = await startLocalStack({
      profiles: parsed.profiles,
      dnsPort: 0,
      timeScale: 0.2,
      log: (line) => logged.push(line),
      ...localLog((line) => logged.push(line)),
      secrets: { secrets: { [SECRET]: SECRET_VALUE }, parameters: { '/shop/api-key': PARAMETER_VALUE } },
    });
    await stack.published; // DNS answers SERVFAIL until the first publish
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await backend?.close();
  });

  it('the backend receives the resolved values; a missing secret fails with reason "secret" and is never sent', async () => {
    const statuses = await eventually(
      () => stackStatuses(stack),
      (s) =>
        s.get('shop')?.report.endpoints[0]?.status === 'Online' &&
        s.get('broken')?.report.endpoints[0]?.status === 'Degraded',
      30_000,
    );
    expect(received.length).toBeGreaterThan(0);
    for (const request of received)
      expect(request).toEqual({ authorization: SECRET_VALUE, apiKey: PARAMETER_VALUE });
    expect(JSON.stringify(statuses.get('broken'))).toContain(
      `secret ${MISSING} does not exist (ResourceNotFoundException)`,
    );
    expect(logged.join('\n')).toContain(`secret ${MISSING} (ResourceNotFoundException)`);
  });

  it('no value in the table, the log lines, the events or tm status', async () => {
    // Arrange: the statuses above have been written; tm status reads them through the AWS path.
    const human = await tmAgainstTable(stack, 'status');
    const json = await tmAgainstTable(stack, 'status', '--json');
    const dynamodb = dynamoDbClient({ endpoint: stack.dynamodbEndpoint, region: 'us-east-1', credentials });
    const items = (await dynamodb.send(new ScanCommand({ TableName: stack.tableName, ConsistentRead: true })))
      .Items;

    // Assess
    expect(items?.length).toBeGreaterThan(0);
    expect(stack.allEvents.length).toBeGreaterThan(0);
    expect(logged.length).toBeGreaterThan(0);
    expect([human.code, json.code]).toEqual([0, 0]);
    const places = {
      table: JSON.stringify(items),
      log: logged.join('\n'),
      events: JSON.stringify(stack.allEvents),
      status: human.stdout + human.stderr + json.stdout + json.stderr,
    };
    // The references are there; the values nowhere.
    expect(places.table).toContain(SECRET);
    for (const [place, text] of Object.entries(places)) {
      for (const value of [SECRET_VALUE, PARAMETER_VALUE, 'local-secret', 'local-parameter'])
        expect({ place, hit: text.includes(value) }).toEqual({ place, hit: false });
    }
  });
});
