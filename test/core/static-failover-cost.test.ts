import { overriddenAlarm } from '../../shared/static-failover/override.js';
import { describe, expect, it } from 'vitest';
import { failoverTime, GUARD_FLIP_SECONDS, staticFailoverTime } from '../../shared/monitor/failover-time.js';
import type { Profile } from '../../shared/profile/types.js';
import { footprintOf, monthlyPriceOf, quotaWarning } from '../../shared/static-failover/cost.js';
import { diffAlarms, diffHealthChecks } from '../../shared/static-failover/diff.js';
import { planStaticFailover } from '../../shared/static-failover/plan.js';
import type { HealthCheckSpec } from '../../shared/static-failover/types.js';
import { monitorConfig } from '../support/profiles.js';
import { external, profile } from './routing-fixtures.js';

const REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-1'];
const plan = (...profiles: Profile[]) =>
  planStaticFailover(profiles, { deployment: 'tm', defaultProbeRegions: REGIONS });
const endpoints = (n: number) => Array.from({ length: n }, (_, i) => external(`e${i}`, `e${i}.example.net`));

describe('count and monthly price', () => {
  it('one target at 3 regions: 4 checks + the guard’s 4, 6 alarms, 6 metrics, 6 requests a minute', () => {
    const footprint = footprintOf(plan(profile('shop', endpoints(1), { method: 'Weighted' })));
    expect(footprint).toEqual({ healthChecks: 8, alarms: 6, metrics: 6, putMetricDataRequests: 6 * 43_800 });
    const price = monthlyPriceOf(footprint);
    expect(price.healthChecks).toBeCloseTo(4.0);
    expect(price.alarms).toBeCloseTo(0.6);
    expect(price.metrics).toBeCloseTo(1.8);
    expect(price.requests).toBeCloseTo(2.628);
    expect(price.total).toBeCloseTo(9.028);
  });

  it('each further target adds 4 checks, 3 alarms, 3 metrics and no request (up to 1,000 votes a request)', () => {
    const one = footprintOf(plan(profile('shop', endpoints(1), { method: 'Weighted' })));
    const ten = footprintOf(plan(profile('shop', endpoints(10), { method: 'Weighted' })));
    expect(ten.healthChecks - one.healthChecks).toBe(36);
    expect(ten.alarms - one.alarms).toBe(27);
    expect(ten.metrics - one.metrics).toBe(27);
    expect(ten.putMetricDataRequests).toBe(one.putMetricDataRequests);
  });

  it.each([
    [49, 200, undefined],
    [50, 204, 'static failover needs 204 Route 53 health checks, more than the account default of 200'],
  ])('%i targets need %i health checks: warns past the default quota of 200', (n, checks, warning) => {
    const footprint = footprintOf(plan(profile('shop', endpoints(n), { method: 'Weighted' })));
    expect(footprint.healthChecks).toBe(checks);
    if (warning === undefined) expect(quotaWarning(footprint)).toBeUndefined();
    else expect(quotaWarning(footprint)).toContain(warning);
  });
});

describe('the static path’s failover time, beside today’s', () => {
  const monitor = monitorConfig();
  it('defaults (3 tolerated, 30 s, 10 s timeout, TTL 30 s): away 340 s, back 310 s; today’s formula unchanged', () => {
    expect(staticFailoverTime(monitor, 30, 'failing')).toMatchObject({
      totalSeconds: 340,
      formula:
        '(3+1) × 30 s interval + 10 s timeout + 60 s metric period + 60 s alarm evaluation + 60 s health-check pickup + 30 s TTL = 340 s',
    });
    expect(staticFailoverTime(monitor, 30, 'recovering')).toMatchObject({
      totalSeconds: 310,
      formula:
        '1 × 30 s interval + 10 s timeout + 2 × 60 s metric period + 60 s alarm evaluation + 60 s health-check pickup + 30 s TTL = 310 s',
    });
    expect(failoverTime(monitor, 30, 'failing', { batchingWindowSeconds: 2 }).totalSeconds).toBe(222);
  });

  it('a sample window counts the checks that decide it; the guard flips in 240 s', () => {
    const window = monitorConfig({
      healthRule: { kind: 'sampleWindow', sampleSize: 5, successfulSamplesRequired: 3 },
    });
    expect(staticFailoverTime(window, 60, 'failing').totalSeconds).toBe(3 * 30 + 10 + 180 + 60);
    expect(GUARD_FLIP_SECONDS).toBe(240);
  });
});

