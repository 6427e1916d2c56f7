/**
 * The local Route 53's health checks through the production Route 53 client:
 * each operation, each refusal with its code and HTTP status, the quota, the
 * status each kind takes from the alarms, records that name a health check,
 * and the route53-api fault.
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_CreateHealthCheck.html
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_HealthCheckConfig.html
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_DeleteHealthCheck.html
 */
import {
  ChangeResourceRecordSetsCommand,
  CreateHealthCheckCommand,
  DeleteHealthCheckCommand,
  GetHealthCheckCommand,
  GetHealthCheckStatusCommand,
  ListHealthChecksCommand,
  ListResourceRecordSetsCommand,
  UpdateHealthCheckCommand,
  type HealthCheckConfig,
  type Route53Client,
} from '@aws-sdk/client-route-53';
import { afterAll, describe, expect, it } from 'vitest';
import { route53Client } from '../../functions/shared/aws-clients.js';
import {
  startLocalRoute53,
  type LocalRoute53,
  type LocalRoute53Options,
} from '../../infra/local/route53/server.js';
import { fakeAlarmStates, type FakeAlarmStates } from '../support/alarm-states.js';
import { httpRequest, rawRequest, SIGNED_ROUTE53 } from '../support/raw-http.js';

const started: LocalRoute53[] = [];
const clients: Route53Client[] = [];

async function start(options: LocalRoute53Options = {}): Promise<{
  route53: LocalRoute53;
  client: Route53Client;
  alarms: FakeAlarmStates;
}> {
  const alarms = fakeAlarmStates();
  const route53 = await startLocalRoute53({ alarmStates: alarms, healthCheckTickMs: 0, ...options });
  const client = route53Client({
    endpoint: route53.endpoint,
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    requestsPerSecond: 1000,
  });
  started.push(route53);
  clients.push(client);
  return { route53, client, alarms };
}

afterAll(async () => {
  for (const client of clients) client.destroy();
  await Promise.all(started.map((route53) => route53.stop()));
});

async function failure(
  promise: Promise<unknown>,
): Promise<{ name: string; message: string; status?: number }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { name: string; message: string; $metadata?: { httpStatusCode?: number } };
    return {
      name: e.name,
      message: e.message,
      ...(e.$metadata?.httpStatusCode === undefined ? {} : { status: e.$metadata.httpStatusCode }),
    };
  }
  throw new Error('expected the request to fail');
}

const alarmConfig = (name: string, extra: Partial<HealthCheckConfig> = {}): HealthCheckConfig => ({
  Type: 'CLOUDWATCH_METRIC',
  AlarmIdentifier: { Region: 'eu-west-1', Name: name },
  InsufficientDataHealthStatus: 'LastKnownStatus',
  ...extra,
});

async function createCheck(
  client: Route53Client,
  reference: string,
  config: HealthCheckConfig,
): Promise<string> {
  const created = await client.send(
    new CreateHealthCheckCommand({ CallerReference: reference, HealthCheckConfig: config }),
  );
  return created.HealthCheck?.Id ?? '';
}

