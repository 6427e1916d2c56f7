/**
 * One profile's change that Route 53 rejects (InvalidChangeBatch) must not hold back the other
 * profiles of the same zone: the rejected profile is isolated, the rest is published, the
 * reason lands on that profile's status and in an event, and the stream batch succeeds (no
 * dead-letter loop for the whole zone). Real parts: DynamoDB Local's stream, the production
 * handler, the local Route 53 (which refuses a name outside the zone as Route 53 does).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { definition, startEvaluatorHarness, type EvaluatorHarness } from './harness.js';

// `wrong` names example.org but points at the example.com zone: an operator's typo Route 53 refuses.
const profile = (name: string, zoneName: string, target: string) =>
  definition({ name, dnsConfig: { zoneName }, endpoints: [{ name: 'x', target }] });

let h: EvaluatorHarness;
beforeEach(async () => {
  h = await startEvaluatorHarness();
});
afterEach(async () => {
  await h.stop();
});

describe('a change Route 53 rejects is isolated to its profile', () => {
  it('the other profiles of the zone are published; the rejected one carries the reason on its status and in an event', async () => {
    await h.define([
      profile('alpha', 'example.com', '192.0.2.1'),
      profile('wrong', 'example.org', '192.0.2.2'),
      profile('omega', 'example.com', '192.0.2.3'),
    ]);

    expect(h.values('alpha.example.com')).toEqual(['192.0.2.1']);
    expect(h.values('omega.example.com')).toEqual(['192.0.2.3']);
    expect(h.deadLetters).toEqual([]);

    const statuses = await h.deps.store.loadStatuses();
    expect(statuses.get('wrong')?.publishProblem?.reasons.join()).toMatch(
      /RRSet with DNS name wrong\.example\.org\. is not permitted in zone example\.com\./,
    );
    expect(statuses.get('alpha')?.publishProblem).toBeUndefined();
    const rejected = h.allEvents.filter((e) => e.kind === 'PublishRejected');
    expect(rejected.map((e) => e.profile)).toEqual(['wrong']);
  });

  it('later evaluations of the whole zone (a tick, a failover) keep publishing the others; the refusal is not repeated as an event', async () => {
    await h.define([
      {
        ...profile('alpha', 'example.com', '192.0.2.1'),
        endpoints: [
          { name: 'x', target: '192.0.2.1' },
          { name: 'y', target: '192.0.2.11' },
        ],
      },
      profile('wrong', 'example.org', '192.0.2.2'),
    ]);
    await h.heartbeat();
    await h.allUp();
    await h.tick(); // every profile, 'wrong' included
    await h.settle();
    await h.verdict('alpha', 'x', 'down');
    await h.settle();

    expect(h.values('alpha.example.com')).toEqual(['192.0.2.11']);
    expect(h.deadLetters).toEqual([]);
    expect(h.allEvents.filter((e) => e.kind === 'PublishRejected')).toHaveLength(1);
    expect((await h.deps.store.loadStatuses()).get('wrong')?.report.status).toBe('Online');
  });
});
