/**
 * The local DNS server answers with Route 53's health-check semantics, queried
 * with dig: records, health checks and alarms are set up through the production
 * Route 53 client against the local Route 53, and the alarms are flipped through
 * an in-memory AlarmStates. The rules are in docs/local-dns.md ("Health").
 * https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/health-checks-how-route-53-chooses-records.html
 * https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/routing-policy-multivalue.html
 */
import {
  ChangeResourceRecordSetsCommand,
  CreateHealthCheckCommand,
  GetHealthCheckCommand,
  type ResourceRecordSet,
  type Route53Client,
} from '@aws-sdk/client-route-53';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { route53Client } from '../../functions/shared/aws-clients.js';
import { startDnsServer, type DnsServer } from '../../infra/local/dns/index.js';
import { startLocalRoute53, type LocalRoute53 } from '../../infra/local/route53/server.js';
import { fakeAlarmStates, type FakeAlarmStates } from '../support/alarm-states.js';
import { dig, digAvailable, seededRandom } from './dns-fixtures.js';

const REGION = 'eu-west-1';
const DE_CLIENT = '+subnet=192.0.2.1/32'; // DE, EU, eu-central-1 in the built-in client-location table

let route53: LocalRoute53;
let client: Route53Client;
let dns: DnsServer;
let alarms: FakeAlarmStates;
let zoneId: string;

beforeAll(async () => {
  alarms = fakeAlarmStates();
  route53 = await startLocalRoute53({ alarmStates: alarms, healthCheckTickMs: 0 });
  client = route53Client({
    endpoint: route53.endpoint,
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    requestsPerSecond: 1000,
  });
  zoneId = route53.createHostedZone('example.com');
  dns = await startDnsServer({ zones: route53, port: 0, random: seededRandom(11) });
});

afterAll(async () => {
  client?.destroy();
  await dns?.stop();
  await route53?.stop();
});

/** A CLOUDWATCH_METRIC check on alarm `name` (OK at first); returns its id. */
async function alarmCheck(name: string): Promise<string> {
  alarms.set(REGION, name, 'OK');
  const created = await client.send(
    new CreateHealthCheckCommand({
      CallerReference: `ref-${name}`,
      HealthCheckConfig: {
        Type: 'CLOUDWATCH_METRIC',
        AlarmIdentifier: { Region: REGION, Name: name },
        InsufficientDataHealthStatus: 'LastKnownStatus',
      },
    }),
  );
  return created.HealthCheck?.Id ?? '';
}

async function create(records: ResourceRecordSet[]): Promise<void> {
  await client.send(
    new ChangeResourceRecordSetsCommand({
      HostedZoneId: zoneId,
      ChangeBatch: { Changes: records.map((ResourceRecordSet) => ({ Action: 'CREATE', ResourceRecordSet })) },
    }),
  );
}

const a = (name: string, value: string, extra: Partial<ResourceRecordSet>): ResourceRecordSet => ({
  Name: name,
  Type: 'A',
  TTL: 0,
  ResourceRecords: [{ Value: value }],
  ...extra,
});

async function answers(name: string, ...args: string[]): Promise<string[]> {
  const result = await dig(dns.port, [name, 'A', ...args]);
  expect(result.status).toBe('NOERROR');
  return result.answers.map((record) => record.data).sort();
}

/** Every address `name` answered over `times` queries. */
async function answersOver(times: number, name: string): Promise<Set<string>> {
  const seen = new Set<string>();
  for (let i = 0; i < times; i += 1) for (const value of await answers(name)) seen.add(value);
  return seen;
}

const set = (name: string, state: 'OK' | 'ALARM' | 'INSUFFICIENT_DATA') => alarms.set(REGION, name, state);