describe('CreateHealthCheck, GetHealthCheck, ListHealthChecks', () => {
  it('creates a CLOUDWATCH_METRIC check (201, version 1) and gets it back', async () => {
    // Prepare
    const { client } = await start();

    // Act
    const created = await client.send(
      new CreateHealthCheckCommand({ CallerReference: 'ref-1', HealthCheckConfig: alarmConfig('vote-a') }),
    );
    const fetched = await client.send(new GetHealthCheckCommand({ HealthCheckId: created.HealthCheck?.Id }));

    // Assess
    expect(created.$metadata.httpStatusCode).toBe(201);
    expect(created.Location).toMatch(/\/2013-04-01\/healthcheck\/[0-9a-f-]{36}$/);
    expect(fetched.HealthCheck).toMatchObject({
      Id: created.HealthCheck?.Id,
      CallerReference: 'ref-1',
      HealthCheckVersion: 1,
      HealthCheckConfig: {
        Type: 'CLOUDWATCH_METRIC',
        AlarmIdentifier: { Region: 'eu-west-1', Name: 'vote-a' },
        InsufficientDataHealthStatus: 'LastKnownStatus',
        Inverted: false,
        Disabled: false,
      },
    });
  });

  it('returns the existing check for the same CallerReference and settings; HealthCheckAlreadyExists (409) for other settings', async () => {
    // Prepare
    const { client } = await start();
    const first = await createCheck(client, 'same-ref', alarmConfig('vote-a'));

    // Act
    const again = await createCheck(client, 'same-ref', alarmConfig('vote-a'));
    const other = await failure(createCheck(client, 'same-ref', alarmConfig('vote-b')));

    // Assess
    expect(again).toBe(first);
    expect(other).toMatchObject({ name: 'HealthCheckAlreadyExists', status: 409 });
  });

  it("refuses a deleted check's CallerReference with HealthCheckAlreadyExists", async () => {
    // Prepare
    const { client } = await start();
    const id = await createCheck(client, 'reused', alarmConfig('vote-a'));
    await client.send(new DeleteHealthCheckCommand({ HealthCheckId: id }));

    // Act
    const rejected = await failure(createCheck(client, 'reused', alarmConfig('vote-a')));

    // Assess
    expect(rejected).toMatchObject({ name: 'HealthCheckAlreadyExists', status: 409 });
  });

  it('creates a CALCULATED check over alarm checks', async () => {
    // Prepare
    const { client } = await start();
    const children = [
      await createCheck(client, 'c1', alarmConfig('a1')),
      await createCheck(client, 'c2', alarmConfig('a2')),
    ];

    // Act
    const id = await createCheck(client, 'calc', {
      Type: 'CALCULATED',
      ChildHealthChecks: children,
      HealthThreshold: 2,
    });
    const fetched = await client.send(new GetHealthCheckCommand({ HealthCheckId: id }));

    // Assess
    expect(fetched.HealthCheck?.HealthCheckConfig).toMatchObject({
      Type: 'CALCULATED',
      ChildHealthChecks: children,
      HealthThreshold: 2,
    });
  });

  it('pages ListHealthChecks with MaxItems and Marker/NextMarker', async () => {
    // Prepare
    const { client } = await start();
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4, 5]) ids.push(await createCheck(client, `page-${n}`, alarmConfig(`a${n}`)));

    // Act
    const first = await client.send(new ListHealthChecksCommand({ MaxItems: 2 }));
    const second = await client.send(new ListHealthChecksCommand({ MaxItems: 2, Marker: first.NextMarker }));
    const third = await client.send(new ListHealthChecksCommand({ MaxItems: 2, Marker: second.NextMarker }));

    // Assess
    expect(first).toMatchObject({ IsTruncated: true, MaxItems: 2, NextMarker: ids[2] });
    expect([first, second, third].flatMap((page) => page.HealthChecks?.map((check) => check.Id))).toEqual(
      ids,
    );
    expect(third).toMatchObject({ IsTruncated: false });
    expect(third.NextMarker).toBeUndefined();
  });

  it('raises NoSuchHealthCheck (404) for an unknown id', async () => {
    // Prepare
    const { client } = await start();

    // Act
    const rejected = await failure(
      client.send(new GetHealthCheckCommand({ HealthCheckId: 'no-such-check' })),
    );

    // Assess
    expect(rejected).toMatchObject({ name: 'NoSuchHealthCheck', status: 404 });
  });
});

