import { describe, expect, it } from 'vitest';
import { endpointVerdictKey } from '../../shared/probe/target.js';
import type { ExternalEndpoint, Profile, RegionQuorum } from '../../shared/profile/types.js';
import { planRecords } from '../../shared/routing/planner.js';
import { targetIdOf, voteAlarmNameOf } from '../../shared/static-failover/identity.js';
import { planStaticFailover } from '../../shared/static-failover/plan.js';
import { fastPathRecords } from '../../shared/static-failover/records.js';
import type { HealthCheckSpec, StaticStructure } from '../../shared/static-failover/types.js';
import { minuteOf, voteOf, voteTargetsOf } from '../../shared/static-failover/votes.js';
import { RegionVerdict } from '../../shared/status/vocabulary.js';
import { monitorConfig } from '../support/profiles.js';
import { external, nested, profile, statuses } from './routing-fixtures.js';

const REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-1'];
const OPTIONS = { deployment: 'tm', defaultProbeRegions: REGIONS };
const plan = (...profiles: Profile[]) => planStaticFailover(profiles, OPTIONS);

const at = (s: StaticStructure, name: string) => s.records.filter((r) => r.name === name);
const check = (s: StaticStructure, id: string | undefined): HealthCheckSpec => {
  const found = s.healthChecks.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no check ${id}`);
  return found;
};
/** The target check of an endpoint: the calculated check over its region checks. */
const targetCheckOf = (s: StaticStructure, p: Profile, endpoint: string) => {
  const e = p.endpoints.find((x) => x.name === endpoint) as ExternalEndpoint;
  const alarm = voteAlarmNameOf('tm', targetIdOf(endpointVerdictKey(p, e)));
  const regionIds = s.healthChecks
    .filter((c) => c.type === 'CLOUDWATCH_METRIC' && c.alarm.name === alarm)
    .map((c) => c.id);
  return {
    regionIds,
    calculated: s.healthChecks.filter(
      (c) => c.type === 'CALCULATED' && c.children.some((id) => regionIds.includes(id)),
    ),
  };
};

const shop = (
  method: Profile['trafficRoutingMethod'],
  endpoints = [
    external('a', '192.0.2.1', { endpointLocation: 'eu-west-1', weight: 3, geoMapping: ['DE'] }),
    external('b', '192.0.2.2', { endpointLocation: 'eu-west-1', weight: 1, geoMapping: ['WORLD'] }),
    external('c', '192.0.2.3', { endpointLocation: 'us-east-1', weight: 2, geoMapping: ['FR'] }),
  ],
) => profile('shop', endpoints, { method });

describe('static structure per routing method', () => {
  it('Priority is a failover chain of aliases: a, then alias to _2 holding b, then c', () => {
    const p = shop('Priority');
    const s = plan(p);
    const root = at(s, '_static.shop.example.com');
    expect(root.map((r) => [r.failover, r.setIdentifier, r.values, r.aliasTarget?.dnsName])).toEqual([
      ['PRIMARY', 'a', ['192.0.2.1'], undefined],
      ['SECONDARY', '_2', [], '_2._static.shop.example.com'],
    ]);
    expect(root[1]?.aliasTarget?.evaluateTargetHealth).toBe(true);
    expect(at(s, '_2._static.shop.example.com').map((r) => [r.failover, r.setIdentifier])).toEqual([
      ['PRIMARY', 'b'],
      ['SECONDARY', 'c'],
    ]);
    expect(root[0]?.healthCheckRef).toBe(targetCheckOf(s, p, 'a').calculated[0]?.id);
    expect(root[0]?.ttl).toBe(p.dnsConfig.ttl);
  });

  it('Priority with one endpoint is a lone PRIMARY with its check', () => {
    const s = plan(shop('Priority', [external('a', '192.0.2.1')]));
    expect(at(s, '_static.shop.example.com').map((r) => [r.failover, r.setIdentifier])).toEqual([
      ['PRIMARY', 'a'],
    ]);
  });

  it('the profile name switches: PRIMARY alias to _fast with the guard, SECONDARY alias to _static', () => {
    const s = plan(shop('Priority'));
    const top = at(s, 'shop.example.com');
    expect(top.map((r) => [r.failover, r.aliasTarget?.dnsName, r.aliasTarget?.evaluateTargetHealth])).toEqual(
      [
        ['PRIMARY', '_fast.shop.example.com', true],
        ['SECONDARY', '_static.shop.example.com', true],
      ],
    );
    const guard = check(s, top[0]?.healthCheckRef);
    expect(guard).toMatchObject({ role: 'guard', type: 'CALCULATED', healthThreshold: 2 });
    expect(top[1]?.healthCheckRef).toBeUndefined();
  });

  it('today’s records move to _fast unchanged', () => {
    const p = shop('Weighted');
    const today = planRecords([p], statuses()).records;
    expect(fastPathRecords(today)).toEqual(today.map((r) => ({ ...r, name: '_fast.shop.example.com' })));
  });

  it('Weighted: one weighted record per eligible endpoint with its weight and check', () => {
    const p = shop('Weighted');
    const s = plan(p);
    const root = at(s, '_static.shop.example.com');
    expect(root.map((r) => [r.setIdentifier, r.weight])).toEqual([
      ['a', 3],
      ['b', 1],
      ['c', 2],
    ]);
    expect(root.every((r) => r.healthCheckRef !== undefined)).toBe(true);
  });

  it('Performance: a region with one endpoint is a latency record; with two, a latency alias to its chain', () => {
    const s = plan(shop('Performance'));
    const root = at(s, '_static.shop.example.com');
    expect(root.map((r) => [r.region, r.setIdentifier, r.aliasTarget?.dnsName])).toEqual([
      ['eu-west-1', '_eu-west-1', '_eu-west-1._static.shop.example.com'],
      ['us-east-1', 'c', undefined],
    ]);
    expect(at(s, '_eu-west-1._static.shop.example.com').map((r) => [r.failover, r.setIdentifier])).toEqual([
      ['PRIMARY', 'a'],
      ['SECONDARY', 'b'],
    ]);
  });

  it('MultiValue: every eligible endpoint, not only the first maxReturn (a documented difference)', () => {
    const p = profile(
      'shop',
      [external('a', '192.0.2.1'), external('b', '192.0.2.2'), external('c', '192.0.2.3')],
      {
        method: 'MultiValue',
        maxReturn: 1,
      },
    );
    const root = at(plan(p), '_static.shop.example.com');
    expect(root.map((r) => [r.setIdentifier, r.multiValueAnswer, r.healthCheckRef !== undefined])).toEqual([
      ['a', true, true],
      ['b', true, true],
      ['c', true, true],
    ]);
  });

  it.each(['Geographic', 'Subnet'] as const)(
    '%s keeps Azure’s no-failover rule: today’s records, no checks',
    (method) => {
      const p = shop(method, [
        external('a', '192.0.2.1', { geoMapping: ['DE'], subnets: ['10.0.0.0/8'] }),
        external('b', '192.0.2.2', { geoMapping: ['WORLD'] }),
      ]);
      const s = plan(p);
      const root = at(s, '_static.shop.example.com');
      const today = planRecords([p], statuses({}, 'Degraded')).records;
      expect(root).toEqual(today.map((r) => ({ ...r, name: '_static.shop.example.com' })));
      expect(s.healthChecks.filter((c) => c.role !== 'guard' && c.role !== 'guard-region')).toEqual([]);
    },
  );
});

describe('static structure: corners of the routing methods', () => {
  it('Subnet with two endpoints without ranges: the first answers the rest, as today', () => {
    const p = shop('Subnet', [
      external('a', '192.0.2.1', { subnets: ['10.0.0.0/8'] }),
      external('b', '192.0.2.2'),
      external('c', '192.0.2.3'),
    ]);
    const root = at(plan(p), '_static.shop.example.com');
    const today = planRecords([p], statuses({}, 'Online')).records;
    expect(root.map((r) => [r.setIdentifier, r.cidrRoutingConfig?.locationName])).toEqual([
      ['a', 'a'],
      ['b', '*'],
    ]);
    expect(root).toEqual(today.map((r) => ({ ...r, name: '_static.shop.example.com' })));
  });

  it('Performance: an endpoint without a location has no latency record', () => {
    const p = shop('Performance', [
      external('a', '192.0.2.1', { endpointLocation: 'eu-west-1' }),
      external('b', '192.0.2.2'),
    ]);
    expect(at(plan(p), '_static.shop.example.com').map((r) => [r.setIdentifier, r.region])).toEqual([
      ['a', 'eu-west-1'],
    ]);
  });

  it('Geographic: a code Route 53 has no location for (a profile not validated) is an error naming the profile, the endpoint and the code', () => {
    const p = shop('Geographic', [external('a', '192.0.2.1', { geoMapping: ['XK'] })]);
    expect(() => plan(p)).toThrow('profile "shop" endpoint "a": "XK" is not a Route 53 location code');
  });
});

describe('nested, disabled, always serve, overrides', () => {
  const child = profile('eu', [external('x', '192.0.2.10'), external('y', '192.0.2.11')], {
    method: 'Weighted',
  });

  it('a nested endpoint in a failover method aliases the child’s _static with EvaluateTargetHealth', () => {
    const parent = profile('shop', [nested('europe', 'eu'), external('b', '192.0.2.2')], {
      method: 'Weighted',
    });
    const root = at(plan(parent, child), '_static.shop.example.com');
    expect(root[0]).toMatchObject({
      setIdentifier: 'europe',
      aliasTarget: { dnsName: '_static.eu.example.com', evaluateTargetHealth: true },
    });
    expect(root[0]?.healthCheckRef).toBeUndefined();
  });

  it('a nested endpoint in Geographic aliases the child’s _static without evaluating it', () => {
    const parent = profile('shop', [nested('europe', 'eu', { geoMapping: ['GEO-EU'] })], {
      method: 'Geographic',
    });
    const root = at(plan(parent, child), '_static.shop.example.com');
    expect(root[0]?.aliasTarget).toMatchObject({
      dnsName: '_static.eu.example.com',
      evaluateTargetHealth: false,
    });
  });

  it('configuration decides who appears: a disabled endpoint, a nested endpoint on a disabled child, a disabled profile', () => {
    const off = profile('eu', [external('x', '192.0.2.10')], { status: 'Disabled' });
    const parent = profile('shop', [
      nested('europe', 'eu'),
      external('b', '192.0.2.2', { endpointStatus: 'Disabled' }),
      external('c', '192.0.2.3'),
    ]);
    const s = plan(parent, off);
    expect(at(s, '_static.shop.example.com').map((r) => r.setIdentifier)).toEqual(['c']);
    expect(s.records.some((r) => r.name.endsWith('eu.example.com'))).toBe(false);
  });

  it('an always-serve endpoint carries no check (always healthy, like Unmonitored)', () => {
    const p = shop('Weighted', [
      external('a', '192.0.2.1', { alwaysServe: true }),
      external('b', '192.0.2.2'),
    ]);
    const root = at(plan(p), '_static.shop.example.com');
    expect(root.map((r) => r.healthCheckRef === undefined)).toEqual([true, false]);
  });

  it.each([
    ['Degraded', 4, 'forced-down'],
    ['Online', 0, 'forced-up'],
  ] as const)(
    'an override %s references a forced check (threshold %i over the 3 region checks)',
    (status, threshold, role) => {
      const override = {
        profile: 'shop',
        endpoint: 'a',
        status,
        until: 2e12,
        set: { by: 'ops', at: 1, reason: 'x' },
      };
      const p = shop('Weighted', [
        external('a', '192.0.2.1', { runtime: { override } as ExternalEndpoint['runtime'] }),
      ]);
      const s = plan(p);
      const forced = check(s, at(s, '_static.shop.example.com')[0]?.healthCheckRef);
      expect(forced).toMatchObject({ type: 'CALCULATED', role, healthThreshold: threshold });
      expect(forced.type === 'CALCULATED' && forced.children).toHaveLength(3);
    },
  );
});

describe('votes, alarms and checks', () => {
  it.each<[RegionQuorum | undefined, number]>([
    [undefined, 2],
    ['any', 1],
    ['majority', 2],
    ['all', 3],
    [2, 2],
    [5, 3],
  ])('the target check of 3 regions with quorum %s needs %i healthy region checks', (quorum, threshold) => {
    const p = {
      ...shop('Priority', [external('a', '192.0.2.1')]),
      monitorConfig: monitorConfig({ ...(quorum === undefined ? {} : { regionQuorum: quorum }) }),
    };
    const s = plan(p);
    const target = check(s, at(s, '_static.shop.example.com')[0]?.healthCheckRef);
    expect(target).toMatchObject({ type: 'CALCULATED', role: 'target', healthThreshold: threshold });
  });

  it('per target and probe region: a Vote metric, its alarm (Minimum, 60 s, < 1, missing) and a LastKnownStatus check', () => {
    const p = shop('Priority', [external('a', '192.0.2.1')]);
    const s = plan(p);
    const target = targetIdOf(endpointVerdictKey(p, p.endpoints[0] as ExternalEndpoint));
    const votes = s.alarms.filter((a) => a.metricName === 'Vote');
    expect(votes.map((a) => a.region).sort()).toEqual([...REGIONS].sort());
    expect(votes[0]).toMatchObject({
      namespace: 'TrafficManager/StaticFailover',
      name: `tm-vote-${target}`,
      dimensions: [
        { name: 'Deployment', value: 'tm' },
        { name: 'Target', value: target },
      ],
      statistic: 'Minimum',
      periodSeconds: 60,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
      threshold: 1,
      comparisonOperator: 'LessThanThreshold',
      treatMissingData: 'missing',
    });
    const regionChecks = s.healthChecks.filter((c) => c.role === 'region');
    expect(regionChecks).toHaveLength(3);
    expect(
      regionChecks.every(
        (c) => c.type === 'CLOUDWATCH_METRIC' && c.insufficientDataHealthStatus === 'LastKnownStatus',
      ),
    ).toBe(true);
    expect(s.targets).toEqual([
      {
        id: target,
        verdictKey: endpointVerdictKey(p, p.endpoints[0] as ExternalEndpoint),
        regions: [...REGIONS].sort(),
      },
    ]);
  });

  it('the guard: per region EvaluatorPublishing alarm (2 of 2 below 1, missing data breaching), majority calculated', () => {
    const s = plan(shop('Priority'));
    const guardAlarms = s.alarms.filter((a) => a.metricName === 'EvaluatorPublishing');
    expect(guardAlarms).toHaveLength(3);
    expect(guardAlarms[0]).toMatchObject({
      evaluationPeriods: 2,
      datapointsToAlarm: 2,
      treatMissingData: 'breaching',
      dimensions: [{ name: 'Deployment', value: 'tm' }],
    });
    expect(s.healthChecks.filter((c) => c.role === 'guard')).toHaveLength(1);
  });

  it('one probe region: the region check is the target check (no calculated check)', () => {
    const p = { ...shop('Priority', [external('a', '192.0.2.1')]), probeRegions: ['eu-west-1'] };
    const s = planStaticFailover([p], { deployment: 'tm', defaultProbeRegions: ['eu-west-1'] });
    const ref = check(s, at(s, '_static.shop.example.com')[0]?.healthCheckRef);
    expect(ref).toMatchObject({ type: 'CLOUDWATCH_METRIC', role: 'region' });
  });

  it('profiles sharing a target share its checks; another quorum shares the region checks only', () => {
    const a = shop('Priority', [external('a', '192.0.2.1')]);
    const b = { ...profile('blog', [external('a', '192.0.2.1')]) };
    const c = {
      ...profile('docs', [external('a', '192.0.2.1')]),
      monitorConfig: monitorConfig({ regionQuorum: 'all' }),
    };
    const s = plan(a, b, c);
    const ref = (name: string) => at(s, `_static.${name}.example.com`)[0]?.healthCheckRef;
    expect(ref('shop')).toBe(ref('blog'));
    expect(ref('docs')).not.toBe(ref('shop'));
    expect(s.healthChecks.filter((x) => x.role === 'region')).toHaveLength(3);
    expect(s.alarms.filter((x) => x.metricName === 'Vote')).toHaveLength(3);
  });

  it('is deterministic and independent of the order profiles are given in', () => {
    const child = profile('eu', [external('x', '192.0.2.10')], { method: 'Weighted' });
    const parent = profile('shop', [nested('europe', 'eu'), external('b', '192.0.2.2')]);
    const one = plan(parent, child);
    const two = plan(child, parent);
    expect(plan(parent, child)).toEqual(one);
    const ids = (s: StaticStructure) => s.healthChecks.map((c) => c.id).sort();
    expect(ids(two)).toEqual(ids(one));
    expect(new Set(two.records.map((r) => JSON.stringify(r)))).toEqual(
      new Set(one.records.map((r) => JSON.stringify(r))),
    );
  });

  it("a region votes for the targets of the static-failover profiles it probes, on each target's Vote metric", () => {
    const a = shop('Priority', [external('a', '192.0.2.1')]);
    const euOnly = { ...profile('blog', [external('b', '192.0.2.2')]), probeRegions: ['eu-west-1'] };
    const fastOnly = { ...profile('docs', [external('c', '192.0.2.3')]), staticFailover: false };
    const key = (p: Profile) => endpointVerdictKey(p, p.endpoints[0] as ExternalEndpoint);
    const metricOf = (p: Profile) => {
      const targetId = targetIdOf(key(p));
      return {
        targetId,
        namespace: 'TrafficManager/StaticFailover',
        metricName: 'Vote',
        dimensions: [
          { name: 'Deployment', value: 'tm' },
          { name: 'Target', value: targetId },
        ],
      };
    };

    expect(voteTargetsOf([a, euOnly, fastOnly], OPTIONS, 'eu-west-1')).toEqual(
      new Map([
        [key(a), metricOf(a)],
        [key(euOnly), metricOf(euOnly)],
      ]),
    );
    expect(voteTargetsOf([a, euOnly, fastOnly], OPTIONS, 'us-east-1')).toEqual(
      new Map([[key(a), metricOf(a)]]),
    );
    expect(voteTargetsOf([a], OPTIONS, 'sa-east-1')).toEqual(new Map());
  });

  it('a vote is 1 for up and 0 for down, stamped with the start of its minute (scaled locally)', () => {
    expect([voteOf(RegionVerdict.Up), voteOf(RegionVerdict.Down)]).toEqual([1, 0]);
    expect(minuteOf(Date.UTC(2026, 0, 1, 0, 0, 59, 999), 60_000)).toBe(Date.UTC(2026, 0, 1));
    expect(minuteOf(25_000, 12_000)).toBe(24_000);
  });

  it('lists children before the calculated checks that use them', () => {
    const s = plan(shop('Weighted'));
    const seen = new Set<string>();
    for (const c of s.healthChecks) {
      if (c.type === 'CALCULATED') for (const child of c.children) expect(seen.has(child)).toBe(true);
      seen.add(c.id);
    }
  });
});

describe('documented differences', () => {
  it('Priority mixing IPv4 and IPv6: a chain per type, each answering from its first endpoint of that type', () => {
    const p = profile('shop', [
      external('v4', '192.0.2.1'),
      external('v6', '2001:db8::1'),
      external('v4b', '192.0.2.2'),
    ]);
    const root = at(plan(p), '_static.shop.example.com');
    expect(root.map((r) => [r.type, r.failover, r.setIdentifier])).toEqual([
      ['A', 'PRIMARY', 'v4'],
      ['A', 'SECONDARY', 'v4b'],
      ['AAAA', 'PRIMARY', 'v6'],
    ]);
    // Today the first served endpoint's types only: an AAAA query gets no answer while v4 serves.
    expect(planRecords([p], statuses()).records.map((r) => r.type)).toEqual(['A']);
  });

  it('a nested endpoint under a host-name parent is a plain CNAME to the child, without health', () => {
    const child = profile('eu', [external('x', '192.0.2.10')]);
    const parent = profile('shop', [nested('europe', 'eu'), external('b', 'b.example.net')], {
      method: 'Weighted',
    });
    const root = at(plan(parent, child), '_static.shop.example.com');
    expect(root[0]).toMatchObject({ type: 'CNAME', values: ['eu.example.com'], setIdentifier: 'europe' });
    expect(root[0]?.healthCheckRef).toBeUndefined();
  });
});
