/**
 * A failing CloudWatch or Route 53 call while applying static failover is reported and retried,
 * never a crash or a silent drop (docs/adr/0011-static-failover.md): today's records and the
 * statuses are still published, the problem is kept in STATIC / STRUCTURE and given to the
 * evaluator's error log, and the next trigger that can change the structure applies it. A probe
 * region whose CloudWatch is down does not get the guard's datum; the others do.
 */
import { ListHealthChecksCommand } from '@aws-sdk/client-route-53';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planStatic } from '../../functions/evaluator/static-failover-publisher.js';
import { DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { cloudWatchClient, route53Client } from '../../functions/shared/aws-clients.js';
import { idOfCallerReference } from '../../shared/static-failover/identity.js';
import {
  definition,
  profilesFrom,
  REGIONS,
  startEvaluatorHarness,
  type EvaluatorHarness,
} from './harness.js';

const DEPLOYMENT = 'tm-errors';
const DOWN = 'eu-west-1';
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

beforeAll(async () => {
  h = await startEvaluatorHarness({ staticFailover: { deployment: DEPLOYMENT } });
});

afterAll(async () => {
  await h?.stop();
});

async function ourChecks(): Promise<string[]> {
  const client = route53Client({
    endpoint: h.route53.endpoint,
    credentials,
    requestsPerSecond: 1000,
  });
  const page = await client.send(new ListHealthChecksCommand({}));
  client.destroy();
  return (page.HealthChecks ?? []).flatMap((c) => idOfCallerReference(c.CallerReference ?? '') ?? []).sort();
}

describe('static failover under failing calls', () => {
  it("a probe region's CloudWatch down: today's records and statuses still published, the problem kept and reported", async () => {
    // Prepare
    h.cloudWatch?.setRegionDown(DOWN, true);

    // Act
    await h.define([SHOP]);
    await h.allUp();
    await h.heartbeat();
    await h.settle();

    // Assess: neither today's records nor Route 53's side of the structure is held back
    expect(h.values('_fast.shop.example.com')).toEqual(['192.0.2.10']);
    expect(h.records('shop.example.com').map((r) => r.setIdentifier)).toEqual(['fast', 'static']);
    const plan = planStatic(DEPLOYMENT, { profiles: profilesFrom([SHOP]), defaultProbeRegions: REGIONS });
    expect(await ourChecks()).toEqual(plan.structure.healthChecks.map((c) => c.id).sort());
    const statuses = await h.deps.store.loadStatuses();
    expect(statuses.get('shop')?.report.status).toBe('Online');
    // the problem is kept and reported, not dropped
    const item = await h.deps.staticFailover?.store.loadStructure();
    expect(item?.problem?.reason).toMatch(new RegExp(`CloudWatch in ${DOWN}: ServiceUnavailable`));
    expect(item?.alarmRegions).toEqual([...REGIONS].sort());
    expect(h.staticErrors.length).toBeGreaterThan(0);
    // the guard's datum: every region but the one that is down
    const tick = await h.tick();
    expect(tick.guard).toEqual({
      value: 1,
      regions: REGIONS.filter((r) => r !== DOWN).sort(),
      failed: [DOWN],
    });
  });

  it("once the region is back, the next trigger puts that region's alarms", async () => {
    // Prepare
    h.cloudWatch?.setRegionDown(DOWN, false);
    h.staticErrors.length = 0;

    // Act: the tick's reconcile is one of the triggers that retries
    h.clock.now += 10 * 60_000;
    await h.heartbeat();
    await h.tick();
    await h.settle();

    // Assess
    const plan = planStatic(DEPLOYMENT, { profiles: profilesFrom([SHOP]), defaultProbeRegions: REGIONS });
    const client = cloudWatchClient({ endpoint: h.cloudWatch?.endpoint, region: DOWN, credentials });
    const alarms = await client.send(new DescribeAlarmsCommand({ AlarmNamePrefix: `${DEPLOYMENT}-` }));
    client.destroy();
    expect((alarms.MetricAlarms ?? []).map((a) => a.AlarmName).sort()).toEqual(
      plan.structure.alarms
        .filter((a) => a.region === DOWN)
        .map((a) => a.name)
        .sort(),
    );
    expect((await h.deps.staticFailover?.store.loadStructure())?.problem).toBeUndefined();
    expect(h.staticErrors).toEqual([]);
  });
});