describe('CreateHealthCheck refusals', () => {
  const rows: { name: string; config: () => HealthCheckConfig; message: RegExp }[] = [
    {
      name: 'an HTTP check: the stand-in runs no endpoint checkers',
      config: () => ({ Type: 'HTTP', IPAddress: '192.0.2.1', Port: 80, ResourcePath: '/' }),
      message:
        /serves CLOUDWATCH_METRIC and CALCULATED health checks only; it runs no endpoint health checkers, so type HTTP is refused/,
    },
    {
      name: 'a TCP check',
      config: () => ({ Type: 'TCP', IPAddress: '192.0.2.1', Port: 443 }),
      message: /type TCP is refused/,
    },
    {
      name: 'an unknown type',
      config: () => ({ Type: 'PING' as never }),
      message: /Value 'PING' at 'healthCheckConfig.type' failed to satisfy constraint/,
    },
    {
      name: 'a CLOUDWATCH_METRIC check without AlarmIdentifier',
      config: () => ({ Type: 'CLOUDWATCH_METRIC' }),
      message: /needs an AlarmIdentifier/,
    },
    {
      name: 'an alarm in no AWS region',
      config: () => alarmConfig('x', { AlarmIdentifier: { Region: 'moon-1' as never, Name: 'x' } }),
      message: /alarmIdentifier.region/,
    },
    {
      name: 'an unknown InsufficientDataHealthStatus',
      config: () => alarmConfig('x', { InsufficientDataHealthStatus: 'Maybe' as never }),
      message: /insufficientDataHealthStatus/,
    },
    {
      name: 'a HealthThreshold above 256',
      config: () => ({ Type: 'CALCULATED', ChildHealthChecks: [], HealthThreshold: 257 }),
      message: /healthThreshold/,
    },
    {
      name: 'more than 256 children',
      config: () => ({
        Type: 'CALCULATED',
        ChildHealthChecks: Array.from({ length: 257 }, (_, i) => `child-${i}`),
        HealthThreshold: 1,
      }),
      message: /less than or equal to 256/,
    },
    {
      name: 'a child that does not exist',
      config: () => ({ Type: 'CALCULATED', ChildHealthChecks: ['no-such-child'], HealthThreshold: 1 }),
      message: /child health check no-such-child does not exist/,
    },
  ];

  it.each(rows)('refuses $name with InvalidInput (400)', async ({ config, message }) => {
    // Prepare
    const { client } = await start();

    // Act
    const rejected = await failure(createCheck(client, 'bad', config()));

    // Assess
    expect(rejected).toMatchObject({ name: 'InvalidInput', status: 400 });
    expect(rejected.message).toMatch(message);
  });

  it('refuses a CALCULATED check as the child of a CALCULATED check', async () => {
    // Prepare
    const { client } = await start();
    const leaf = await createCheck(client, 'leaf', alarmConfig('a'));
    const inner = await createCheck(client, 'inner', {
      Type: 'CALCULATED',
      ChildHealthChecks: [leaf],
      HealthThreshold: 1,
    });

    // Act
    const rejected = await failure(
      createCheck(client, 'outer', { Type: 'CALCULATED', ChildHealthChecks: [inner], HealthThreshold: 1 }),
    );

    // Assess
    expect(rejected).toMatchObject({ name: 'InvalidInput', status: 400 });
    expect(rejected.message).toContain(`child health check ${inner} is a CALCULATED health check`);
  });

  it('refuses the 201st health check with TooManyHealthChecks (the default quota of 200)', async () => {
    // Prepare
    const { client } = await start();
    for (let n = 0; n < 200; n += 1) await createCheck(client, `quota-${n}`, alarmConfig(`a${n}`));

    // Act
    const rejected = await failure(createCheck(client, 'quota-200', alarmConfig('a200')));

    // Assess
    expect(rejected).toMatchObject({ name: 'TooManyHealthChecks', status: 400 });
  });
});

