/**
 * Outage-time overrides of a vote alarm (shared/static-failover/override.ts): the overwritten
 * alarm's state no longer depends on the votes — judged by CloudWatch's alarm rules as the
 * local CloudWatch implements them (infra/local/cloudwatch/evaluate.ts) — the description
 * records the command and reads back, and an endpoint maps to its target's alarms in every
 * probe region, naming the profile endpoints that share them.
 */
import { describe, expect, it } from 'vitest';
import { judge } from '../../infra/local/cloudwatch/evaluate.js';
import type { AlarmDefinition } from '../../infra/local/cloudwatch/alarm-input.js';
import { parseDefinitionsOrThrow } from '../support/parse-definitions.js';
import { planStaticFailover } from '../../shared/static-failover/plan.js';
import {
  alarmOverrideOf,
  describeAlarmOverride,
  isHeld,
  overriddenAlarm,
  overrideTargetOf,
  type AlarmOverride,
} from '../../shared/static-failover/override.js';
import type { AlarmSpec } from '../../shared/static-failover/types.js';
import { profileDefinition } from '../support/profiles.js';

const REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-1'];
const OPTIONS = { deployment: 'prod', defaultProbeRegions: REGIONS };
const profiles = parseDefinitionsOrThrow([
  profileDefinition({
    name: 'shop',
    endpoints: [
      { name: 'east', target: '192.0.2.10', priority: 1 },
      { name: 'west', target: '192.0.2.20', priority: 2 },
    ],
  }),
  // The same probe request as shop/east: one target, one set of alarms.
  profileDefinition({
    name: 'api',
    trafficRoutingMethod: 'Weighted',
    endpoints: [
      { name: 'east', target: '192.0.2.10', weight: 1 },
      { name: 'always', target: '192.0.2.30', weight: 1, alwaysServe: true },
    ],
  }),
  profileDefinition({
    name: 'geo',
    trafficRoutingMethod: 'Geographic',
    endpoints: [{ name: 'all', target: '192.0.2.40', geoMapping: ['WORLD'] }],
  }),
  profileDefinition({
    name: 'plain',
    staticFailover: false,
    endpoints: [{ name: 'a', target: '192.0.2.50' }],
  }),
]);
const DEGRADED: AlarmOverride = { status: 'Degraded', subject: 'shop/east', by: 'alice', at: 1_000 };

function definitionOf(alarm: AlarmSpec): AlarmDefinition {
  return {
    alarmName: alarm.name,
    description: undefined,
    actionsEnabled: false,
    metric: { namespace: alarm.namespace, metricName: alarm.metricName, dimensions: [] } as never,
    statistic: alarm.statistic,
    period: alarm.periodSeconds,
    evaluationPeriods: alarm.evaluationPeriods,
    datapointsToAlarm: alarm.datapointsToAlarm,
    threshold: alarm.threshold,
    comparisonOperator: alarm.comparisonOperator,
    treatMissingData: alarm.treatMissingData,
    unit: undefined,
  };
}

/** Every vote history of three periods: up (1), down (0) or missing. */
const HISTORIES = [0, 1, undefined].flatMap((a) =>
  [0, 1, undefined].flatMap((b) => [0, 1, undefined].map((c) => [a, b, c])),
);

describe('an overridden vote alarm', () => {
  const target = overrideTargetOf(profiles, OPTIONS, 'shop', 'east');
  if ('problem' in target) throw new Error(target.problem);
  const [planned] = target.alarms;
  if (planned === undefined) throw new Error('an alarm expected');

  it.each([
    ['Degraded', 'ALARM'],
    ['Online', 'OK'],
  ] as const)('%s: %s whatever the votes and the state it was in', (status, state) => {
    const alarm = definitionOf(overriddenAlarm(planned, { ...DEGRADED, status }));
    for (const history of HISTORIES)
      for (const current of ['OK', 'ALARM', 'INSUFFICIENT_DATA'] as const)
        expect(judge(alarm, current, history).state, `${current} ${JSON.stringify(history)}`).toBe(state);
  });

  it('the planned alarm follows the votes (the override is what fixes it)', () => {
    expect(judge(definitionOf(planned), 'OK', [1, 1, 0]).state).toBe('ALARM');
    expect(judge(definitionOf(planned), 'ALARM', [0, 0, 1]).state).toBe('OK');
  });

  it('keeps name, metric and period; a second override replaces the first', () => {
    const once = overriddenAlarm(planned, DEGRADED);
    const twice = overriddenAlarm(once, { ...DEGRADED, status: 'Online', at: 2_000 });
    expect({
      ...twice,
      comparisonOperator: undefined,
      threshold: undefined,
      treatMissingData: undefined,
      override: undefined,
    }).toEqual({
      ...planned,
      comparisonOperator: undefined,
      threshold: undefined,
      treatMissingData: undefined,
      override: undefined,
    });
    expect(twice.override).toEqual({ ...DEGRADED, status: 'Online', at: 2_000 });
  });
});

