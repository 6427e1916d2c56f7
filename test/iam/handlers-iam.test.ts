/**
 * IAM proven, not asserted: every AWS call the evaluator, its tick and a probe region's
 * handler make against the local stack is recorded (SDK middleware on the factory's
 * clients) and evaluated with an IAM policy simulator against the role policies the CDK
 * app synthesizes for the same profiles. Every recorded call is allowed; the same calls
 * aimed at another hosted zone, a record name no profile owns, another table, or another
 * region's verdict are denied. The probe's header references are read from the local
 * Secrets Manager and SSM stand-ins: its role may read exactly those, and no other secret.
 */
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { ChangeResourceRecordSetsCommand, Route53Client } from '@aws-sdk/client-route-53';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProbeHandler } from '../../functions/probe/handler.js';
import { roundQueueName } from '../../infra/cdk/probe-names.js';
import { tickHandlerFromEnv } from '../../functions/probe/tick.js';
import { ENDPOINT_VARIABLE } from '../../functions/shared/aws-clients.js';
import {
  startLocalSecretsManager,
  type LocalSecretsManager,
} from '../../infra/local/secretsmanager/server.js';
import { startLocalParameterStore, type LocalParameterStore } from '../../infra/local/ssm/server.js';
import { endpointVerdictKey } from '../../shared/probe/target.js';
import type { ExternalEndpoint, Profile } from '../../shared/profile/types.js';
import { EnvironmentVariable as Env } from '../../shared/contracts/environment.js';
import { Keys } from '../../shared/state/keys.js';
import {
  definition,
  profilesFrom,
  REGIONS,
  SHOP_DEFINITION,
  startEvaluatorHarness,
  ZONE_ID,
} from '../evaluator/harness.js';
import { external, monitor, profile } from '../probe/worker.fixtures.js';
import { freshTable, handlerEnvironment } from '../support/dynamodb.js';
import { AwsCallRecorder } from '../support/iam/recorder.js';
import { requestsOf, type IamRequest } from '../support/iam/requests.js';
import { synthesizeRoles, verdicts } from '../support/iam/simulate.js';
import { startSqsStandIn, type SqsStandIn } from '../support/sqs.js';

/** The deployed handler; a new one is a new container's. */
let handler = createProbeHandler();

const DEPLOYMENT_TABLE = 'traffic-manager';
const OTHER_ZONE = 'Z99999999999999999999';

const definitions = [
  SHOP_DEFINITION,
  definition({
    name: 'office',
    trafficRoutingMethod: 'Subnet',
    endpoints: [
      { name: 'vpn', target: '192.0.2.30', subnets: ['10.0.0.0/8'] },
      { name: 'rest', target: '192.0.2.31' },
    ],
  }),
];

/** A Route 53 client of someone else's (not recorded: it is not one of our roles). */
async function someoneElseUpserts(endpoint: string, name: string, value: string) {
  const outsider = new Route53Client({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'someone', secretAccessKey: 'else' },
  });
  try {
    await outsider.send(
      new ChangeResourceRecordSetsCommand({
        HostedZoneId: ZONE_ID,
        ChangeBatch: {
          Changes: [
            {
              Action: 'UPSERT',
              ResourceRecordSet: { Name: name, Type: 'A', TTL: 30, ResourceRecords: [{ Value: value }] },
            },
          ],
        },
      }),
    );
  } finally {
    outsider.destroy();
  }
}

const allowedLines = (lines: string[]) => lines.filter((l) => !l.startsWith('Allowed '));
const deniedLines = (lines: string[]) => lines.filter((l) => l.startsWith('Allowed '));

