import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExternalEndpoint, Profile, RoutingMethod } from '../../shared/profile/types.js';
import { planRecords } from '../../shared/routing/planner.js';
import { ownedNames } from '../support/profiles.js';
import { AVAILABLE_STATUSES, EndpointMonitorStatus } from '../../shared/status/vocabulary.js';
import { diffZone } from '../../shared/zone/diff.js';
import { recordIdentity } from '../../shared/zone/identity.js';
import { external, profile } from './routing-fixtures.js';

const STATUSES = Object.values(EndpointMonitorStatus);
const ELIGIBLE = new Set<EndpointMonitorStatus>(['Online', 'Degraded', 'CheckingEndpoint', 'Unmonitored']);
const FAILOVER_METHODS: readonly RoutingMethod[] = ['Priority', 'Weighted', 'Performance', 'MultiValue'];
const GEO_CODES = ['WORLD', 'GEO-EU', 'GEO-NA', 'DE', 'FR', 'US-CA', 'US-TX'];
const REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-1'];

interface Case {
  readonly profile: Profile;
  readonly status: ReadonlyMap<string, EndpointMonitorStatus>;
}

const endpointSpec = fc.record({
  status: fc.constantFrom(...STATUSES),
  disabled: fc.boolean(),
  weight: fc.integer({ min: 1, max: 255 }),
  region: fc.constantFrom(...REGIONS),
  ipv6: fc.boolean(),
  hasRanges: fc.boolean(),
});

/** A valid profile of any method with 1–6 endpoints, each with a random monitor status. */
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
    geo: fc.shuffledSubarray(GEO_CODES, { minLength: 6, maxLength: 6 }),
  })
  .map(({ method, hostnames, enabled, maxReturn, specs, geo }) => {
    const byHost = hostnames && method !== 'MultiValue';
    let fallbackTaken = false;
    const endpoints: ExternalEndpoint[] = specs.map((spec, i) => {
      const target = byHost
        ? `e${i}.example.net`
        : spec.ipv6 && method === 'MultiValue'
          ? `2001:db8::${i + 1}`
          : `192.0.2.${i + 1}`;
      const ranges = spec.hasRanges || fallbackTaken ? [`10.${i}.0.0/16`] : [];
      fallbackTaken ||= ranges.length === 0;
      return external(`e${i}`, target, {
        endpointStatus: spec.disabled ? 'Disabled' : 'Enabled',
        weight: spec.weight,
        endpointLocation: spec.region,
        geoMapping: geo[i] === undefined ? [] : [geo[i]],
        subnets: method === 'Subnet' ? ranges : [],
      });
    });
    const p = profile('shop', endpoints, { method, status: enabled ? 'Enabled' : 'Disabled', maxReturn });
    const status = new Map(
      specs.map(
        (spec, i) => [`e${i}`, spec.disabled ? EndpointMonitorStatus.Disabled : spec.status] as const,
      ),
    );
    return { profile: p, status };
  });

const plan = ({ profile: p, status }: Case) => planRecords([p], (_, e) => status.get(e) ?? 'Online');
const eligible = ({ profile: p, status }: Case) =>
  p.endpoints.filter((e) => e.endpointStatus === 'Enabled' && ELIGIBLE.has(status.get(e.name) ?? 'Online'));

describe('planner properties', () => {
  it('never yields an empty answer for an enabled profile with an eligible endpoint', () => {
    fc.assert(
      fc.property(anyCase, (c) => {
        fc.pre(c.profile.profileStatus === 'Enabled' && eligible(c).length > 0);
        // Geographic gaps aside: at least one eligible endpoint maps a code (always true here, one code each).
        expect(plan(c).records.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it('a disabled profile, or one without eligible endpoints, has no records', () => {
    fc.assert(
      fc.property(anyCase, (c) => {
        fc.pre(c.profile.profileStatus === 'Disabled' || eligible(c).length === 0);
        expect(plan(c).records).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('failover methods never serve a Degraded endpoint while another eligible one is available', () => {
    fc.assert(
      fc.property(anyCase, (c) => {
        fc.pre(FAILOVER_METHODS.includes(c.profile.trafficRoutingMethod));
        const anyAvailable = eligible(c).some((e) =>
          AVAILABLE_STATUSES.has(c.status.get(e.name) ?? 'Online'),
        );
        const targets = new Map(c.profile.endpoints.map((e) => [(e as ExternalEndpoint).target, e.name]));
        for (const record of plan(c).records) {
          const endpoint = targets.get(record.values[0] ?? '') ?? '';
          const status = c.status.get(endpoint);
          expect(ELIGIBLE.has(status ?? 'Disabled')).toBe(true);
          if (anyAvailable) expect(status).not.toBe('Degraded');
        }
      }),
      { numRuns: 500 },
    );
  });

  it('records are well formed: unique identities, the profile TTL, one value, the method’s shape', () => {
    fc.assert(
      fc.property(anyCase, (c) => {
        const { records } = plan(c);
        expect(new Set(records.map(recordIdentity)).size).toBe(records.length);
        for (const record of records) {
          expect(record.name).toBe(c.profile.dnsConfig.fqdn);
          expect(record.ttl).toBe(c.profile.dnsConfig.ttl);
          expect(record.values).toHaveLength(1);
        }
        const method = c.profile.trafficRoutingMethod;
        if (method === 'Priority') expect(records.length).toBeLessThanOrEqual(1);
        if (method === 'MultiValue') {
          for (const type of ['A', 'AAAA']) {
            expect(records.filter((r) => r.type === type).length).toBeLessThanOrEqual(
              c.profile.maxReturn ?? 2,
            );
          }
        }
        if (method === 'Performance') {
          const slots = records.map((r) => `${r.region} ${r.type}`);
          expect(new Set(slots).size).toBe(slots.length);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('the same inputs always plan the same zone (nothing to publish the second time)', () => {
    fc.assert(
      fc.property(anyCase, (c) => {
        const first = plan(c);
        expect(plan(c)).toEqual(first);
        expect(diffZone(plan(c).records, first.records, ownedNames([c.profile]))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
