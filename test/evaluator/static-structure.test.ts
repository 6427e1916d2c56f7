/**
 * The evaluator applies static failover (docs/adr/0011-static-failover.md) through the
 * production clients: DynamoDB Local, the local Route 53 (with its health checks) and the local
 * CloudWatch, every client from the factory. A Priority and a Weighted profile with
 * `staticFailover` get their alarms, health checks and records (today's at `_fast`, the
 * structure at `_static`, the switch at the fqdn); applying again creates nothing; removing an
 * endpoint deletes its checks and alarms after the records that used them, calculated checks
 * first; a profile with `staticFailover: false` publishes today's records only.
 */
import { DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { ListHealthChecksCommand, type HealthCheck } from '@aws-sdk/client-route-53';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cloudWatchClient, route53Client } from '../../functions/shared/aws-clients.js';
import { AwsCallRecorder } from '../support/iam/recorder.js';
import { CloudWatchAlarmGateway } from '../../functions/evaluator/alarm-gateway.js';
import { planStatic } from '../../functions/evaluator/static-failover-publisher.js';
import { overriddenAlarm } from '../../shared/static-failover/override.js';
import { idOfCallerReference } from '../../shared/static-failover/identity.js';
import {
  definition,
  profilesFrom,
  REGIONS,
  startEvaluatorHarness,
  ZONE_ID,
  type EvaluatorHarness,
} from './harness.js';

const DEPLOYMENT = 'tm-test';
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

const SHOP = definition({
  name: 'shop',
  staticFailover: true,
  endpoints: [
    { name: 'east', target: '192.0.2.10' },
    { name: 'west', target: '192.0.2.20' },
  ],
});
const API = definition({
  name: 'api',
  trafficRoutingMethod: 'Weighted',
  staticFailover: true,
  endpoints: [
    { name: 'a', target: '192.0.2.31', weight: 2 },
    { name: 'b', target: '192.0.2.32', weight: 1 },
  ],
});
const API_WITHOUT_B = { ...API, endpoints: [API.endpoints[0]] };
const PLAIN = definition({
  name: 'plain',
  staticFailover: false,
  endpoints: [
    { name: 'east', target: '192.0.2.40' },
    { name: 'west', target: '192.0.2.41' },
  ],
});

/** Every SDK command the production clients send, in order, with its input. */
const recorder = new AwsCallRecorder();
const sent = recorder.calls;

let h: EvaluatorHarness;
let route53: ReturnType<typeof route53Client>;

beforeAll(async () => {
  h = await startEvaluatorHarness({ staticFailover: { deployment: DEPLOYMENT }, recorder });
  route53 = route53Client({ endpoint: h.route53.endpoint, credentials, requestsPerSecond: 1000 });
});

afterEach(() => expect(h.staticErrors).toEqual([]));

afterAll(async () => {
  route53?.destroy();
  await h?.stop();
});

async function listChecks(): Promise<HealthCheck[]> {
  const page = await route53.send(new ListHealthChecksCommand({}));
  return page.HealthChecks ?? [];
}

async function alarmNames(region: string): Promise<string[]> {
  const client = cloudWatchClient({ endpoint: h.cloudWatch?.endpoint, region, credentials });
  const out = await client.send(new DescribeAlarmsCommand({ AlarmNamePrefix: `${DEPLOYMENT}-` }));
  client.destroy();
  return (out.MetricAlarms ?? []).map((a) => a.AlarmName ?? '').sort();
}

function planOf(input: unknown[]) {
  return planStatic(DEPLOYMENT, { profiles: profilesFrom(input), defaultProbeRegions: REGIONS }).structure;
}

const count = (command: string) => sent.filter((s) => s.operation === command).length;