describe('diff of health checks and alarms', () => {
  const s = plan(profile('shop', endpoints(2), { method: 'Weighted' }));

  it('nothing to do when the account holds what is desired', () => {
    expect(diffHealthChecks(s.healthChecks, s.healthChecks)).toEqual({ create: [], update: [], delete: [] });
    expect(diffAlarms(s.alarms, [...s.alarms].reverse(), 0)).toEqual({ put: [], delete: [] });
  });

  it('creates children before calculated checks, deletes calculated checks before their children', () => {
    const { create } = diffHealthChecks(s.healthChecks, []);
    expect(create).toHaveLength(s.healthChecks.length);
    const firstCalculated = create.findIndex((c) => c.type === 'CALCULATED');
    expect(create.slice(firstCalculated).every((c) => c.type === 'CALCULATED')).toBe(true);
    const { delete: gone } = diffHealthChecks([], [...s.healthChecks].reverse());
    const firstLeaf = gone.findIndex((c) => c.type === 'CLOUDWATCH_METRIC');
    expect(gone.slice(0, firstLeaf).every((c) => c.type === 'CALCULATED')).toBe(true);
    expect(gone.slice(firstLeaf).every((c) => c.type === 'CLOUDWATCH_METRIC')).toBe(true);
  });

  it('updates a changed threshold, replaces a changed type, ignores the description', () => {
    const calculated = s.healthChecks.find(
      (c) => c.type === 'CALCULATED' && c.role === 'target',
    ) as HealthCheckSpec & { type: 'CALCULATED' };
    const leaf = s.healthChecks.find((c) => c.type === 'CLOUDWATCH_METRIC') as HealthCheckSpec;
    const actual: HealthCheckSpec[] = [
      { ...calculated, healthThreshold: 3, description: 'old words' },
      {
        id: leaf.id,
        role: leaf.role,
        description: leaf.description,
        type: 'CALCULATED',
        children: [],
        healthThreshold: 0,
      },
    ];
    const changes = diffHealthChecks([calculated, leaf], actual);
    expect(changes.update).toEqual([calculated]);
    expect(changes.create).toEqual([leaf]);
    expect(changes.delete.map((c) => c.id)).toEqual([leaf.id]);
    expect(diffHealthChecks([calculated], [{ ...calculated, description: 'x' }]).update).toEqual([]);
  });

  it('puts a missing or changed alarm and deletes one no longer desired', () => {
    const [first, second] = s.alarms;
    if (first === undefined || second === undefined) throw new Error('two alarms expected');
    const changed = { ...first, comparisonOperator: 'GreaterThanOrEqualToThreshold' as const, threshold: 0 };
    const stray = { ...second, name: 'tm-vote-t-gone' };
    const changes = diffAlarms([first, second], [changed, stray], 0);
    expect(changes.put).toEqual([first, second]);
    expect(changes.delete).toEqual([{ region: stray.region, name: 'tm-vote-t-gone' }]);
  });

  it("leaves an operator's outage-time override in place until it ends, then puts the planned alarm back", () => {
    const [first] = s.alarms;
    if (first === undefined) throw new Error('an alarm expected');
    const override = { status: 'Degraded' as const, subject: 'shop/e1', by: 'ops', at: 1_000, until: 61_000 };
    const held = overriddenAlarm(first, override);
    expect(diffAlarms([first], [held], 60_999).put).toEqual([]);
    expect(diffAlarms([first], [held], 61_000).put).toEqual([first]);
    const untilEnded = overriddenAlarm(first, { ...override, until: undefined });
    expect(diffAlarms([first], [untilEnded], Number.MAX_SAFE_INTEGER).put).toEqual([]);
    // A target no longer planned goes, override or not.
    expect(diffAlarms([], [held], 0).delete).toEqual([{ region: first.region, name: first.name }]);
  });
});