describe('health-check requests no SDK sends', () => {
  it.each([
    { name: 'XML that does not parse', body: '<CreateHealthCheckRequest><CallerRef' },
    { name: 'another document', body: '<ListHealthChecksRequest/>' },
    {
      name: 'no CallerReference',
      body: '<CreateHealthCheckRequest><HealthCheckConfig><Type>CALCULATED</Type><HealthThreshold>0</HealthThreshold></HealthCheckConfig></CreateHealthCheckRequest>',
    },
    {
      name: 'a HealthThreshold that is not a number',
      body: '<CreateHealthCheckRequest><CallerReference>r</CallerReference><HealthCheckConfig><Type>CALCULATED</Type><HealthThreshold>lots</HealthThreshold></HealthCheckConfig></CreateHealthCheckRequest>',
    },
    {
      name: 'an Inverted that is not a boolean',
      body: '<CreateHealthCheckRequest><CallerReference>r</CallerReference><HealthCheckConfig><Type>CALCULATED</Type><HealthThreshold>0</HealthThreshold><Inverted>maybe</Inverted></HealthCheckConfig></CreateHealthCheckRequest>',
    },
  ])('answers $name with 400 InvalidInput and creates nothing', async ({ body }) => {
    // Prepare
    const { route53, client } = await start();
    const port = Number(new URL(route53.endpoint).port);

    // Act
    const reply = await rawRequest(
      port,
      httpRequest('POST', '/2013-04-01/healthcheck', port, { Authorization: SIGNED_ROUTE53 }, body),
    );
    const listed = await client.send(new ListHealthChecksCommand({}));

    // Assess
    expect(reply.status).toBe(400);
    expect(/<Code>([^<]*)<\/Code>/.exec(reply.body)?.[1]).toBe('InvalidInput');
    expect(listed.HealthChecks).toEqual([]);
  });
});

describe('UpdateHealthCheck and DeleteHealthCheck', () => {
  it('updates with the current HealthCheckVersion and bumps it; a stale version is HealthCheckVersionMismatch (409)', async () => {
    // Prepare
    const { client } = await start();
    const id = await createCheck(client, 'upd', alarmConfig('a'));

    // Act
    const updated = await client.send(
      new UpdateHealthCheckCommand({
        HealthCheckId: id,
        HealthCheckVersion: 1,
        Inverted: true,
        AlarmIdentifier: { Region: 'us-east-1', Name: 'b' },
      }),
    );
    const stale = await failure(
      client.send(new UpdateHealthCheckCommand({ HealthCheckId: id, HealthCheckVersion: 1, Disabled: true })),
    );

    // Assess
    expect(updated.HealthCheck).toMatchObject({
      HealthCheckVersion: 2,
      HealthCheckConfig: { Inverted: true, AlarmIdentifier: { Region: 'us-east-1', Name: 'b' } },
    });
    expect(stale).toMatchObject({ name: 'HealthCheckVersionMismatch', status: 409 });
  });

  it('deletes a check even while a record names it, as Route 53 does (HealthCheckInUse "is not in use")', async () => {
    // Prepare
    const { route53, client } = await start();
    const zoneId = route53.createHostedZone('example.com');
    const id = await createCheck(client, 'del', alarmConfig('a'));
    await client.send(
      new ChangeResourceRecordSetsCommand({
        HostedZoneId: zoneId,
        ChangeBatch: {
          Changes: [
            {
              Action: 'CREATE',
              ResourceRecordSet: {
                Name: 'w.example.com',
                Type: 'A',
                TTL: 60,
                SetIdentifier: 'one',
                Weight: 1,
                HealthCheckId: id,
                ResourceRecords: [{ Value: '192.0.2.1' }],
              },
            },
          ],
        },
      }),
    );

    // Act
    const deleted = await client.send(new DeleteHealthCheckCommand({ HealthCheckId: id }));
    const gone = await failure(client.send(new GetHealthCheckCommand({ HealthCheckId: id })));

    // Assess
    expect(deleted.$metadata.httpStatusCode).toBe(200);
    expect(gone).toMatchObject({ name: 'NoSuchHealthCheck', status: 404 });
  });
});

