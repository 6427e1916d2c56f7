/**
 * The static structure answers what today's planner publishes (docs/adr/0011-static-failover.md),
 * evaluated with Route 53's documented answer rules (test/support/route53-answers.ts), except
 * the documented differences (MultiValue may answer more than `maxReturn`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggregateRegions } from '../../shared/monitor/aggregate.js';
import { endpointVerdictKey } from '../../shared/probe/target.js';
import type {
  Endpoint,
  ExternalEndpoint,
  Profile,
  RegionQuorum,
  RoutingMethod,
} from '../../shared/profile/types.js';
import { planRecords } from '../../shared/routing/planner.js';
import type { VerdictItem } from '../../shared/state/items.js';
import { statusesFromOverrides } from '../../shared/status/evaluate.js';
import { EndpointMonitorStatus } from '../../shared/status/vocabulary.js';
import { staticNameOf, targetIdOf, voteAlarmNameOf } from '../../shared/static-failover/identity.js';
import { planStaticFailover } from '../../shared/static-failover/plan.js';
import type { StaticStructure } from '../../shared/static-failover/types.js';
import type { RecordSet, RecordType } from '../../shared/zone/record-set.js';
import { monitorConfig } from '../support/profiles.js';
import { type AlarmState, createOracle } from '../support/route53-answers.js';
import { heartbeat } from './evaluate-fixtures.js';
import { external, nested, profile } from './routing-fixtures.js';

const REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-1'];
const MORE_REGIONS = [...REGIONS, 'sa-east-1', 'eu-central-1'];
const OPTIONS = { deployment: 'tm', defaultProbeRegions: REGIONS };
const MONITORED = ['Online', 'Degraded', 'CheckingEndpoint'] as const;
type Monitored = (typeof MONITORED)[number];

/** Alarm states that make each monitored endpoint's target check say what its status says. */
function alarmsFor(profiles: readonly Profile[], statusOf: (p: string, e: string) => Monitored) {
  const alarms = new Map<string, AlarmState>();
  for (const p of profiles)
    for (const e of p.endpoints) {
      if (e.type !== 'external' || e.alwaysServe) continue;
      const status = statusOf(p.name, e.name);
      if (status === 'CheckingEndpoint') continue; // no data yet: a new check is healthy
      const name = voteAlarmNameOf('tm', targetIdOf(endpointVerdictKey(p, e)));
      for (const region of p.probeRegions ?? REGIONS)
        alarms.set(`${region}|${name}`, status === 'Online' ? 'OK' : 'ALARM');
    }
  return alarms;
}

/** The endpoint a record of `p` answers with: its set identifier, or the endpoint whose target it holds. */
function endpointOf(p: Profile, record: RecordSet): string {
  if (record.setIdentifier !== undefined) return record.setIdentifier.split('/')[0] ?? '';
  const found = p.endpoints.find((e) =>
    e.type === 'external'
      ? record.values.includes(e.target)
      : record.aliasTarget?.dnsName.includes(e.targetProfile),
  );
  return found?.name ?? `?${JSON.stringify(record)}`;
}

/** What the static structure answers at `p`'s name, following only links inside `p`'s structure. */
function staticAnswer(
  s: StaticStructure,
  alarms: ReadonlyMap<string, AlarmState>,
  p: Profile,
  type: RecordType,
  regionOrder: readonly string[] = [],
) {
  const root = staticNameOf(p.dnsConfig.fqdn);
  const oracle = createOracle({ records: s.records, healthChecks: s.healthChecks, alarms });
  const follow = (target: string) => target === root || target.endsWith(`.${root}`);
  return oracle.resolve(root, type, { regionOrder, follow }).records.map((r) => endpointOf(p, r));
}

const orderFrom = (region: string) => [region, ...MORE_REGIONS.filter((r) => r !== region)];