describe.skipIf(!digAvailable)('DNS answers with health checks (dig)', () => {
  it('failover: PRIMARY while healthy, SECONDARY when it is not, PRIMARY again when both are unhealthy', async () => {
    // Prepare: the primary's check is CALCULATED over two region votes (both must be healthy)
    const votes = [await alarmCheck('fo-vote-1'), await alarmCheck('fo-vote-2')];
    const calculated = await client.send(
      new CreateHealthCheckCommand({
        CallerReference: 'ref-fo-calc',
        HealthCheckConfig: { Type: 'CALCULATED', ChildHealthChecks: votes, HealthThreshold: 2 },
      }),
    );
    const secondary = await alarmCheck('fo-secondary');
    await create([
      a('fo.example.com', '10.0.0.1', {
        SetIdentifier: 'p',
        Failover: 'PRIMARY',
        HealthCheckId: calculated.HealthCheck?.Id ?? '',
      }),
      a('fo.example.com', '10.0.0.2', {
        SetIdentifier: 's',
        Failover: 'SECONDARY',
        HealthCheckId: secondary,
      }),
    ]);

    // Act
    const seen = [await answers('fo.example.com')];
    set('fo-vote-2', 'ALARM');
    seen.push(await answers('fo.example.com'));
    set('fo-secondary', 'ALARM');
    seen.push(await answers('fo.example.com'));
    set('fo-vote-2', 'OK');
    set('fo-secondary', 'OK');
    seen.push(await answers('fo.example.com'));

    // Assess
    expect(seen).toEqual([['10.0.0.1'], ['10.0.0.2'], ['10.0.0.1'], ['10.0.0.1']]);
  });

  it('weighted: an unhealthy record is skipped; with every record unhealthy, all are answered by weight', async () => {
    // Prepare
    const ids = [await alarmCheck('w-1'), await alarmCheck('w-2'), await alarmCheck('w-3')];
    await create(
      ids.map((id, i) =>
        a('w.example.com', `10.1.0.${i + 1}`, { SetIdentifier: `w${i + 1}`, Weight: 1, HealthCheckId: id }),
      ),
    );

    // Act
    const healthy = await answersOver(12, 'w.example.com');
    set('w-1', 'ALARM');
    const oneDown = await answersOver(12, 'w.example.com');
    set('w-2', 'ALARM');
    set('w-3', 'ALARM');
    const allDown = await answersOver(12, 'w.example.com');

    // Assess
    expect(healthy).toEqual(new Set(['10.1.0.1', '10.1.0.2', '10.1.0.3']));
    expect(oneDown).toEqual(new Set(['10.1.0.2', '10.1.0.3']));
    expect(allDown).toEqual(new Set(['10.1.0.1', '10.1.0.2', '10.1.0.3']));
  });

  it('multivalue: up to 8 healthy records; with none healthy, up to 8 of the unhealthy ones', async () => {
    // Prepare
    const ids: string[] = [];
    for (let i = 1; i <= 10; i += 1) ids.push(await alarmCheck(`mv-${i}`));
    await create(
      ids.map((id, i) =>
        a('mv.example.com', `10.2.0.${i + 1}`, {
          SetIdentifier: `m${i + 1}`,
          MultiValueAnswer: true,
          HealthCheckId: id,
        }),
      ),
    );
    for (const i of [1, 2, 3, 4, 5]) set(`mv-${i}`, 'ALARM');

    // Act
    const someDown = await answers('mv.example.com');
    for (let i = 6; i <= 10; i += 1) set(`mv-${i}`, 'ALARM');
    const allDown = await answers('mv.example.com');

    // Assess
    expect(someDown).toEqual(['10.2.0.10', '10.2.0.6', '10.2.0.7', '10.2.0.8', '10.2.0.9']);
    expect(allDown).toHaveLength(8);
    expect(allDown.every((value) => /^10\.2\.0\.(?:[1-9]|10)$/.test(value))).toBe(true);
  });

  it('latency: the nearest healthy region; with every region unhealthy, the nearest of all', async () => {
    // Prepare
    const [euc1, use1] = [await alarmCheck('lat-euc1'), await alarmCheck('lat-use1')];
    await create([
      a('lat.example.com', '10.3.0.1', {
        SetIdentifier: 'euc1',
        Region: 'eu-central-1',
        HealthCheckId: euc1,
      }),
      a('lat.example.com', '10.3.0.2', { SetIdentifier: 'use1', Region: 'us-east-1', HealthCheckId: use1 }),
    ]);

    // Act
    const seen = [await answers('lat.example.com', DE_CLIENT)];
    set('lat-euc1', 'ALARM');
    seen.push(await answers('lat.example.com', DE_CLIENT));
    set('lat-use1', 'ALARM');
    seen.push(await answers('lat.example.com', DE_CLIENT));

    // Assess
    expect(seen).toEqual([['10.3.0.1'], ['10.3.0.2'], ['10.3.0.1']]);
  });

  it('geolocation: the next larger area when the match is unhealthy; with every record unhealthy, the match', async () => {
    // Prepare
    const [de, fallback] = [await alarmCheck('geo-de'), await alarmCheck('geo-default')];
    await create([
      a('geo.example.com', '10.4.0.1', {
        SetIdentifier: 'de',
        GeoLocation: { CountryCode: 'DE' },
        HealthCheckId: de,
      }),
      a('geo.example.com', '10.4.0.2', {
        SetIdentifier: 'any',
        GeoLocation: { CountryCode: '*' },
        HealthCheckId: fallback,
      }),
    ]);

    // Act
    const seen = [await answers('geo.example.com', DE_CLIENT)];
    set('geo-de', 'ALARM');
    seen.push(await answers('geo.example.com', DE_CLIENT));
    set('geo-default', 'ALARM');
    seen.push(await answers('geo.example.com', DE_CLIENT));

    // Assess
    expect(seen).toEqual([['10.4.0.1'], ['10.4.0.2'], ['10.4.0.1']]);
  });

  it('alias with EvaluateTargetHealth: unhealthy when no record at its target is healthy, so failover backs out to the SECONDARY', async () => {
    // Prepare: shop → PRIMARY alias to a weighted pool, SECONDARY plain
    const [pool1, pool2] = [await alarmCheck('pool-1'), await alarmCheck('pool-2')];
    await create([
      a('pool.example.com', '10.5.0.1', { SetIdentifier: 'p1', Weight: 1, HealthCheckId: pool1 }),
      a('pool.example.com', '10.5.0.2', { SetIdentifier: 'p2', Weight: 1, HealthCheckId: pool2 }),
      a('backup.example.com', '10.5.9.9', {}),
    ]);
    await create([
      {
        Name: 'shop.example.com',
        Type: 'A',
        SetIdentifier: 'primary',
        Failover: 'PRIMARY',
        AliasTarget: { HostedZoneId: zoneId, DNSName: 'pool.example.com', EvaluateTargetHealth: true },
      },
      {
        Name: 'shop.example.com',
        Type: 'A',
        SetIdentifier: 'secondary',
        Failover: 'SECONDARY',
        AliasTarget: { HostedZoneId: zoneId, DNSName: 'backup.example.com', EvaluateTargetHealth: true },
      },
    ]);

    // Act
    set('pool-1', 'ALARM');
    const oneDown = await answers('shop.example.com');
    set('pool-2', 'ALARM');
    const allDown = await answers('shop.example.com');
    set('pool-1', 'OK');
    const back = await answers('shop.example.com');

    // Assess
    expect(oneDown).toEqual(['10.5.0.2']);
    expect(allDown).toEqual(['10.5.9.9']);
    expect(back).toEqual(['10.5.0.1']);
  });

  it('route53-api fault: the API answers 503 while dig still answers and flips with a health check', async () => {
    // Prepare
    const [primary] = [await alarmCheck('api-primary')];
    await create([
      a('api.example.com', '10.6.0.1', { SetIdentifier: 'p', Failover: 'PRIMARY', HealthCheckId: primary }),
      a('api.example.com', '10.6.0.2', { SetIdentifier: 's', Failover: 'SECONDARY' }),
    ]);
    route53.setApiDown(true);

    try {
      // Act
      const before = await answers('api.example.com');
      const refused = await client.send(new GetHealthCheckCommand({ HealthCheckId: primary })).then(
        () => undefined,
        (error: { name: string; $metadata?: { httpStatusCode?: number } }) => [
          error.name,
          error.$metadata?.httpStatusCode,
        ],
      );
      const change = await create([
        a('api.example.com', '10.6.0.3', { SetIdentifier: 'x', Failover: 'PRIMARY' }),
      ]).then(
        () => 'applied',
        (error: { name: string }) => error.name,
      );
      set('api-primary', 'ALARM');
      const during = await answers('api.example.com');
      set('api-primary', 'OK');
      const after = await answers('api.example.com');

      // Assess
      expect(refused).toEqual(['ServiceUnavailable', 503]);
      expect(change).toBe('ServiceUnavailable');
      expect([before, during, after]).toEqual([['10.6.0.1'], ['10.6.0.2'], ['10.6.0.1']]);
      expect(
        route53.calls.filter((call) => call.operation === 'ChangeResourceRecordSets').at(-1),
      ).toMatchObject({
        status: 503,
        refused: 'route53-api',
      });
    } finally {
      route53.setApiDown(false);
    }
  });
});