describe('records with a HealthCheckId', () => {
  it("stores and lists a record's HealthCheckId and an alias's EvaluateTargetHealth", async () => {
    // Prepare
    const { route53, client } = await start();
    const zoneId = route53.createHostedZone('example.com');
    const id = await createCheck(client, 'rec', alarmConfig('a'));

    // Act
    await client.send(
      new ChangeResourceRecordSetsCommand({
        HostedZoneId: zoneId,
        ChangeBatch: {
          Changes: [
            {
              Action: 'CREATE',
              ResourceRecordSet: {
                Name: 'p.example.com',
                Type: 'A',
                TTL: 60,
                SetIdentifier: 'p',
                Failover: 'PRIMARY',
                HealthCheckId: id,
                ResourceRecords: [{ Value: '192.0.2.1' }],
              },
            },
            {
              Action: 'CREATE',
              ResourceRecordSet: {
                Name: 'shop.example.com',
                Type: 'A',
                SetIdentifier: 'p',
                Failover: 'PRIMARY',
                AliasTarget: { HostedZoneId: zoneId, DNSName: 'p.example.com', EvaluateTargetHealth: true },
              },
            },
          ],
        },
      }),
    );
    const listed = await client.send(new ListResourceRecordSetsCommand({ HostedZoneId: zoneId }));

    // Assess
    const byName = new Map(listed.ResourceRecordSets?.map((record) => [record.Name, record]));
    expect(byName.get('p.example.com.')?.HealthCheckId).toBe(id);
    expect(byName.get('shop.example.com.')?.AliasTarget?.EvaluateTargetHealth).toBe(true);
    expect(route53.records(zoneId).find((record) => record.name === 'p.example.com')?.healthCheckId).toBe(id);
  });

  it('refuses a record naming a health check that does not exist (NoSuchHealthCheck, 404, nothing applied)', async () => {
    // Prepare
    const { route53, client } = await start();
    const zoneId = route53.createHostedZone('example.com');

    // Act
    const rejected = await failure(
      client.send(
        new ChangeResourceRecordSetsCommand({
          HostedZoneId: zoneId,
          ChangeBatch: {
            Changes: [
              {
                Action: 'CREATE',
                ResourceRecordSet: {
                  Name: 'ok.example.com',
                  Type: 'A',
                  TTL: 60,
                  ResourceRecords: [{ Value: '192.0.2.9' }],
                },
              },
              {
                Action: 'CREATE',
                ResourceRecordSet: {
                  Name: 'w.example.com',
                  Type: 'A',
                  TTL: 60,
                  SetIdentifier: 'one',
                  Weight: 1,
                  HealthCheckId: '00000000-0000-0000-0000-000000000000',
                  ResourceRecords: [{ Value: '192.0.2.1' }],
                },
              },
            ],
          },
        }),
      ),
    );

    // Assess
    expect(rejected).toMatchObject({ name: 'NoSuchHealthCheck', status: 404 });
    expect(rejected.message).toContain(
      'No health check exists with the ID 00000000-0000-0000-0000-000000000000 in Change with [Action=CREATE, Name=w.example.com.',
    );
    expect(route53.records(zoneId)).toEqual([]);
  });

  it('DELETE of a record must name its HealthCheckId too', async () => {
    // Prepare
    const { route53, client } = await start();
    const zoneId = route53.createHostedZone('example.com');
    const id = await createCheck(client, 'del-rec', alarmConfig('a'));
    const record = {
      Name: 'w.example.com',
      Type: 'A' as const,
      TTL: 60,
      SetIdentifier: 'one',
      Weight: 1,
      ResourceRecords: [{ Value: '192.0.2.1' }],
    };
    const change = (Action: 'CREATE' | 'DELETE', extra: object) =>
      client.send(
        new ChangeResourceRecordSetsCommand({
          HostedZoneId: zoneId,
          ChangeBatch: { Changes: [{ Action, ResourceRecordSet: { ...record, ...extra } }] },
        }),
      );
    await change('CREATE', { HealthCheckId: id });

    // Act
    const without = await failure(change('DELETE', {}));
    await change('DELETE', { HealthCheckId: id });

    // Assess
    expect(without).toMatchObject({ name: 'InvalidChangeBatch' });
    expect(route53.records(zoneId)).toEqual([]);
  });
});

