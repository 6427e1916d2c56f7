/**
 * Drift repair: a record someone else edits, deletes or adds at an owned name is put back at
 * the next reconcile — which the tick requests once per reconcile interval (it never calls
 * Route 53 itself) and the evaluator runs from the stream — and nothing at a name we do not
 * own is touched. Production wiring: the handler on DynamoDB Local's stream, the Lambda's
 * Route 53 client and gateway against the local Route 53, which "someone else" changes
 * through its API with their own SDK client.
 */
import {
  ChangeResourceRecordSetsCommand,
  Route53Client,
  type Change as SdkChange,
} from '@aws-sdk/client-route-53';
import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DriftRepairedEvent } from '../../functions/evaluator/ports.js';
import { DEFAULT_RECONCILE_INTERVAL_MS } from '../../functions/evaluator/reconcile-interval.js';
import {
  startEvaluatorHarness,
  ZONE_ID,
  type EvaluatorHarness,
  type EvaluatorHarnessOptions,
} from './harness.js';

const MINUTE = 60_000;
const dns = (relativeName: string) => ({
  zoneName: 'example.com',
  hostedZoneId: ZONE_ID,
  relativeName,
  ttl: 30,
});
const monitor = { protocol: 'HTTP', port: 80, path: '/health' };
const definitions = [
  {
    name: 'shop',
    trafficRoutingMethod: 'Priority',
    dnsConfig: dns('shop'),
    monitorConfig: monitor,
    endpoints: [
      { name: 'east', target: '192.0.2.10' },
      { name: 'west', target: '192.0.2.20' },
    ],
  },
  {
    name: 'api',
    trafficRoutingMethod: 'Weighted',
    dnsConfig: dns('api'),
    monitorConfig: monitor,
    endpoints: [
      { name: 'a', target: '192.0.2.31', weight: 2 },
      { name: 'b', target: '192.0.2.32', weight: 1 },
    ],
  },
];

let h: EvaluatorHarness;
let outsider: Route53Client;
async function start(options: EvaluatorHarnessOptions = {}) {
  h = await startEvaluatorHarness(options);
  outsider = new Route53Client({
    endpoint: h.route53.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'someone', secretAccessKey: 'else' },
  });
  await h.define(definitions);
  await h.heartbeat();
  await h.allUp();
  await h.settle();
  await h.tick(); // the first tick requests a reconcile at once: nothing has drifted yet
  await h.settle();
}
afterEach(async () => {
  outsider.destroy();
  await h.stop();
});

const a = (name: string, value: string, extra: Record<string, unknown> = {}) => ({
  Name: name,
  Type: 'A' as const,
  TTL: 30,
  ResourceRecords: [{ Value: value }],
  ...extra,
});
async function someoneElse(changes: SdkChange[]) {
  await outsider.send(
    new ChangeResourceRecordSetsCommand({ HostedZoneId: ZONE_ID, ChangeBatch: { Changes: changes } }),
  );
}
/** One reconcile interval later, with the probe regions alive. */
async function nextReconcile() {
  h.clock.now += DEFAULT_RECONCILE_INTERVAL_MS;
  await h.heartbeat();
  const tick = await h.tick();
  await h.settle();
  return tick;
}
const drift = () => h.allEvents.filter((e): e is DriftRepairedEvent => e.kind === 'DriftRepaired');