describe('IAM: the evaluator and its tick', () => {
  const recorder = new AwsCallRecorder();
  let requests: IamRequest[];
  let profiles: Profile[];

  beforeAll(async () => {
    const h = await startEvaluatorHarness({ recorder, eventBridge: true });
    try {
      await h.heartbeat();
      await h.define(definitions);
      await h.allUp();
      await h.settle();
      await h.verdict('shop', 'east', 'down');
      await h.settle();
      // Someone else changes an owned name: the reconcile the tick requests puts it back.
      await someoneElseUpserts(h.route53.endpoint, 'shop.example.com', '203.0.113.66');
      await h.tick();
      await h.settle();
      expect(h.values('shop.example.com')).toEqual(['192.0.2.20']);
      requests = recorder.calls.flatMap((call) =>
        requestsOf(call, { account: '123456789012', tableNames: { [h.tableName]: DEPLOYMENT_TABLE } }),
      );
      profiles = profilesFrom(definitions);
    } finally {
      await h.stop();
    }
  });

  it('every call the evaluator and the tick made is allowed by their synthesized roles', async () => {
    const roles = synthesizeRoles(profiles, { homeRegion: 'us-east-1', probeRegions: REGIONS });
    const operations = new Set(requests.map((r) => `${r.principal} ${r.action}`));
    // The scenario reaches every kind of call the evaluator makes.
    for (const expected of [
      'evaluator dynamodb:Query',
      'evaluator dynamodb:BatchGetItem',
      'evaluator dynamodb:BatchWriteItem',
      'evaluator dynamodb:PutItem', // status + outbox, one transaction
      'evaluator dynamodb:DeleteItem', // a published outbox entry
      'evaluator events:PutEvents',
      'evaluator route53:ChangeResourceRecordSets',
      'evaluator route53:GetChange',
      'evaluator route53:ListResourceRecordSets',
      'evaluator route53:CreateCidrCollection',
      'evaluator route53:GetChange',
      'evaluatorTick dynamodb:BatchGetItem',
      'evaluatorTick dynamodb:PutItem',
    ])
      expect(operations).toContain(expected);
    // The reconcile's own item: the zone's outcome (the tick's request is a TICK item).
    const keysOf = (principal: string) =>
      requests
        .filter((r) => r.principal === principal)
        .flatMap((r) => (r.context['dynamodb:LeadingKeys'] as string[] | undefined) ?? []);
    expect(keysOf('evaluator')).toContain(`ZONE#${ZONE_ID}`);
    expect(allowedLines(await verdicts(roles, requests))).toEqual([]);
  });

  it('the same calls aimed at another hosted zone, a name no profile owns, another table or another bus are denied', async () => {
    const roles = synthesizeRoles(profiles, { homeRegion: 'us-east-1', probeRegions: REGIONS });
    const changes = requests.filter((r) => r.action === 'route53:ChangeResourceRecordSets');
    const zoneReads = requests.filter((r) => r.resource.includes(`hostedzone/${ZONE_ID}`));
    const tableCalls = requests.filter((r) => r.action.startsWith('dynamodb:'));
    const puts = requests.filter((r) => r.action === 'events:PutEvents');
    const retargeted: IamRequest[] = [
      ...zoneReads.map((r) => ({
        ...r,
        resource: r.resource.replace(ZONE_ID, OTHER_ZONE),
        describe: `${r.describe} → zone ${OTHER_ZONE}`,
      })),
      ...changes.map((r) => ({
        ...r,
        context: {
          ...r.context,
          'route53:ChangeResourceRecordSetsNormalizedRecordNames': ['www.example.com'],
        },
        describe: `${r.describe} → name www.example.com`,
      })),
      ...tableCalls.map((r) => ({
        ...r,
        resource: r.resource.replace(`table/${DEPLOYMENT_TABLE}`, 'table/someone-else'),
        describe: `${r.describe} → table someone-else`,
      })),
      ...puts.map((r) => ({
        ...r,
        resource: r.resource.replace(/event-bus\/.*$/, 'event-bus/default'),
        describe: `${r.describe} → bus default`,
      })),
    ];
    expect(puts.length).toBeGreaterThan(0);
    expect(changes.length).toBeGreaterThan(0);
    expect(deniedLines(await verdicts(roles, retargeted))).toEqual([]);
  });

  it('neither may write a probe region’s verdict or heartbeat, nor the config', async () => {
    const roles = synthesizeRoles(profiles, { homeRegion: 'us-east-1', probeRegions: REGIONS });
    const foreign = ['VERDICT#eu-west-1#HTTPS:x:443/#1', 'REGION#eu-west-1', 'CONFIG'].flatMap((pk) =>
      ['evaluator', 'evaluatorTick'].map((principal) => ({
        principal,
        action: 'dynamodb:PutItem',
        resource: `arn:aws:dynamodb:us-east-1:123456789012:table/${DEPLOYMENT_TABLE}`,
        context: { 'dynamodb:LeadingKeys': [pk] },
        describe: `${principal} PutItem ${pk}`,
      })),
    );
    expect(deniedLines(await verdicts(roles, foreign))).toEqual([]);
  });

  it('the evaluator may not request a reconcile (it would trigger itself), the tick may not write a zone’s reconcile', async () => {
    const roles = synthesizeRoles(profiles, { homeRegion: 'us-east-1', probeRegions: REGIONS });
    const crossed = [
      { principal: 'evaluator', pk: 'TICK' },
      { principal: 'evaluatorTick', pk: `ZONE#${ZONE_ID}` },
    ].map(({ principal, pk }) => ({
      principal,
      action: 'dynamodb:PutItem',
      resource: `arn:aws:dynamodb:us-east-1:123456789012:table/${DEPLOYMENT_TABLE}`,
      context: { 'dynamodb:LeadingKeys': [pk] },
      describe: `${principal} PutItem ${pk}`,
    }));
    expect(deniedLines(await verdicts(roles, crossed))).toEqual([]);
  });

  it('Lambda may send the evaluator’s discarded stream batches to its failure queue with the evaluator’s role, and nothing more there', async () => {
    const roles = synthesizeRoles(profiles, { homeRegion: 'us-east-1', probeRegions: REGIONS });
    const queue = JSON.stringify([...roles.policies.get('evaluator')!]).match(
      /arn:aws:sqs:us-east-1:123456789012:[A-Za-z0-9]*StreamFailures[A-Za-z0-9]*/,
    )?.[0];
    expect(queue).toBeDefined();
    const on = (action: string) => ({
      principal: 'evaluator',
      action,
      resource: queue!,
      context: {},
      describe: `evaluator ${action} ${queue}`,
    });
    expect(allowedLines(await verdicts(roles, [on('sqs:SendMessage')]))).toEqual([]);
    expect(deniedLines(await verdicts(roles, [on('sqs:GetQueueUrl'), on('sqs:GetQueueAttributes')]))).toEqual(
      [],
    );
  });

  it('the evaluator may not delete a CIDR collection: it creates and changes them, and deletes none', async () => {
    const roles = synthesizeRoles(profiles, { homeRegion: 'us-east-1', probeRegions: REGIONS });
    expect(requests.map((r) => r.action)).toContain('route53:CreateCidrCollection');
    const deletion = {
      principal: 'evaluator',
      action: 'route53:DeleteCidrCollection',
      resource: 'arn:aws:route53:::cidrcollection/c8c02a84-aaaa-bbbb-cccc-123456789012',
      context: {},
      describe: 'evaluator DeleteCidrCollection',
    };
    expect(deniedLines(await verdicts(roles, [deletion]))).toEqual([]);
  });
});

