/**
 * No lost events or history: a status change and its notifications are written in one
 * transaction (status + outbox), and the outbox publisher writes the history items, waits for
 * Route 53 to be INSYNC and puts the events on the bus, retrying with backoff. Failures are
 * injected where they hurt: PutEvents failing several times in a row, EventBridge refusing
 * every entry for longer than the retries last, and a crash right after the status write.
 * Every transition ends up in history and on the bus, once per event id. DynamoDB Local with
 * its real stream, the production handler, the local Route 53 and a local EventBridge, all
 * through the production client factory.
 */
import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryItem } from '../../shared/state/items.js';
import {
  SHOP_DEFINITION,
  startEvaluatorHarness,
  type EvaluatorHarness,
  type EvaluatorHarnessOptions,
} from './harness.js';

const shop = SHOP_DEFINITION;

let h: EvaluatorHarness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

async function harness(options: EvaluatorHarnessOptions = {}): Promise<EvaluatorHarness> {
  h = await startEvaluatorHarness({ eventBridge: true, ...options });
  await h.define([shop]);
  await h.heartbeat();
  await h.allUp();
  await h.settle();
  return h;
}

async function query(harness: EvaluatorHarness, pk: string): Promise<Record<string, unknown>[]> {
  const page = await harness.dynamodb.send(
    new QueryCommand({
      TableName: harness.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: pk } },
      ConsistentRead: true,
    }),
  );
  return (page.Items ?? []).map((item) => unmarshall(item));
}

const historyOf = async (harness: EvaluatorHarness) =>
  (await query(harness, 'HISTORY#shop')) as unknown as HistoryItem[];

/** Event ids on the bus, and how often each was delivered. */
function deliveries(harness: EvaluatorHarness): Map<string, number> {
  const counts = new Map<string, number>();
  for (const event of harness.bus?.events ?? []) {
    const id = String(event.detail.eventId);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** Every transition in history is on the bus exactly once, and nothing else is. */
async function expectEveryTransitionDeliveredOnce(harness: EvaluatorHarness): Promise<HistoryItem[]> {
  const history = await historyOf(harness);
  const delivered = deliveries(harness);
  expect([...delivered.keys()].sort()).toEqual(history.map((i) => i.eventId).sort());
  expect([...delivered.values()].every((n) => n === 1)).toBe(true);
  expect(await query(harness, 'OUTBOX')).toEqual([]);
  return history;
}

describe('outbox: no lost events or history', () => {
  it('PutEvents failing 3 times in a row, then succeeding: every transition is delivered, once per id', async () => {
    // Prepare
    const t = await harness();
    t.bus?.failNext(3);
    const requestsBefore = t.bus?.requests() ?? 0;

    // Act
    await t.verdict('shop', 'east', 'down');
    await t.settle();

    // Assess
    expect(t.values('shop.example.com')).toEqual(['192.0.2.20']);
    const history = await expectEveryTransitionDeliveredOnce(t);
    expect(history.map((i) => `${i.endpoint ?? '*'} ${i.from}→${i.to}`)).toContain('east Online→Degraded');
    expect((t.bus?.requests() ?? 0) - requestsBefore).toBe(4); // 3 refused, 1 accepted
    const failover = t.bus?.events.find((e) => e.detail.endpoint === 'east' && e.detail.to === 'Degraded');
    expect(failover).toMatchObject({ source: 'traffic-manager', detailType: 'EndpointStatusChanged' });
  });

  it('EventBridge refusing every entry for longer than the retries last: the events wait in the outbox, and the next tick delivers them', async () => {
    // Prepare
    const t = await harness();
    t.bus?.failNextEntries(100);

    // Act: the failover is published to DNS at once; its events cannot be delivered
    await t.verdict('shop', 'east', 'down');
    await t.settle();
    expect(t.values('shop.example.com')).toEqual(['192.0.2.20']);
    const waiting = await query(t, 'OUTBOX');
    const inHistory = await historyOf(t);
    // EventBridge is back; the tick sees the waiting entries and wakes the evaluator
    t.bus?.failNextEntries(0);
    const tick = await t.tick();
    await t.settle();

    // Assess
    expect(waiting.length).toBeGreaterThan(0);
    expect(inHistory.some((i) => i.endpoint === 'east' && i.to === 'Degraded')).toBe(true);
    expect(tick.outboxWaiting).toBe(true);
    await expectEveryTransitionDeliveredOnce(t);
  });

  it('a crash right after the status write: the retried batch publishes what the first attempt committed, history included', async () => {
    // Prepare: the status write reaches the table, then the function dies (the call never returns)
    const t = await harness();
    let crashed = false;
    t.evaluatorDynamoDb.middlewareStack.add(
      (next) => async (args) => {
        const result = await next(args);
        if (!crashed && writesStatus((args as { input: Record<string, unknown> }).input)) {
          crashed = true;
          throw new Error('injected crash after the status write');
        }
        return result;
      },
      { step: 'initialize', name: 'crashAfterStatusWrite' },
    );

    // Act
    await t.verdict('shop', 'east', 'down');
    await t.settle();

    // Assess
    expect(crashed).toBe(true);
    const history = await expectEveryTransitionDeliveredOnce(t);
    const transitions = history.map((i) => `${i.endpoint ?? '*'} ${i.from}→${i.to}`);
    expect(transitions).toContain('east Online→Degraded');
    expect(transitions).toContain('* Online→Degraded');
  });

  it('a change still PENDING in Route 53: history has the transition at once, the event waits for INSYNC and carries inSyncAt', async () => {
    // Prepare
    const t = await harness({ changeDelayMs: 20_000 });
    const seen = t.bus?.events.length ?? 0;
    t.clock.now += 60_000;
    await t.heartbeat();
    const decidedAt = t.clock.now;
    await t.verdict('shop', 'east', 'down', undefined, () => ({ runStartedAt: decidedAt - 30_000 }));
    await t.settle();
    const pending = (await historyOf(t)).find((i) => i.endpoint === 'east' && i.to === 'Degraded');
    const sentWhilePending = (t.bus?.events ?? [])
      .slice(seen)
      .filter((e) => e.detail.endpoint === 'east' && e.detail.to === 'Degraded');

    // Act: Route 53 is INSYNC by the next tick
    t.clock.now += 30_000;
    await t.tick();
    await t.settle();

    // Assess
    expect(pending?.timing.changeSubmittedAt).not.toBeNull();
    expect(pending?.timing.inSyncAt).toBeNull();
    expect(sentWhilePending).toEqual([]);
    const history = await expectEveryTransitionDeliveredOnce(t);
    const east = history.find((i) => i.endpoint === 'east' && i.to === 'Degraded');
    const timing = east?.timing;
    expect(timing?.inSyncAt).toBe(new Date(decidedAt + 30_000).toISOString());
    expect(timing?.detectToPublishMs).toBe(60_000);
    const ms = (iso: string | null | undefined) => Date.parse(iso ?? '');
    expect(ms(timing?.firstFailedCheckAt)).toBeLessThanOrEqual(ms(timing?.decidedAt));
    expect(ms(timing?.decidedAt)).toBeLessThanOrEqual(ms(timing?.changeSubmittedAt));
    expect(ms(timing?.changeSubmittedAt)).toBeLessThanOrEqual(ms(timing?.inSyncAt));
    const event = t.bus?.events.find((e) => e.detail.eventId === east?.eventId);
    expect(event?.detail.timing).toEqual(timing);
  });
});

function writesStatus(input: Record<string, unknown>): boolean {
  return JSON.stringify(input).includes('"pk":{"S":"STATUS"}');
}