describe('the target check is today’s cross-region rule', () => {
  const quorum: fc.Arbitrary<RegionQuorum | undefined> = fc.oneof(
    fc.constantFrom<RegionQuorum | undefined>(undefined, 'any', 'majority', 'all'),
    fc.integer({ min: 1, max: 6 }),
  );
  it('with every region voting, healthy exactly when aggregateRegions says up', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        quorum,
        fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        (n, q, ups) => {
          const regions = MORE_REGIONS.slice(0, n);
          const base = profile('shop', [external('a', '192.0.2.1')]);
          const p: Profile = {
            ...base,
            probeRegions: regions,
            monitorConfig: monitorConfig(q === undefined ? {} : { regionQuorum: q }),
          };
          const s = planStaticFailover([p], OPTIONS);
          const alarm = voteAlarmNameOf(
            'tm',
            targetIdOf(endpointVerdictKey(p, p.endpoints[0] as ExternalEndpoint)),
          );
          const alarms = new Map(regions.map((r, i) => [`${r}|${alarm}`, ups[i] ? 'OK' : 'ALARM'] as const));
          const ref = s.records.find((r) => r.name === staticNameOf(p.dnsConfig.fqdn))?.healthCheckRef ?? '';
          const verdicts = new Map(
            regions.map((r, i): [string, VerdictItem] => [
              r,
              {
                targetKey: 't',
                region: r,
                verdict: ups[i] ? 'up' : 'down',
                since: 0,
                checkedAt: 1,
                detail: 'x',
              },
            ]),
          );
          const heartbeats = new Map(regions.map((r) => [r, [heartbeat(r, 1_000_000)]]));
          const today = aggregateRegions({
            regions,
            verdicts,
            heartbeats,
            now: 1_000_000,
            ...(q === undefined ? {} : { quorum: q }),
          });
          expect(
            createOracle({ records: s.records, healthChecks: s.healthChecks, alarms }).checkHealthy(ref),
          ).toBe(today.health === 'up');
        },
      ),
      { numRuns: 400 },
    );
  });
});

interface Case {
  readonly profile: Profile;
  readonly status: ReadonlyMap<string, Monitored>;
}

const endpointSpec = fc.record({
  status: fc.constantFrom(...MONITORED),
  disabled: fc.boolean(),
  alwaysServe: fc.boolean(),
  weight: fc.integer({ min: 1, max: 255 }),
  region: fc.constantFrom(...REGIONS),
  hasRanges: fc.boolean(),
});

const anyCase: fc.Arbitrary<Case> = fc
  .record({
    method: fc.constantFrom<RoutingMethod>(
      'Priority',
      'Weighted',
      'Performance',
      'Geographic',
      'MultiValue',
      'Subnet',
    ),
    hostnames: fc.boolean(),
    enabled: fc.boolean(),
    maxReturn: fc.integer({ min: 1, max: 8 }),
    specs: fc.array(endpointSpec, { minLength: 1, maxLength: 6 }),
    geo: fc.shuffledSubarray(['WORLD', 'GEO-EU', 'GEO-NA', 'DE', 'FR', 'US-CA', 'US-TX'], {
      minLength: 6,
      maxLength: 6,
    }),
  })
  .map(({ method, hostnames, enabled, maxReturn, specs, geo }) => {
    const byHost = hostnames && method !== 'MultiValue';
    let fallbackTaken = false;
    const endpoints = specs.map((spec, i) => {
      const ranges = spec.hasRanges || fallbackTaken ? [`10.${i}.0.0/16`] : [];
      fallbackTaken ||= ranges.length === 0;
      return external(`e${i}`, byHost ? `e${i}.example.net` : `192.0.2.${i + 1}`, {
        endpointStatus: spec.disabled ? 'Disabled' : 'Enabled',
        alwaysServe: spec.alwaysServe,
        weight: spec.weight,
        endpointLocation: spec.region,
        geoMapping: geo[i] === undefined ? [] : [geo[i]],
        subnets: method === 'Subnet' ? ranges : [],
      });
    });
    const p = profile('shop', endpoints, { method, status: enabled ? 'Enabled' : 'Disabled', maxReturn });
    return { profile: p, status: new Map(specs.map((spec, i) => [`e${i}`, spec.status] as const)) };
  });

/** Today's monitor status: configuration first, then the monitored status. */
function todayStatus(p: Profile, e: Endpoint, monitored: Monitored): EndpointMonitorStatus {
  if (e.endpointStatus === 'Disabled') return EndpointMonitorStatus.Disabled;
  if (p.profileStatus === 'Disabled') return EndpointMonitorStatus.Inactive;
  if (e.type === 'external' && e.alwaysServe) return EndpointMonitorStatus.Unmonitored;
  return monitored;
}