describe('reconcile: the zone is put back to what was published', () => {
  beforeEach(() => start());

  it('a record edited by someone else is back at the next reconcile, and the event says what was found and what was written', async () => {
    await someoneElse([{ Action: 'UPSERT', ResourceRecordSet: a('shop.example.com', '203.0.113.66') }]);
    expect(h.values('shop.example.com')).toEqual(['203.0.113.66']);

    expect((await nextReconcile()).reconcileRequested).toBe(true);

    expect(h.values('shop.example.com')).toEqual(['192.0.2.10']);
    expect(drift()).toEqual([
      expect.objectContaining({
        profile: 'shop',
        hostedZoneId: ZONE_ID,
        name: 'shop.example.com',
        type: 'A',
        found: expect.objectContaining({ values: ['203.0.113.66'] }),
        written: expect.objectContaining({ values: ['192.0.2.10'], ttl: 30 }),
        changeId: expect.stringMatching(/C[A-Z0-9]+$/),
        inSyncAt: expect.any(Number),
      }),
    ]);
    const [event] = drift();
    expect(event?.eventId).toBe(`shop/drift/A shop.example.com@${event?.reconciledAt}`);
    const [zone] = await h.deps.store.loadZoneReconciles([ZONE_ID]);
    expect(zone).toMatchObject({ hostedZoneId: ZONE_ID, names: 2, repaired: 1, changeId: event?.changeId });
  });

  it('a deleted record is recreated; a record set added at an owned name is deleted; a name nobody owns is left alone', async () => {
    await someoneElse([
      { Action: 'DELETE', ResourceRecordSet: a('shop.example.com', '192.0.2.10') },
      {
        Action: 'CREATE',
        ResourceRecordSet: a('api.example.com', '198.51.100.9', { SetIdentifier: 'intruder', Weight: 100 }),
      },
      { Action: 'CREATE', ResourceRecordSet: a('theirs.example.com', '198.51.100.1') },
    ]);

    await nextReconcile();

    expect(h.values('shop.example.com')).toEqual(['192.0.2.10']);
    expect(h.values('api.example.com')).toEqual(['192.0.2.31', '192.0.2.32']);
    expect(h.values('theirs.example.com')).toEqual(['198.51.100.1']);
    const repairs = drift().map((e) => ({
      name: e.name,
      set: e.setIdentifier,
      found: e.found?.values ?? null,
      written: e.written?.values ?? null,
    }));
    expect(repairs).toEqual(
      expect.arrayContaining([
        { name: 'shop.example.com', set: undefined, found: null, written: ['192.0.2.10'] },
        { name: 'api.example.com', set: 'intruder', found: ['198.51.100.9'], written: null },
      ]),
    );
    expect(repairs).toHaveLength(2);
  });

  it('one change batch per zone repairs every drifted name; a quiet reconcile reads the zone and changes nothing', async () => {
    await someoneElse([
      { Action: 'UPSERT', ResourceRecordSet: a('shop.example.com', '203.0.113.1') },
      {
        Action: 'DELETE',
        ResourceRecordSet: a('api.example.com', '192.0.2.32', { SetIdentifier: 'b', Weight: 1 }),
      },
    ]);
    const before = h.changeCalls().length;
    await nextReconcile();
    expect(h.changeCalls().length - before).toBe(1);

    const quiet = h.route53.calls.length;
    const changes = h.changeCalls().length;
    await nextReconcile();
    const calls = h.route53.calls.slice(quiet).map((c) => c.operation);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((op) => op === 'ListResourceRecordSets' || op === 'GetHostedZone')).toBe(true);
    expect(h.changeCalls().length).toBe(changes);
  });

  it('the tick asks for a reconcile once per interval, not every minute', async () => {
    const requested: boolean[] = [];
    for (let minute = 1; minute <= 10; minute++) {
      h.clock.now += MINUTE;
      await h.heartbeat();
      requested.push((await h.tick()).reconcileRequested);
    }
    expect(requested).toEqual([false, false, false, false, true, false, false, false, false, true]);
  });
});

describe('a repair’s events go through the outbox', () => {
  it('the event waits in the outbox while the repair is PENDING, then is delivered once, with inSyncAt, past PutEvents failing 3 times', async () => {
    // Prepare: Route 53 reports a change PENDING for 20 s; EventBridge fails the next 3 PutEvents
    await start({ eventBridge: true, changeDelayMs: 20_000 });
    const bus = h.bus!;
    await someoneElse([{ Action: 'UPSERT', ResourceRecordSet: a('shop.example.com', '203.0.113.66') }]);

    // Act: the reconcile repairs at once; the event waits for INSYNC
    await nextReconcile();
    const repairedAt = h.clock.now;
    const whilePending = bus.events.filter((e) => e.detailType === 'DriftRepaired');
    const waiting = await outboxItems();
    bus.failNext(3);
    h.clock.now += 30_000;
    await h.heartbeat();
    await h.tick(); // entries wait: TICK/OUTBOX wakes the evaluator to drain
    await h.settle();

    // Assess
    expect(h.values('shop.example.com')).toEqual(['192.0.2.10']);
    expect(whilePending).toEqual([]);
    expect(waiting.map((i) => i.sk)).toEqual([expect.stringMatching(`^@repair#${ZONE_ID}#`)]);
    const delivered = bus.events.filter((e) => e.detailType === 'DriftRepaired');
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.detail).toMatchObject({
      eventId: `shop/drift/A shop.example.com@${repairedAt}`,
      name: 'shop.example.com',
      found: expect.objectContaining({ values: ['203.0.113.66'] }),
      written: expect.objectContaining({ values: ['192.0.2.10'] }),
      changeSubmittedAt: repairedAt,
      inSyncAt: repairedAt + 30_000,
    });
    expect(await outboxItems()).toEqual([]);
  });
});

async function outboxItems(): Promise<{ sk: string }[]> {
  const page = await h.dynamodb.send(
    new QueryCommand({
      TableName: h.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: 'OUTBOX' } },
      ConsistentRead: true,
    }),
  );
  return (page.Items ?? []).map((item) => ({ sk: item.sk?.S ?? '' }));
}