describe('IAM: each role’s DynamoDB actions', () => {
  /**
   * What each role's handlers never send (read from their code: functions/probe,
   * functions/evaluator, functions/config-writer; a transaction's Put/Update/Delete/Get
   * are authorized as PutItem/UpdateItem/DeleteItem/GetItem). Each is denied even on an
   * item the role owns; what each role does send is allowed by the recorded-call tests.
   */
  const NEVER_SENT = [
    {
      principal: 'probe:eu-west-1',
      pk: 'VERDICT#eu-west-1#HTTPS:x:443/#1',
      actions: ['GetItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
    },
    {
      principal: 'probe:eu-west-1',
      pk: 'REGION#eu-west-1',
      actions: ['GetItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
    },
    { principal: 'probeTick:eu-west-1', pk: 'CONFIG', actions: ['GetItem'] },
    { principal: 'configWriter', pk: 'CONFIG', actions: ['GetItem', 'BatchGetItem', 'BatchWriteItem'] },
    { principal: 'evaluator', pk: 'STATUS', actions: ['UpdateItem'] },
    { principal: 'evaluatorTick', pk: 'TICK', actions: ['BatchWriteItem'] },
    ...['probe:eu-west-1', 'probeTick:eu-west-1', 'configWriter', 'evaluator', 'evaluatorTick'].map(
      (principal) => ({
        principal,
        pk: 'CONFIG',
        actions: ['ConditionCheckItem', 'Scan'],
      }),
    ),
  ];

  it('an item action a role’s handlers never send is denied, even on the items it owns', async () => {
    const roles = synthesizeRoles(profilesFrom(definitions), {
      homeRegion: 'us-east-1',
      probeRegions: REGIONS,
    });
    const unused: IamRequest[] = NEVER_SENT.flatMap(({ principal, pk, actions }) =>
      actions.map((action) => ({
        principal,
        action: `dynamodb:${action}`,
        resource: `arn:aws:dynamodb:us-east-1:123456789012:table/${DEPLOYMENT_TABLE}`,
        context: { 'dynamodb:LeadingKeys': [pk] },
        describe: `${principal} ${action} ${pk}`,
      })),
    );
    expect(deniedLines(await verdicts(roles, unused))).toEqual([]);
  });
});

describe('IAM: a probe region’s handler', () => {
  const REGION = 'eu-west-1';
  const SECRET = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:shop/probe-token-AbCdEf';
  const OTHER_SECRET = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:shop/other-QwErTy';
  const PARAMETER = '/shop/api-key';
  const recorder = new AwsCallRecorder();
  const tickRecorder = new AwsCallRecorder();
  let requests: IamRequest[];
  let tickRequests: IamRequest[];
  let shop: Profile;
  let server: Server;
  let sqs: SqsStandIn;
  let secretsManager: LocalSecretsManager;
  let parameterStore: LocalParameterStore;
  const sent: (string | undefined)[] = [];
  const saved = { ...process.env };

  beforeAll(async () => {
    server = createServer((req, res) => {
      sent.push(`${req.headers.authorization} ${req.headers['x-api-key']}`);
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    secretsManager = await startLocalSecretsManager({ [SECRET]: 'Bearer t0ken' });
    parameterStore = await startLocalParameterStore({ [PARAMETER]: 'k-42' });
    const table = await freshTable();
    shop = profile('shop', {
      monitorConfig: monitor({
        port,
        intervalInSeconds: 10,
        timeoutInSeconds: 5,
        toleratedNumberOfFailures: 0,
        customHeaders: [
          { name: 'Authorization', value: { secret: SECRET } },
          { name: 'X-Api-Key', value: { parameter: PARAMETER } },
        ],
      }),
      endpoints: [external('east', '127.0.0.1', { targetKind: 'ipv4' })],
    });
    await table.dynamodb.send(
      new PutItemCommand({
        TableName: table.tableName,
        Item: marshall({
          ...Keys.config('shop'),
          name: 'shop',
          definition: JSON.stringify(shop),
          version: '1',
          defaultProbeRegions: [REGION],
        }),
      }),
    );
    Object.assign(process.env, {
      ...handlerEnvironment(table, REGION),
      [ENDPOINT_VARIABLE.secretsManager]: secretsManager.endpoint,
      [ENDPOINT_VARIABLE.ssm]: parameterStore.endpoint,
    });
    handler = createProbeHandler(recorder.clients(`probe:${REGION}`));
    const event: SQSEvent = {
      Records: [
        {
          messageId: 'm-1',
          receiptHandle: 'r-1',
          body: JSON.stringify({ dueAt: Date.now(), roundPeriodMs: 10_000 }),
          attributes: {
            ApproximateReceiveCount: '1',
            SentTimestamp: String(Date.now()),
            SenderId: 'tick',
            ApproximateFirstReceiveTimestamp: String(Date.now()),
          },
          messageAttributes: {},
          md5OfBody: '',
          eventSource: 'aws:sqs',
          eventSourceARN: `arn:aws:sqs:${REGION}:123456789012:rounds`,
          awsRegion: REGION,
        },
      ],
    };
    expect((await handler(event)).batchItemFailures).toEqual([]);
    const setting = { account: '123456789012', tableNames: { [table.tableName]: DEPLOYMENT_TABLE } };
    requests = recorder.calls.flatMap((call) => requestsOf(call, setting));
    // The region's probe tick, as deployed (in its region, the table in the home region), plans the next minute's rounds.
    sqs = await startSqsStandIn(roundQueueName(DEPLOYMENT_TABLE));
    Object.assign(process.env, {
      AWS_REGION: REGION,
      [Env.tableRegion]: 'us-east-1',
      [Env.probeRegions]: REGION,
      [Env.roundQueueUrl]: sqs.queueUrl,
      [ENDPOINT_VARIABLE.sqs]: sqs.endpoint,
    });
    expect(
      (await tickHandlerFromEnv(tickRecorder.clients(`probeTick:${REGION}`))()).enqueued.length,
    ).toBeGreaterThan(0);
    tickRequests = tickRecorder.calls.flatMap((call) => requestsOf(call, setting));
  });
  afterAll(async () => {
    process.env = saved;
    await sqs?.stop();
    await new Promise((resolve) => server.close(resolve));
    await secretsManager?.stop();
    await parameterStore?.stop();
  });

  const withZone = (p: Profile): Profile => ({ ...p, dnsConfig: { ...p.dnsConfig, hostedZoneId: ZONE_ID } });

  it('every call it made is allowed by the probe role of its region', async () => {
    const roles = synthesizeRoles([withZone(shop)], {
      homeRegion: 'us-east-1',
      probeRegions: [REGION, 'us-east-1'],
    });
    const operations = new Set(requests.map((r) => r.action));
    for (const expected of [
      'dynamodb:Query',
      'dynamodb:BatchGetItem',
      'dynamodb:PutItem',
      'secretsmanager:GetSecretValue',
      'ssm:GetParameter',
      'kms:Decrypt',
    ])
      expect(operations).toContain(expected);
    expect(sent).toEqual(['Bearer t0ken k-42']);
    expect(requests.some((r) => JSON.stringify(r.context).includes(`VERDICT#${REGION}#`))).toBe(true);
    expect(allowedLines(await verdicts(roles, requests))).toEqual([]);
  });

  it('every call its probe tick made is allowed by the probe tick role of its region', async () => {
    const roles = synthesizeRoles([withZone(shop)], {
      homeRegion: 'us-east-1',
      probeRegions: [REGION, 'us-east-1'],
    });
    const operations = new Set(tickRequests.map((r) => r.action));
    for (const expected of ['dynamodb:Query', 'dynamodb:BatchGetItem', 'sqs:SendMessage'])
      expect(operations).toContain(expected);
    expect(allowedLines(await verdicts(roles, tickRequests))).toEqual([]);
  });

  it('its probe tick may only send to its round queues: reading their URLs or attributes is denied', async () => {
    const roles = synthesizeRoles([withZone(shop)], {
      homeRegion: 'us-east-1',
      probeRegions: [REGION, 'us-east-1'],
    });
    const [send] = tickRequests.filter((r) => r.action === 'sqs:SendMessage');
    const unused = ['sqs:GetQueueUrl', 'sqs:GetQueueAttributes'].map((action) => ({
      ...send!,
      action,
      describe: `probeTick ${action} ${send!.resource}`,
    }));
    expect(deniedLines(await verdicts(roles, unused))).toEqual([]);
  });

  it('the same writes as another region’s verdict or heartbeat, or on another table, are denied', async () => {
    const roles = synthesizeRoles([withZone(shop)], {
      homeRegion: 'us-east-1',
      probeRegions: [REGION, 'us-east-1'],
    });
    const targetKey = endpointVerdictKey(shop, shop.endpoints[0] as ExternalEndpoint);
    const writes = requests.filter((r) => r.action === 'dynamodb:PutItem');
    const forged: IamRequest[] = [
      ...writes.map((r) => ({
        ...r,
        context: { 'dynamodb:LeadingKeys': [Keys.verdict(targetKey, 'us-east-1').pk] },
        describe: `${r.describe} → us-east-1's verdict`,
      })),
      ...writes.map((r) => ({
        ...r,
        context: { 'dynamodb:LeadingKeys': [Keys.heartbeat('us-east-1').pk] },
        describe: `${r.describe} → us-east-1's heartbeat`,
      })),
      ...['STATUS', 'CONFIG', 'TICK'].map((pk) => ({
        ...writes[0]!,
        context: { 'dynamodb:LeadingKeys': [pk] },
        describe: `probe PutItem ${pk}`,
      })),
      ...requests
        .filter((r) => r.action.startsWith('dynamodb:'))
        .map((r) => ({
          ...r,
          resource: r.resource.replace(`table/${DEPLOYMENT_TABLE}`, 'table/someone-else'),
          describe: `${r.describe} → table someone-else`,
        })),
    ];
    expect(writes.length).toBeGreaterThan(0);
    expect(deniedLines(await verdicts(roles, forged))).toEqual([]);
  });

  it('its role reads exactly the referenced secret and parameter: another secret or parameter, and kms:Decrypt other than through those services there, are denied', async () => {
    const roles = synthesizeRoles([withZone(shop)], {
      homeRegion: 'us-east-1',
      probeRegions: [REGION, 'us-east-1'],
    });
    const reads = requests.filter((r) => !r.action.startsWith('dynamodb:'));
    const secretRead = reads.find((r) => r.action === 'secretsmanager:GetSecretValue')!;
    const decryptions = reads.filter((r) => r.action === 'kms:Decrypt');
    const otherParameter = 'arn:aws:ssm:us-east-1:123456789012:parameter/shop/other';
    const forged: IamRequest[] = [
      { ...secretRead, resource: OTHER_SECRET, describe: `GetSecretValue ${OTHER_SECRET}` },
      ...reads
        .filter((r) => r.action === 'ssm:GetParameter')
        .map((r) => ({ ...r, resource: otherParameter, describe: `GetParameter ${otherParameter}` })),
      ...decryptions.map((r) => ({ ...r, context: {}, describe: `${r.describe} → called directly` })),
      ...decryptions.map((r) => ({
        ...r,
        context: { 'kms:ViaService': `s3.${REGION}.amazonaws.com` },
        describe: `${r.describe} → through S3`,
      })),
      ...decryptions.map((r) => ({
        ...r,
        context: {
          'kms:ViaService': String(r.context['kms:ViaService']).replace(
            /\.[a-z0-9-]+\.amazonaws/,
            '.ap-south-1.amazonaws',
          ),
        },
        describe: `${r.describe} → through another region's service`,
      })),
    ];
    expect(decryptions).toHaveLength(2);
    expect(deniedLines(await verdicts(roles, forged))).toEqual([]);
  });
});
