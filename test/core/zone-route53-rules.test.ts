/**
 * The planner and the diff against Route 53's batch rules, as the local Route 53 enforces
 * them (one routing policy per name and type, CNAME alone at a name, one latency record
 * per region, one record per geolocation or CIDR location, alias targets that exist, exact
 * DELETEs, the size limits): a series of status and method changes, each published as
 * diff batches, is accepted batch by batch and ends in the planned zone.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyChangeBatch } from '../../infra/local/route53/change-batch.js';
import type { Profile, RoutingMethod } from '../../shared/profile/types.js';
import { planRecords } from '../../shared/routing/planner.js';
import { ownedNames } from '../support/profiles.js';
import { EndpointMonitorStatus } from '../../shared/status/vocabulary.js';
import { diffZone } from '../../shared/zone/diff.js';
import { canonicalRecord } from '../../shared/zone/identity.js';
import type { CidrCollection, RecordSet } from '../../shared/zone/record-set.js';
import { external, nested, profile, ZONE_ID } from './routing-fixtures.js';

const METHODS: readonly RoutingMethod[] = [
  'Priority',
  'Weighted',
  'Performance',
  'Geographic',
  'MultiValue',
  'Subnet',
];
const STATUSES = Object.values(EndpointMonitorStatus);
const HEALTH = ['Online', 'Degraded', 'CheckingEndpoint'] as const;

/** Endpoints carrying the fields of every method, so a profile can switch methods. */
function endpointsOf(prefix: string, count: number, hostnames: boolean) {
  return Array.from({ length: count }, (_, i) =>
    external(`${prefix}${i}`, hostnames ? `${prefix}${i}.example.net` : `192.0.2.${i + 1}`, {
      weight: i + 1,
      endpointLocation: ['us-east-1', 'eu-west-1'][i % 2],
      geoMapping: [['WORLD', 'GEO-EU', 'DE', 'US-CA'][i] ?? 'FR'],
      subnets: i === count - 1 ? [] : [`10.${i}.0.0/16`],
    }),
  );
}

interface Step {
  readonly methods: { solo: RoutingMethod; parent: RoutingMethod; child: RoutingMethod };
  readonly enabled: { solo: boolean; child: boolean };
  readonly statuses: readonly EndpointMonitorStatus[];
  readonly nestedHealth: (typeof HEALTH)[number];
}

const step: fc.Arbitrary<Step> = fc.record({
  methods: fc.record({
    solo: fc.constantFrom(...METHODS),
    parent: fc.constantFrom(...METHODS.filter((m) => m !== 'MultiValue')),
    child: fc.constantFrom(...METHODS),
  }),
  enabled: fc.record({ solo: fc.boolean(), child: fc.boolean() }),
  statuses: fc.array(fc.constantFrom(...STATUSES), { minLength: 12, maxLength: 12 }),
  nestedHealth: fc.constantFrom(...HEALTH),
});

function profilesOf(s: Step, hostnames: boolean): Profile[] {
  const solo = profile('solo', endpointsOf('s', 4, hostnames), {
    method: hostnames && s.methods.solo === 'MultiValue' ? 'Priority' : s.methods.solo,
    status: s.enabled.solo ? 'Enabled' : 'Disabled',
  });
  const child = profile('child', endpointsOf('c', 3, false), {
    method: s.methods.child,
    status: s.enabled.child ? 'Enabled' : 'Disabled',
  });
  const parent = profile(
    'a-parent', // sorts before its child: the diff must still create the child's records first
    [
      nested('n', 'child', {
        geoMapping: ['GEO-NA'],
        endpointLocation: 'ap-southeast-1',
        subnets: ['10.9.0.0/16'],
      }),
      ...endpointsOf('p', 2, false),
    ],
    { method: s.methods.parent },
  );
  return [solo, parent, child];
}

/** Statuses as the evaluator would produce them: a nested endpoint is Stopped when its child has no records. */
function statusOf(s: Step, childRecords: readonly RecordSet[]) {
  return (profileName: string, endpoint: string): EndpointMonitorStatus => {
    if (endpoint === 'n') return childRecords.length === 0 ? 'Stopped' : s.nestedHealth;
    const index =
      Number(endpoint.slice(1)) + (profileName === 'child' ? 4 : profileName === 'a-parent' ? 8 : 0);
    return s.statuses[index] ?? 'Online';
  };
}

function plan(s: Step, hostnames: boolean) {
  const profiles = profilesOf(s, hostnames);
  const childOnly = planRecords(
    profiles.filter((p) => p.name === 'child'),
    statusOf(s, []),
  ).records;
  return { profiles, ...planRecords(profiles, statusOf(s, childOnly)) };
}

const canonical = (records: readonly RecordSet[]) => records.map(canonicalRecord).sort();

describe('planned zones against Route 53 batch rules', () => {
  it('every diff batch of a series of status and method changes is accepted and ends in the planned zone', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 6 }), fc.boolean(), (steps, hostnames) => {
        let zone: RecordSet[] = [];
        let collections: CidrCollection[] = [];
        for (const s of steps) {
          // Prepare
          const planned = plan(s, hostnames);
          collections = [...collections, ...planned.cidrCollections];
          const context = {
            zone: { hostedZoneId: ZONE_ID, zoneName: 'example.com', records: zone },
            cidrCollection: (id: string) => collections.find((c) => c.id === id),
            otherZone: () => undefined,
          };

          // Act
          for (const batch of diffZone(planned.records, zone, ownedNames(planned.profiles))) {
            context.zone = { ...context.zone, records: zone };
            zone = applyChangeBatch(context, batch) as RecordSet[];
          }

          // Assess
          expect(canonical(zone)).toEqual(canonical(planned.records));
        }
      }),
      { numRuns: 150 },
    );
  });
});
