import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { definition, SHOP_DEFINITION, startEvaluatorHarness, type EvaluatorHarness } from './harness.js';
import type { ProfileDefinitionFields } from '../support/profiles.js';
import { Keys } from '../../shared/state/keys.js';

let h: EvaluatorHarness;
beforeEach(async () => {
  h = await startEvaluatorHarness();
});
afterEach(async () => {
  await h.stop();
});

async function upEverywhere(definitions: unknown[]) {
  await h.define(definitions);
  await h.heartbeat();
  // Evaluated before the verdicts arrive (CheckingEndpoint), not in one stream batch with them.
  await h.settle();
  await h.allUp();
  await h.settle();
}

describe('failover and fail-back for every routing method', () => {
  it('Priority: the first available endpoint; the next one when it is Degraded; back on recovery', async () => {
    await upEverywhere([SHOP_DEFINITION]);
    expect(h.values('shop.example.com')).toEqual(['192.0.2.10']);

    await h.verdict('shop', 'east', 'down', ['us-east-1', 'eu-west-1']);
    await h.settle();
    expect(h.values('shop.example.com')).toEqual(['192.0.2.20']);

    await h.verdict('shop', 'east', 'up', ['us-east-1', 'eu-west-1']);
    await h.settle();
    expect(h.values('shop.example.com')).toEqual(['192.0.2.10']);
  });

  it('Priority: one region of three reporting down does not fail over (fewer than 50% up is the rule)', async () => {
    await upEverywhere([SHOP_DEFINITION]);
    const calls = h.changeCalls().length;
    await h.verdict('shop', 'east', 'down', ['us-east-1']);
    await h.settle();
    expect(h.values('shop.example.com')).toEqual(['192.0.2.10']);
    expect(h.changeCalls().length).toBe(calls);
  });

  it('Priority with regionQuorum all: one region of three reporting down fails over, all three up brings it back', async () => {
    await upEverywhere([
      definition({
        name: 'shop',
        monitorConfig: { regionQuorum: 'all' },
        endpoints: [
          { name: 'east', target: '192.0.2.10' },
          { name: 'west', target: '192.0.2.20' },
        ],
      }),
    ]);
    expect(h.values('shop.example.com')).toEqual(['192.0.2.10']);

    await h.verdict('shop', 'east', 'down', ['us-east-1']);
    await h.settle();
    expect(h.values('shop.example.com')).toEqual(['192.0.2.20']);

    await h.verdict('shop', 'east', 'up', ['us-east-1']);
    await h.settle();
    expect(h.values('shop.example.com')).toEqual(['192.0.2.10']);
  });

  it.each([
    {
      name: 'Weighted: a Degraded endpoint leaves the weighted set',
      definition: definition({
        name: 'w',
        trafficRoutingMethod: 'Weighted',
        endpoints: [
          { name: 'a', target: '192.0.2.1', weight: 3 },
          { name: 'b', target: '192.0.2.2', weight: 1 },
        ],
      }),
      down: 'a',
      before: ['192.0.2.1', '192.0.2.2'],
      after: ['192.0.2.2'],
    },
    {
      name: 'Performance: a Degraded region leaves the latency set',
      definition: definition({
        name: 'perf',
        trafficRoutingMethod: 'Performance',
        endpoints: [
          { name: 'use1', target: '192.0.2.1', endpointLocation: 'us-east-1' },
          { name: 'euw1', target: '192.0.2.2', endpointLocation: 'eu-west-1' },
        ],
      }),
      down: 'use1',
      before: ['192.0.2.1', '192.0.2.2'],
      after: ['192.0.2.2'],
    },
    {
      name: 'MultiValue: a Degraded address leaves the answer',
      definition: definition({
        name: 'mv',
        trafficRoutingMethod: 'MultiValue',
        endpoints: [
          { name: 'a', target: '192.0.2.1' },
          { name: 'b', target: '192.0.2.2' },
          { name: 'c', target: '192.0.2.3' },
        ],
        maxReturn: 8,
      }),
      down: 'b',
      before: ['192.0.2.1', '192.0.2.2', '192.0.2.3'],
      after: ['192.0.2.1', '192.0.2.3'],
    },
    {
      name: 'Geographic: a Degraded endpoint keeps being returned (no failover)',
      definition: definition({
        name: 'geo',
        trafficRoutingMethod: 'Geographic',
        endpoints: [
          { name: 'eu', target: '192.0.2.1', geoMapping: ['GEO-EU'] },
          { name: 'world', target: '192.0.2.2', geoMapping: ['WORLD'] },
        ],
      }),
      down: 'eu',
      before: ['192.0.2.1', '192.0.2.2'],
      after: ['192.0.2.1', '192.0.2.2'],
    },
  ])('$name', async ({ definition, down, before, after }) => {
    await upEverywhere([definition]);
    const name = `${definition.name}.example.com`;
    expect(h.values(name)).toEqual(before);

    await h.verdict(definition.name, down, 'down');
    await h.settle();
    expect(h.values(name)).toEqual(after);

    await h.verdict(definition.name, down, 'up');
    await h.settle();
    expect(h.values(name)).toEqual(before);
  });

  it('Subnet: CIDR records per endpoint location plus the * fallback, published with a CIDR collection', async () => {
    await upEverywhere([
      definition({
        name: 'net',
        trafficRoutingMethod: 'Subnet',
        endpoints: [
          { name: 'office', target: '192.0.2.1', subnets: ['10.0.0.0/8'] },
          { name: 'rest', target: '192.0.2.2' },
        ],
      }),
    ]);
    const records = h.records('net.example.com');
    expect(records.map((r) => r.cidrRoutingConfig?.locationName).sort()).toEqual(['*', 'office']);
    const collectionId = records[0]?.cidrRoutingConfig?.collectionId ?? '';
    expect(h.route53.cidrCollection(collectionId)?.locations.office).toEqual(['10.0.0.0/8']);
  });
});

