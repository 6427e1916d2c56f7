/**
 * Every transition is recorded and timed: the history item (what `tm history` reads) and the
 * event carry the same record — from, to, at, reason, votes, recordsChanged, a stable event
 * id — and its timing from the first failed check to the Route 53 change, beside the
 * operators' formula. DynamoDB Local with its real stream, the production handler, the local
 * Route 53 through the real SDK client.
 */
import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryItem } from '../../shared/state/items.js';
import { SHOP_DEFINITION, startEvaluatorHarness, type EvaluatorHarness } from './harness.js';

const shop = SHOP_DEFINITION;

let h: EvaluatorHarness;
beforeEach(async () => {
  h = await startEvaluatorHarness();
});
afterEach(async () => {
  await h.stop();
});

async function history(profile: string): Promise<HistoryItem[]> {
  const page = await h.dynamodb.send(
    new QueryCommand({
      TableName: h.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: `HISTORY#${profile}` } },
      ConsistentRead: true,
    }),
  );
  return (page.Items ?? []).map((item) => unmarshall(item) as HistoryItem);
}

const iso = (ms: number) => new Date(ms).toISOString();

describe('history: every transition recorded and timed', () => {
  it('a failover: the endpoint and profile changes carry from/to, reason, votes, records changed and timing from the deciding region’s first failed check', async () => {
    // Prepare
    await h.define([shop]);
    await h.heartbeat();
    await h.allUp();
    await h.settle();
    h.clock.now += 300_000;
    await h.heartbeat();
    const decidedAt = h.clock.now;
    // us-east-1 decided first (its run began 100 s ago), eu-west-1 second: the second down vote
    // of three tips the endpoint, so its run is the one that led to the failover.
    const runs: Record<string, { since: number; runStartedAt: number }> = {
      'us-east-1': { since: decidedAt - 10_000, runStartedAt: decidedAt - 100_000 },
      'eu-west-1': { since: decidedAt - 5_000, runStartedAt: decidedAt - 95_000 },
    };
    // Act
    await h.verdict('shop', 'east', 'down', ['us-east-1', 'eu-west-1'], (region) => ({
      ...runs[region],
      checkedAt: runs[region]?.since,
    }));
    await h.settle();
    // Assess
    const items = await history('shop');
    const east = items.find((i) => i.endpoint === 'east' && i.to === 'Degraded');
    expect(east).toMatchObject({
      profile: 'shop',
      endpoint: 'east',
      from: 'Online',
      to: 'Degraded',
      at: iso(decidedAt),
      reason: '4 consecutive failures (tolerated 3) in 2/3 regions',
      recordsChanged: [{ action: 'UPSERT', name: 'shop.example.com', type: 'A', values: ['192.0.2.20'] }],
      timing: {
        firstFailedCheckAt: iso(decidedAt - 95_000),
        decidedAt: iso(decidedAt),
        expectedDetectToPublishMs: 162_000,
        expectedFormula: '(3+1) × 30 s interval + 10 s timeout + 62 s publish + 30 s TTL = 222 s',
      },
    });
    expect(east?.votes.map((v) => `${v.region}:${v.vote}`).sort()).toEqual([
      'ap-southeast-1:up',
      'eu-west-1:down',
      'us-east-1:down',
    ]);
    expect(east?.eventId).toMatch(/^shop\/east\/\d+@\d+$/);
    expect(Date.parse(east?.timing.changeSubmittedAt ?? '')).toBeGreaterThanOrEqual(decidedAt);
    const profile = items.find((i) => i.endpoint === undefined && i.to === 'Degraded');
    expect(profile).toMatchObject({
      from: 'Online',
      timing: { firstFailedCheckAt: iso(decidedAt - 95_000), decidedAt: iso(decidedAt) },
    });
    // The event is the same record.
    expect(h.events.find((e) => e.eventId === east?.eventId)).toEqual(
      expect.objectContaining({ from: 'Online', to: 'Degraded', timing: east?.timing }),
    );
  });

  it('two changes of one endpoint in the same millisecond are two history items with two event ids', async () => {
    await h.define([shop]);
    await h.heartbeat();
    // Evaluated before the verdicts arrive (CheckingEndpoint), not in one stream batch with them.
    await h.settle();
    await h.allUp();
    await h.settle();
    // Act: down and up again without the clock moving
    await h.verdict('shop', 'east', 'down');
    await h.settle();
    await h.verdict('shop', 'east', 'up');
    await h.settle();
    // Assess
    const east = (await history('shop')).filter((i) => i.endpoint === 'east');
    expect(east.map((i) => `${i.from}→${i.to}`).sort()).toEqual([
      'CheckingEndpoint→Online',
      'Degraded→Online',
      'Online→Degraded',
      'null→CheckingEndpoint',
    ]);
    expect(new Set(east.map((i) => i.eventId)).size).toBe(4);
  });

  it('a transition without a DNS change has no submission time and a configuration change no first failed check', async () => {
    await h.define([shop]);
    await h.heartbeat();
    await h.allUp();
    await h.settle();
    // Act: west (second priority, not answered) fails: no record changes
    await h.verdict('shop', 'west', 'down');
    await h.settle();
    // Assess
    const west = (await history('shop')).find((i) => i.endpoint === 'west' && i.to === 'Degraded');
    expect(west?.recordsChanged).toEqual([]);
    expect(west?.timing).toMatchObject({ changeSubmittedAt: null, inSyncAt: null, detectToPublishMs: null });
    const first = (await history('shop')).find((i) => i.endpoint === 'east' && i.from === null);
    expect(first?.timing).toMatchObject({ firstFailedCheckAt: null, expectedDetectToPublishMs: null });
  });
});
