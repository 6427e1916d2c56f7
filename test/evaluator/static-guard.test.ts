/**
 * The guard of static failover (docs/adr/0011-static-failover.md, "Guard"): every minute the
 * evaluator tick publishes `EvaluatorPublishing` into every probe region — 1 after a good
 * publish, 0 once Route 53 refused the evaluator's call (the local Route 53's `setApiDown`). And
 * over real DNS (the local DNS server reading that Route 53): with the API down, the guard's
 * alarms go to ALARM, the switch answers from `_static`, and the primary's vote alarm flipping
 * to ALARM moves `dig` to the secondary — while no record change succeeds.
 * Everything through the production clients (the factory), DynamoDB Local, the local Route 53
 * and the local CloudWatch (harness clock, alarms evaluated by hand).
 */
import { PutMetricDataCommand } from '@aws-sdk/client-cloudwatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planStatic } from '../../functions/evaluator/static-failover-publisher.js';
import { cloudWatchClient } from '../../functions/shared/aws-clients.js';
import { startDnsServer, type DnsServer } from '../../infra/local/dns/index.js';
import { endpointVerdictKey } from '../../shared/probe/target.js';
import { guardAlarmNameOf } from '../../shared/static-failover/identity.js';
import { VOTE_METRIC } from '../../shared/static-failover/types.js';
import { dig, digAvailable } from '../local/dns-fixtures.js';
import {
  definition,
  profilesFrom,
  REGIONS,
  startEvaluatorHarness,
  type EvaluatorHarness,
} from './harness.js';

const DEPLOYMENT = 'tm-guard';
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const SHOP = definition({
  name: 'shop',
  staticFailover: true,
  endpoints: [
    { name: 'east', target: '192.0.2.10' },
    { name: 'west', target: '192.0.2.20' },
  ],
});

let h: EvaluatorHarness;
let dns: DnsServer;

beforeAll(async () => {
  // One attempt per Route 53 call: a refused evaluation fails at once instead of after 30 s of retries.
  h = await startEvaluatorHarness({
    staticFailover: { deployment: DEPLOYMENT },
    route53Retry: { retries: 0, baseDelayMs: 0 },
  });
  dns = await startDnsServer({ zones: h.route53, port: 0 });
  await h.define([SHOP]);
  await h.allUp();
  await h.heartbeat();
  await h.settle();
});

afterAll(async () => {
  await dns?.stop();
  await h?.stop();
});

const answer = async () => (await dig(dns.port, ['shop.example.com', 'A'])).answers.map((a) => a.data);

/** What the evaluator stored for the guard (STATIC / PUBLISHING). */
async function publishingItem() {
  return h.deps.staticFailover?.store.loadPublishing();
}