describe('the static structure answers what today’s planner publishes', () => {
  it('for every routing method and random endpoint statuses (MultiValue: a superset up to 8)', () => {
    fc.assert(
      fc.property(anyCase, ({ profile: p, status }) => {
        const monitored = (_: string, e: string) => status.get(e) ?? 'Online';
        const today = planRecords([p], (_, e) =>
          todayStatus(p, p.endpoints.find((x) => x.name === e) as Endpoint, monitored('', e)),
        ).records;
        const s = planStaticFailover([p], OPTIONS);
        const alarms = alarmsFor([p], monitored);
        const type: RecordType =
          (p.endpoints[0] as ExternalEndpoint).targetKind === 'hostname' ? 'CNAME' : 'A';
        const todayEndpoints = today.map((r) => endpointOf(p, r));
        const method = p.trafficRoutingMethod;
        if (today.length === 0) {
          expect(s.records.filter((r) => r.name.endsWith(p.dnsConfig.fqdn))).toEqual([]);
          return;
        }
        if (method === 'Geographic' || method === 'Subnet') {
          const root = staticNameOf(p.dnsConfig.fqdn);
          expect(
            s.records.filter((r) => r.name === root).map((r) => ({ ...r, name: p.dnsConfig.fqdn })),
          ).toEqual(today);
          return;
        }
        if (method === 'Performance') {
          for (const region of REGIONS) {
            const order = orderFrom(region);
            const expected = order.map((r) => today.find((x) => x.region === r)).find((x) => x !== undefined);
            expect(staticAnswer(s, alarms, p, type, order)).toEqual(
              expected === undefined ? [] : [endpointOf(p, expected)],
            );
          }
          return;
        }
        const answered = staticAnswer(s, alarms, p, type);
        if (method === 'MultiValue') {
          expect(answered.length).toBeLessThanOrEqual(8);
          for (const e of todayEndpoints) expect(answered).toContain(e);
          if ((p.maxReturn ?? 2) >= answered.length)
            expect(new Set(answered)).toEqual(new Set(todayEndpoints));
          return;
        }
        expect(new Set(answered)).toEqual(new Set(todayEndpoints));
      }),
      { numRuns: 1000 },
    );
  });

  it('for a nested child (minChildEndpoints 1): the parent answers the same endpoints', () => {
    const childEndpoint = fc.record({ status: fc.constantFrom(...MONITORED), disabled: fc.boolean() });
    fc.assert(
      fc.property(
        fc.constantFrom<RoutingMethod>('Priority', 'Weighted'),
        fc.boolean(),
        fc.array(childEndpoint, { minLength: 1, maxLength: 3 }),
        fc.array(childEndpoint, { minLength: 0, maxLength: 3 }),
        fc.integer({ min: 0, max: 3 }),
        (method, childEnabled, childSpecs, parentSpecs, nestedAt) => {
          const child = profile(
            'eu',
            childSpecs.map((c, i) =>
              external(`x${i}`, `198.51.100.${i + 1}`, {
                endpointStatus: c.disabled ? 'Disabled' : 'Enabled',
              }),
            ),
            { method: 'Weighted', status: childEnabled ? 'Enabled' : 'Disabled' },
          );
          const externals = parentSpecs.map((c, i) =>
            external(`p${i}`, `192.0.2.${i + 1}`, { endpointStatus: c.disabled ? 'Disabled' : 'Enabled' }),
          );
          const at = Math.min(nestedAt, externals.length);
          const parent = profile(
            'shop',
            [...externals.slice(0, at), nested('europe', 'eu'), ...externals.slice(at)],
            { method },
          );
          const monitored = new Map<string, Monitored>([
            ...childSpecs.map((c, i) => [`eu/x${i}`, c.status] as const),
            ...parentSpecs.map((c, i) => [`shop/p${i}`, c.status] as const),
          ]);
          const overrides = new Map(
            [...monitored].filter(([key]) => {
              const [p, e] = key.split('/');
              const owner = p === 'eu' ? child : parent;
              return (
                owner.profileStatus === 'Enabled' &&
                owner.endpoints.find((x) => x.name === e)?.endpointStatus === 'Enabled'
              );
            }),
          );
          const reports = statusesFromOverrides([parent, child], overrides, 0);
          const statusOf = (p: string, e: string) =>
            reports.find((r) => r.profile === p)?.endpoints.find((x) => x.endpoint === e)?.status ??
            EndpointMonitorStatus.Disabled;
          const today = planRecords([parent, child], statusOf).records.filter(
            (r) => r.name === parent.dnsConfig.fqdn,
          );
          const s = planStaticFailover([parent, child], OPTIONS);
          const alarms = alarmsFor([parent, child], (p, e) => monitored.get(`${p}/${e}`) ?? 'Online');
          // The parent's aliases to the child are not followed: the answer is "the nested endpoint".
          const answered = today.length === 0 ? [] : staticAnswer(s, alarms, parent, 'A');
          expect(new Set(answered)).toEqual(new Set(today.map((r) => endpointOf(parent, r))));
        },
      ),
      { numRuns: 600 },
    );
  });
});