describe('statuses beyond one endpoint', () => {
  it('all degraded: every eligible endpoint is served, and the profile shows Degraded', async () => {
    await upEverywhere([
      definition({
        name: 'shop',
        endpoints: [
          { name: 'east', target: '192.0.2.10' },
          { name: 'west', target: '192.0.2.20' },
          { name: 'off', target: '192.0.2.30', endpointStatus: 'Disabled' },
        ],
      }),
    ]);
    await h.verdict('shop', 'east', 'down');
    await h.verdict('shop', 'west', 'down');
    await h.settle();
    // Priority serves the first of the (all-degraded) eligible endpoints; the disabled one never.
    expect(h.values('shop.example.com')).toEqual(['192.0.2.10']);
    const statuses = await h.deps.store.loadStatuses();
    expect(statuses.get('shop')?.report.status).toBe('Degraded');
  });

  it('nested: a child whose endpoints are all Degraded makes the parent fail over to its next endpoint', async () => {
    await upEverywhere([
      definition({
        name: 'parent',
        endpoints: [
          { name: 'eu', type: 'nested', targetProfile: 'child' },
          { name: 'backup', target: '192.0.2.99' },
        ],
      }),
      definition({ name: 'child', endpoints: [{ name: 'c1', target: '192.0.2.50' }] }),
    ]);
    expect(h.values('parent.example.com')).toEqual(['ALIAS child.example.com']);

    await h.verdict('child', 'c1', 'down');
    await h.settle();
    expect(h.values('parent.example.com')).toEqual(['192.0.2.99']);
    const statuses = await h.deps.store.loadStatuses();
    expect(statuses.get('parent')?.report.endpoints.find((e) => e.endpoint === 'eu')?.status).toBe(
      'Degraded',
    );
  });
});

describe('configuration flows through the table', () => {
  const shop = (extra: Partial<ProfileDefinitionFields> = {}, ttl = 30) =>
    definition({ ...SHOP_DEFINITION, dnsConfig: { ttl }, ...extra });

  it('a TTL change is published without waiting for a probe', async () => {
    await upEverywhere([shop()]);
    await h.define([shop({}, 120)]);
    expect(h.records('shop.example.com').map((r) => r.ttl)).toEqual([120]);
  });

  it('disabling an endpoint removes it at once', async () => {
    await upEverywhere([shop()]);
    const disabled = shop();
    disabled.endpoints = [
      { name: 'east', target: '192.0.2.10', endpointStatus: 'Disabled' },
      { name: 'west', target: '192.0.2.20' },
    ];
    await h.define([disabled]);
    expect(h.values('shop.example.com')).toEqual(['192.0.2.20']);
  });

  it('a disabled profile has its records deleted (NXDOMAIN)', async () => {
    await upEverywhere([shop()]);
    await h.define([shop({ profileStatus: 'Disabled' })]);
    expect(h.records('shop.example.com')).toEqual([]);
    expect((await h.deps.store.loadStatuses()).get('shop')?.report.status).toBe('Disabled');
  });

  it('a removed profile has its records deleted and its status forgotten', async () => {
    await upEverywhere([
      shop(),
      definition({ name: 'other', endpoints: [{ name: 'x', target: '192.0.2.77' }] }),
    ]);
    await h.define([definition({ name: 'other', endpoints: [{ name: 'x', target: '192.0.2.77' }] })]);
    expect(h.records('shop.example.com')).toEqual([]);
    expect((await h.deps.store.loadStatuses()).has('shop')).toBe(false);
  });
});