describe('static failover applied by the evaluator', () => {
  it('creates the alarms, the health checks and the records of a Priority and a Weighted profile', async () => {
    // Act
    await h.define([SHOP, API, PLAIN]);
    await h.allUp();
    await h.heartbeat();
    await h.settle();

    // Assess: every planned check exists once, under our caller reference
    const plan = planOf([SHOP, API, PLAIN]);
    const checks = await listChecks();
    const logical = checks.map((c) => idOfCallerReference(c.CallerReference ?? '')).sort();
    expect(logical).toEqual(plan.healthChecks.map((c) => c.id).sort());
    expect(plan.healthChecks).toHaveLength(2 * 4 + 2 * 4 + 4); // 4 targets × (3 regions + 1), the guard
    // every region holds its alarms
    for (const region of REGIONS)
      expect(await alarmNames(region)).toEqual(
        plan.alarms
          .filter((a) => a.region === region)
          .map((a) => a.name)
          .sort(),
      );
    // today's records at _fast, the switch at the fqdn (the fast side carries the guard)
    expect(h.values('_fast.shop.example.com')).toEqual(['192.0.2.10']);
    const idByLogical = new Map(checks.map((c) => [idOfCallerReference(c.CallerReference ?? ''), c.Id]));
    const guard = plan.healthChecks.find((c) => c.role === 'guard');
    expect(
      h
        .records('shop.example.com')
        .map((r) => [r.setIdentifier, r.failover, r.aliasTarget?.dnsName, r.healthCheckId]),
    ).toEqual([
      ['fast', 'PRIMARY', '_fast.shop.example.com', idByLogical.get(guard?.id)],
      ['static', 'SECONDARY', '_static.shop.example.com', undefined],
    ]);
    // the structure with the real HealthCheckIds
    const shopStatic = h.records('_static.shop.example.com');
    expect(shopStatic.map((r) => [r.setIdentifier, r.failover, r.values.join()])).toEqual([
      ['east', 'PRIMARY', '192.0.2.10'],
      ['west', 'SECONDARY', '192.0.2.20'],
    ]);
    const planned = plan.records.filter((r) => r.name === '_static.shop.example.com');
    expect(shopStatic.map((r) => r.healthCheckId)).toEqual(
      planned.map((r) => idByLogical.get(r.healthCheckRef)),
    );
    expect(shopStatic.every((r) => r.healthCheckId !== undefined)).toBe(true);
    expect(h.values('_fast.api.example.com')).toEqual(['192.0.2.31', '192.0.2.32']);
    expect(
      h
        .records('_static.api.example.com')
        .map((r) => [r.setIdentifier, r.weight, r.healthCheckId !== undefined]),
    ).toEqual([
      ['a', 2, true],
      ['b', 1, true],
    ]);
    // the evaluator's records of a switched profile are those at _fast
    const statuses = await h.deps.store.loadStatuses();
    expect(statuses.get('shop')?.ownedName).toBe('_fast.shop.example.com');
    expect(statuses.get('api')?.ownedName).toBe('_fast.api.example.com');
    // staticFailover false: today's records at the fqdn, nothing else
    expect(h.values('plain.example.com')).toEqual(['192.0.2.40']);
    expect(
      h.records().filter((r) => r.name.endsWith('plain.example.com') && r.name !== 'plain.example.com'),
    ).toEqual([]);
  });

  it('a second evaluation creates nothing; a reconcile reads everything and creates nothing', async () => {
    // Prepare
    const checksBefore = (await listChecks()).map((c) => c.Id).sort();
    const recordsBefore = h.route53.records(ZONE_ID);
    const before = { checks: count('CreateHealthCheck'), alarms: count('PutMetricAlarm') };
    const changesBefore = h.changeCalls().length;
    const listsBefore = count('ListHealthChecks');

    // Act: the same definitions again, then the tick's reconcile
    await h.define([SHOP, API, PLAIN]);
    const listsAfterDefine = count('ListHealthChecks');
    h.clock.now += 60_000;
    const tick = await h.tick();
    await h.settle();

    // Assess
    expect(listsAfterDefine).toBe(listsBefore); // an unchanged plan costs no Route 53 call
    expect(tick.reconcileRequested).toBe(true);
    expect(count('ListHealthChecks')).toBe(listsBefore + 1); // the reconcile read them
    expect(count('CreateHealthCheck')).toBe(before.checks);
    expect(count('PutMetricAlarm')).toBe(before.alarms);
    expect(h.changeCalls().length).toBe(changesBefore);
    expect((await listChecks()).map((c) => c.Id).sort()).toEqual(checksBefore);
    expect(h.route53.records(ZONE_ID)).toEqual(recordsBefore);
  });

  it("a reconcile leaves an operator's outage-time override on a vote alarm until it ends, then puts the planned alarm back", async () => {
    // Prepare: `tm endpoint override shop/east --status Degraded --for 20m` written through CloudWatch
    const planned = planOf([SHOP, API, PLAIN]).alarms[0];
    if (planned === undefined) throw new Error('an alarm expected');
    const alarms = new CloudWatchAlarmGateway((region) =>
      cloudWatchClient({ endpoint: h.cloudWatch?.endpoint, region, credentials }),
    );
    const override = {
      status: 'Degraded' as const,
      subject: 'shop/east',
      by: 'ops',
      at: h.clock.now,
      until: h.clock.now + 20 * 60_000,
    };
    await alarms.put(overriddenAlarm(planned, override));

    // Act: a reconcile while it holds (one is due every 5 minutes)
    h.clock.now += 6 * 60_000;
    expect((await h.tick()).reconcileRequested).toBe(true);
    await h.settle();

    // Assess: still the override, as written
    const held = await alarms.describeOne(planned.region, planned.name);
    expect(held?.override).toEqual(override);
    expect(held?.comparisonOperator).toBe('GreaterThanOrEqualToThreshold');

    // Act: a reconcile after it ended
    h.clock.now += 15 * 60_000;
    expect((await h.tick()).reconcileRequested).toBe(true);
    await h.settle();

    // Assess: the planned alarm again
    const restored = await alarms.describeOne(planned.region, planned.name);
    alarms.destroy();
    expect(restored?.override).toBeUndefined();
    expect(restored).toEqual(planned);
  });

  it('removing an endpoint deletes its checks and alarms after its records, calculated checks first', async () => {
    // Prepare
    const before = planOf([SHOP, API, PLAIN]);
    const after = planOf([SHOP, API_WITHOUT_B, PLAIN]);
    const gone = before.healthChecks.filter((c) => !after.healthChecks.some((k) => k.id === c.id));
    const byLogical = new Map(
      (await listChecks()).map((c) => [c.Id, idOfCallerReference(c.CallerReference ?? '')]),
    );
    const from = sent.length;

    // Act
    await h.define([SHOP, API_WITHOUT_B, PLAIN]);

    // Assess: b's target check and its three region checks are gone, and its three alarms
    expect(gone.map((c) => c.type)).toEqual([
      'CLOUDWATCH_METRIC',
      'CLOUDWATCH_METRIC',
      'CLOUDWATCH_METRIC',
      'CALCULATED',
    ]);
    const remaining = (await listChecks()).map((c) => idOfCallerReference(c.CallerReference ?? '')).sort();
    expect(remaining).toEqual(after.healthChecks.map((c) => c.id).sort());
    for (const region of REGIONS)
      expect(await alarmNames(region)).toEqual(
        after.alarms
          .filter((a) => a.region === region)
          .map((a) => a.name)
          .sort(),
      );
    expect(h.records('_static.api.example.com').map((r) => r.setIdentifier)).toEqual(['a']);
    // the order: the record change, then the calculated check, then its children, then the alarms
    const calls = sent
      .slice(from)
      .filter((s) => ['ChangeResourceRecordSets', 'DeleteHealthCheck', 'DeleteAlarms'].includes(s.operation));
    const order = calls.map((s) =>
      s.operation === 'DeleteHealthCheck'
        ? gone.find((c) => c.id === byLogical.get(String(s.input.HealthCheckId)))?.type
        : s.operation,
    );
    const staticChange = order.lastIndexOf('ChangeResourceRecordSets');
    expect(order.slice(staticChange)).toEqual([
      'ChangeResourceRecordSets',
      'CALCULATED',
      'CLOUDWATCH_METRIC',
      'CLOUDWATCH_METRIC',
      'CLOUDWATCH_METRIC',
      'DeleteAlarms',
      'DeleteAlarms',
      'DeleteAlarms',
    ]);
  });
});

describe('turning static failover off for a profile', () => {
  it("publishes today's records at the fqdn again and removes its structure, checks and alarms", async () => {
    // Prepare
    const shopOff = { ...SHOP, staticFailover: false };
    const after = planOf([shopOff, API_WITHOUT_B, PLAIN]);

    // Act
    await h.define([shopOff, API_WITHOUT_B, PLAIN]);

    // Assess
    expect(h.values('shop.example.com')).toEqual(['192.0.2.10']);
    expect(h.records('shop.example.com').map((r) => r.failover)).toEqual([undefined]);
    expect(h.records('_fast.shop.example.com')).toEqual([]);
    expect(h.records('_static.shop.example.com')).toEqual([]);
    const remaining = (await listChecks()).map((c) => idOfCallerReference(c.CallerReference ?? '')).sort();
    expect(remaining).toEqual(after.healthChecks.map((c) => c.id).sort());
    for (const region of REGIONS)
      expect(await alarmNames(region)).toEqual(
        after.alarms
          .filter((a) => a.region === region)
          .map((a) => a.name)
          .sort(),
      );
  });
});