describe('the guard and the static path', () => {
  it('the apply that creates the guard alarms gives them data: evaluated before any tick, and before the period of the apply is complete, they are OK', async () => {
    // Act: the definitions were applied in beforeAll at the harness clock; no tick has run
    for (const at of [h.clock.now, h.clock.now + 60_000]) {
      h.cloudWatch?.evaluate(at);

      // Assess: not ALARM (the complete periods before it, without a datum, would be: missing data is breaching)
      for (const region of REGIONS)
        expect(h.cloudWatch?.stateOf(region, guardAlarmNameOf(DEPLOYMENT))).toBe('OK');
    }
  });

  it('publishes 1 into every probe region after a good publish', async () => {
    // Act
    const tick = await h.tick();

    // Assess
    expect(h.values('_fast.shop.example.com')).toEqual(['192.0.2.10']);
    expect((await publishingItem())?.publishing).toBe(true);
    expect(tick.guard).toEqual({ value: 1, regions: [...REGIONS].sort(), failed: [] });
    // the datum reached each region's alarm: one minute later the guard alarm is OK there
    h.clock.now += 60_000;
    h.cloudWatch?.evaluate(h.clock.now + 60_000);
    for (const region of REGIONS)
      expect(h.cloudWatch?.stateOf(region, guardAlarmNameOf(DEPLOYMENT))).toBe('OK');
  });

  it.skipIf(!digAvailable)('answers from _fast while the evaluator publishes', async () => {
    expect(await answer()).toEqual(['192.0.2.10']);
  });

  it('publishes 0 once Route 53 refused the evaluator, and the guard alarms go to ALARM', async () => {
    // Prepare
    h.route53.setApiDown(true);

    // Act: east fails; the evaluator's change is refused
    await h.verdict('shop', 'east', 'down');
    await h.settle();
    const first = await h.tick();
    h.clock.now += 60_000;
    const second = await h.tick();
    h.clock.now += 60_000;
    h.cloudWatch?.evaluate(h.clock.now);

    // Assess
    const item = await publishingItem();
    expect(item?.publishing).toBe(false);
    expect(item?.reason).toMatch(/ServiceUnavailable/);
    expect([first.guard?.value, second.guard?.value]).toEqual([0, 0]);
    for (const region of REGIONS)
      expect(h.cloudWatch?.stateOf(region, guardAlarmNameOf(DEPLOYMENT))).toBe('ALARM');
    // today's records could not change: _fast still says east
    expect(h.values('_fast.shop.example.com')).toEqual(['192.0.2.10']);
  });

  it.skipIf(!digAvailable)(
    "with the API down, the primary's vote alarm in ALARM moves dig to the secondary",
    async () => {
      // Prepare: the switch now answers from _static, where east still counts healthy
      expect(await answer()).toEqual(['192.0.2.10']);
      const profile = profilesFrom([SHOP])[0];
      const east = profile?.endpoints[0];
      if (profile === undefined || east?.type !== 'external') throw new Error('no east');
      const { structure } = planStatic(DEPLOYMENT, { profiles: [profile], defaultProbeRegions: REGIONS });
      const target = structure.targets.find((t) => t.verdictKey === endpointVerdictKey(profile, east));
      const votes = structure.metrics.filter(
        (m) => m.metricName === VOTE_METRIC && m.dimensions.some((d) => d.value === target?.id),
      );
      expect(votes.map((v) => v.region).sort()).toEqual([...REGIONS].sort());
      const changesBefore = h.changeCalls().length;

      // Act: each probe region votes east down (as the probes publish it), and the minute closes
      for (const vote of votes) {
        const client = cloudWatchClient({
          endpoint: h.cloudWatch?.endpoint,
          region: vote.region,
          credentials,
        });
        await client.send(
          new PutMetricDataCommand({
            Namespace: vote.namespace,
            MetricData: [
              {
                MetricName: vote.metricName,
                Dimensions: vote.dimensions.map((d) => ({ Name: d.name, Value: d.value })),
                Value: 0,
                Timestamp: new Date(h.clock.now),
              },
            ],
          }),
        );
        client.destroy();
      }
      await h.tick(); // still 0: the guard stays down
      h.clock.now += 60_000;
      h.cloudWatch?.evaluate(h.clock.now);

      // Assess
      expect(await answer()).toEqual(['192.0.2.20']);
      expect(h.changeCalls().length).toBe(changesBefore);
      expect(h.route53.calls.some((c) => c.refused === 'route53-api')).toBe(true);
    },
  );

  it('publishes 1 again once a Route 53 call succeeds', async () => {
    // Prepare
    h.route53.setApiDown(false);

    // Act: the reconcile (every interval) calls Route 53 again
    h.clock.now += 10 * 60_000;
    await h.heartbeat();
    const tick = await h.tick();
    await h.settle();
    const after = await h.tick();

    // Assess
    expect(tick.reconcileRequested).toBe(true);
    expect((await publishingItem())?.publishing).toBe(true);
    expect(after.guard?.value).toBe(1);
  });
});