describe('health status', () => {
  async function alarmCheck(
    status: HealthCheckConfig['InsufficientDataHealthStatus'],
    extra: Partial<HealthCheckConfig> = {},
  ) {
    const context = await start();
    const id = await createCheck(
      context.client,
      'status',
      alarmConfig('vote', { InsufficientDataHealthStatus: status, ...extra }),
    );
    const set = (state: 'OK' | 'ALARM' | 'INSUFFICIENT_DATA' | undefined) =>
      context.alarms.set('eu-west-1', 'vote', state);
    return { ...context, id, set };
  }

  it.each([
    { name: 'OK is healthy', status: 'LastKnownStatus', states: ['OK'], expected: 'Healthy' },
    { name: 'ALARM is unhealthy', status: 'LastKnownStatus', states: ['ALARM'], expected: 'Unhealthy' },
    {
      name: 'INSUFFICIENT_DATA with Healthy is healthy',
      status: 'Healthy',
      states: ['ALARM', 'INSUFFICIENT_DATA'],
      expected: 'Healthy',
    },
    {
      name: 'INSUFFICIENT_DATA with Unhealthy is unhealthy',
      status: 'Unhealthy',
      states: ['OK', 'INSUFFICIENT_DATA'],
      expected: 'Unhealthy',
    },
    {
      name: 'INSUFFICIENT_DATA with LastKnownStatus keeps ALARM',
      status: 'LastKnownStatus',
      states: ['ALARM', 'INSUFFICIENT_DATA'],
      expected: 'Unhealthy',
    },
    {
      name: 'a missing alarm with LastKnownStatus keeps OK',
      status: 'LastKnownStatus',
      states: ['OK', undefined],
      expected: 'Healthy',
    },
    {
      name: 'a new check that never saw OK or ALARM is healthy',
      status: 'LastKnownStatus',
      states: ['INSUFFICIENT_DATA'],
      expected: 'Healthy',
    },
  ] as const)('$name', async ({ status, states, expected }) => {
    // Prepare
    const { route53, id, set } = await alarmCheck(status);

    // Act
    for (const state of states) {
      set(state);
      route53.healthCheckStatus(id);
    }

    // Assess
    expect(route53.healthCheckStatus(id)).toBe(expected);
  });

  it('Inverted flips the status; Disabled is always healthy', async () => {
    // Prepare
    const { route53, client, alarms } = await start();
    const inverted = await createCheck(client, 'inv', alarmConfig('down', { Inverted: true }));
    const disabled = await createCheck(client, 'dis', alarmConfig('down', { Disabled: true }));
    alarms.set('eu-west-1', 'down', 'ALARM');

    // Act
    const statuses = [route53.healthCheckStatus(inverted), route53.healthCheckStatus(disabled)];

    // Assess
    expect(statuses).toEqual(['Healthy', 'Healthy']);
  });

  it('a CALCULATED check is healthy while at least HealthThreshold children are', async () => {
    // Prepare
    const { route53, client, alarms } = await start();
    const children = [];
    for (const name of ['r1', 'r2', 'r3']) {
      alarms.set('eu-west-1', name, 'OK');
      children.push(await createCheck(client, name, alarmConfig(name)));
    }
    const calc = await createCheck(client, 'calc', {
      Type: 'CALCULATED',
      ChildHealthChecks: children,
      HealthThreshold: 2,
    });

    // Act
    const seen = [route53.healthCheckStatus(calc)];
    alarms.set('eu-west-1', 'r1', 'ALARM');
    seen.push(route53.healthCheckStatus(calc));
    alarms.set('eu-west-1', 'r2', 'ALARM');
    seen.push(route53.healthCheckStatus(calc));

    // Assess
    expect(seen).toEqual(['Healthy', 'Healthy', 'Unhealthy']);
  });

  it('LastKnownStatus remembers a state no query saw, through the tick', async () => {
    // Prepare
    const { route53, id, set } = await alarmCheck('LastKnownStatus');
    const ticking = await start({ healthCheckTickMs: 20 });
    const tickedId = await createCheck(ticking.client, 'tick', alarmConfig('vote'));
    void route53;
    set('ALARM');
    ticking.alarms.set('eu-west-1', 'vote', 'ALARM');

    // Act
    await new Promise((resolve) => setTimeout(resolve, 200));
    set('INSUFFICIENT_DATA');
    ticking.alarms.set('eu-west-1', 'vote', 'INSUFFICIENT_DATA');

    // Assess
    expect(ticking.route53.healthCheckStatus(tickedId)).toBe('Unhealthy');
    expect(route53.healthCheckStatus(id)).toBe('Healthy'); // no tick, no query while in ALARM
  });

  it('UpdateHealthCheck keeps the last known status unless the alarm changes', async () => {
    // Prepare
    const { route53, client, alarms, id, set } = await alarmCheck('LastKnownStatus');
    set('ALARM');
    route53.healthCheckStatus(id);
    set('INSUFFICIENT_DATA');

    // Act
    await client.send(new UpdateHealthCheckCommand({ HealthCheckId: id, Disabled: false }));
    const sameAlarm = route53.healthCheckStatus(id);
    alarms.set('us-east-1', 'other', 'INSUFFICIENT_DATA');
    await client.send(
      new UpdateHealthCheckCommand({
        HealthCheckId: id,
        AlarmIdentifier: { Region: 'us-east-1', Name: 'other' },
      }),
    );
    const otherAlarm = route53.healthCheckStatus(id);

    // Assess
    expect([sameAlarm, otherAlarm]).toEqual(['Unhealthy', 'Healthy']);
  });

  it('does not serve GetHealthCheckStatus (nothing of ours sends it): UnsupportedOperation', async () => {
    // Prepare
    const { client, id } = await alarmCheck('LastKnownStatus');

    // Act
    const refused = await failure(client.send(new GetHealthCheckStatusCommand({ HealthCheckId: id })));

    // Assess
    expect(refused).toMatchObject({ name: 'UnsupportedOperation', status: 400 });
  });
});