describe('the override recorded in the alarm description', () => {
  it('reads back what was written', () => {
    const override = { ...DEGRADED, until: 61_000, reason: 'region drain' };
    expect(alarmOverrideOf(describeAlarmOverride(override))).toEqual(override);
    expect(alarmOverrideOf(describeAlarmOverride(DEGRADED))).toEqual(DEGRADED);
  });

  it('cuts a long reason to fit CloudWatch’s 1,024 characters, and keeps the rest', () => {
    const text = describeAlarmOverride({ ...DEGRADED, reason: 'x'.repeat(5_000) });
    expect(text.length).toBeLessThanOrEqual(1024);
    const read = alarmOverrideOf(text);
    expect(read).toMatchObject({ status: 'Degraded', subject: 'shop/east', by: 'alice', at: 1_000 });
    expect(read?.reason).toMatch(/^x+…$/);
  });

  it.each([
    ['our planned description', 'traffic-manager static failover (docs/adr/0011-static-failover.md)'],
    ['none', undefined],
    ['broken JSON', 'traffic-manager override {"status":'],
    ['an unknown status', 'traffic-manager override {"status":"Stopped","subject":"a/b","by":"x","at":1}'],
    ['no author', 'traffic-manager override {"status":"Degraded","subject":"a/b","at":1}'],
  ])('is no override: %s', (_name, description) => {
    expect(alarmOverrideOf(description)).toBeUndefined();
  });

  it('holds until its time, or for good without one', () => {
    expect(isHeld({ ...DEGRADED, until: 5_000 }, 4_999)).toBe(true);
    expect(isHeld({ ...DEGRADED, until: 5_000 }, 5_000)).toBe(false);
    expect(isHeld(DEGRADED, Number.MAX_SAFE_INTEGER)).toBe(true);
  });
});

describe('the alarms behind an endpoint', () => {
  it('are its target vote alarms in every probe region, as planned, naming who shares them', () => {
    const target = overrideTargetOf(profiles, OPTIONS, 'shop', 'east');
    if ('problem' in target) throw new Error(target.problem);
    const plan = planStaticFailover(profiles, OPTIONS);
    expect(target.alarms.map((a) => a.region)).toEqual([...REGIONS].sort());
    for (const alarm of target.alarms) expect(plan.alarms).toContainEqual(alarm);
    expect(target.alarms.every((a) => a.name === `prod-vote-${target.targetId}`)).toBe(true);
    expect(target.sharedWith).toEqual(['api/east']);
  });

  it.each([
    ['shop', 'north', 'shop/north is not in the definitions'],
    ['plain', 'a', 'profile "plain" has staticFailover: false'],
    ['geo', 'all', 'a Geographic profile never fails over, so it has no health checks'],
    ['api', 'always', 'api/always is always served: it has no vote of its own'],
  ])('%s/%s cannot be steered there: %s', (profile, endpoint, problem) => {
    expect(overrideTargetOf(profiles, OPTIONS, profile, endpoint)).toEqual({ problem });
  });

  it('a profile without probe regions has none', () => {
    expect(overrideTargetOf(profiles, { ...OPTIONS, defaultProbeRegions: [] }, 'shop', 'east')).toEqual({
      problem: 'profile "shop" has no probe regions',
    });
  });
});