describe('idempotence and the Route 53 control plane', () => {
  it('batches changes across profiles of one zone: 30 profiles defined at once, fewer change calls than profiles', async () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      definition({ name: `p${i}`, endpoints: [{ name: 'x', target: `192.0.2.${i + 1}` }] }),
    );
    await h.define(many);
    const statuses = await h.deps.store.loadStatuses();
    expect(statuses.size).toBe(30);
    expect(h.records().filter((r) => /^p\d+\.example\.com$/.test(r.name))).toHaveLength(30);
    expect(h.changeCalls().length).toBeLessThan(30);
  });

  it('replaying a batch makes zero Route 53 calls', async () => {
    const seen: unknown[] = [];
    await upEverywhere([SHOP_DEFINITION]);
    await h.verdict('shop', 'east', 'down');
    await h.settle();
    const { createStreamHandler } = await import('../../functions/evaluator/handler.js');
    const handler = createStreamHandler(() => h.deps);
    const callsBefore = h.route53.calls.length;
    // Replay the same kind of records the stream delivered: the verdict and the config.
    const replay = {
      Records: [
        {
          eventID: 'replay-1',
          eventName: 'MODIFY' as const,
          dynamodb: {
            SequenceNumber: '1',
            Keys: {
              pk: {
                S: Keys.verdict(
                  (await h.deps.store.loadStatuses()).get('shop')?.report.endpoints[0]?.targetKey ?? '',
                  'us-east-1',
                ).pk,
              },
              sk: { S: 'VERDICT' },
            },
            NewImage: { verdict: { S: 'down' } },
          },
        },
        {
          eventID: 'replay-2',
          eventName: 'MODIFY' as const,
          dynamodb: {
            SequenceNumber: '2',
            Keys: { pk: { S: 'CONFIG' }, sk: { S: 'PROFILE#shop' } },
            NewImage: { definition: { S: '{}' } },
          },
        },
      ],
    };
    seen.push(await handler(replay as never));
    expect(seen).toEqual([{ batchItemFailures: [] }]);
    expect(h.route53.calls.length).toBe(callsBefore);
  });

  it('50% injected throttling: the zone still converges and no status change is lost', async () => {
    await upEverywhere([SHOP_DEFINITION]);
    h.route53.setFaults({ throttleRate: 0.5 });
    const flips = ['down', 'up', 'down', 'up', 'down'] as const;
    for (const verdict of flips) {
      h.clock.now += 30_000;
      await h.verdict('shop', 'east', verdict);
      await h.settle();
    }
    h.route53.setFaults({ throttleRate: 0 });
    expect(h.values('shop.example.com')).toEqual(['192.0.2.20']);
    const eastChanges = h.events.filter((e) => e.endpoint === 'east').map((e) => `${e.from}→${e.to}`);
    expect(eastChanges).toEqual([
      'null→CheckingEndpoint',
      'CheckingEndpoint→Online',
      'Online→Degraded',
      'Degraded→Online',
      'Online→Degraded',
      'Degraded→Online',
      'Online→Degraded',
    ]);
    expect(h.route53.calls.some((c) => c.status === 400)).toBe(true);
  });

  it('stale regions: the zone is unchanged and the statuses are flagged stale (fail static)', async () => {
    await upEverywhere([SHOP_DEFINITION]);
    await h.tick();
    await h.settle();
    const zone = h.records();
    const calls = h.changeCalls().length;

    h.clock.now += 60 * 60_000; // every region silent for an hour
    const tick = await h.tick();
    await h.settle();
    expect(tick.stale).toEqual(['ap-southeast-1', 'eu-west-1', 'us-east-1']);
    expect(h.records()).toEqual(zone);
    expect(h.changeCalls().length).toBe(calls);
    const report = (await h.deps.store.loadStatuses()).get('shop')?.report;
    expect(report?.endpoints.every((e) => e.stale && e.status === 'Online')).toBe(true);
  });

  it('a malformed stream record is reported as a batch item failure and dead-lettered after bounded retries', async () => {
    await upEverywhere([definition({ name: 'shop', endpoints: [{ name: 'east', target: '192.0.2.10' }] })]);
    await h.dynamodb.send(
      new PutItemCommand({
        TableName: h.tableName,
        Item: { pk: { S: 'VERDICT#garbage' }, sk: { S: 'VERDICT' }, verdict: { S: 'maybe' } },
      }),
    );
    await h.settle();
    expect(h.deadLetters.map((d) => d.record.dynamodb?.Keys?.pk?.S)).toEqual(['VERDICT#garbage']);
    // and the evaluator keeps working afterwards
    await h.verdict('shop', 'east', 'down');
    await h.settle();
    expect((await h.deps.store.loadStatuses()).get('shop')?.report.endpoints[0]?.status).toBe('Degraded');
  });
});