describe('the route53-api fault', () => {
  it('answers every call ServiceUnavailable (503) and logs it as refused, while health checks keep their status', async () => {
    // Prepare
    const { route53, client, alarms } = await start();
    const id = await createCheck(client, 'fault', alarmConfig('vote'));
    const zoneId = route53.createHostedZone('example.com');
    alarms.set('eu-west-1', 'vote', 'OK');
    route53.setApiDown(true);
    const before = route53.calls.length;

    // Act
    const refusals = await Promise.all([
      failure(client.send(new GetHealthCheckCommand({ HealthCheckId: id }))),
      failure(client.send(new ListHealthChecksCommand({}))),
      failure(client.send(new ListResourceRecordSetsCommand({ HostedZoneId: zoneId }))),
      failure(
        client.send(
          new ChangeResourceRecordSetsCommand({
            HostedZoneId: zoneId,
            ChangeBatch: {
              Changes: [
                {
                  Action: 'CREATE',
                  ResourceRecordSet: {
                    Name: 'x.example.com',
                    Type: 'A',
                    TTL: 60,
                    ResourceRecords: [{ Value: '192.0.2.1' }],
                  },
                },
              ],
            },
          }),
        ),
      ),
    ]);
    alarms.set('eu-west-1', 'vote', 'ALARM');
    const statusDuringFault = route53.healthCheckStatus(id);
    route53.setApiDown(false);
    const after = await client.send(new GetHealthCheckCommand({ HealthCheckId: id }));

    // Assess
    for (const refusal of refusals)
      expect(refusal).toMatchObject({ name: 'ServiceUnavailable', status: 503 });
    expect(route53.calls.slice(before, before + 4).map((call) => [call.status, call.refused])).toEqual(
      Array.from({ length: 4 }, () => [503, 'route53-api']),
    );
    expect(route53.records(zoneId)).toEqual([]);
    expect(statusDuringFault).toBe('Unhealthy');
    expect(after.HealthCheck?.Id).toBe(id);
    expect(route53.calls.at(-1)?.refused).toBeUndefined();
  });
});
