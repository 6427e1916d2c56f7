import { describe, expect, it } from 'vitest';
import { planRecords } from '../../shared/routing/planner.js';
import { UnknownChildProfileError, UnknownGeoCodeError } from '../../shared/routing/errors.js';
import type { Profile } from '../../shared/profile/types.js';
import type { EndpointMonitorStatus } from '../../shared/status/vocabulary.js';
import type { RecordSet } from '../../shared/zone/record-set.js';
import { external, nested, profile, statuses, ZONE_ID } from './routing-fixtures.js';

const NAME = 'shop.example.com';

/** The planned records of the one profile `shop`, given statuses of its endpoints. */
function plan(shop: Profile, table: Record<string, EndpointMonitorStatus> = {}, others: Profile[] = []) {
  const prefixed = Object.fromEntries(
    Object.entries(table).map(([e, s]) => [e.includes('/') ? e : `shop/${e}`, s]),
  );
  return planRecords([shop, ...others], statuses(prefixed)).records.filter((r) => r.name === NAME);
}

const a = (target: string, extra: Partial<RecordSet> = {}): RecordSet => ({
  name: NAME,
  type: 'A',
  ttl: 30,
  ...extra,
  values: [target],
});

describe('Priority', () => {
  const shop = profile('shop', [
    external('east', '192.0.2.1'),
    external('west', '192.0.2.2'),
    external('south', '192.0.2.3'),
  ]);

  it.each<{ name: string; table: Record<string, EndpointMonitorStatus>; expected: RecordSet[] }>([
    { name: 'the first available endpoint by priority is returned', table: {}, expected: [a('192.0.2.1')] },
    {
      name: 'a Degraded first endpoint → the next available one',
      table: { east: 'Degraded' },
      expected: [a('192.0.2.2')],
    },
    {
      name: 'Disabled and Stopped endpoints are skipped',
      table: { east: 'Disabled', west: 'Stopped' },
      expected: [a('192.0.2.3')],
    },
    {
      name: 'CheckingEndpoint is in DNS',
      table: { east: 'CheckingEndpoint' },
      expected: [a('192.0.2.1')],
    },
    {
      name: 'Unmonitored (always serve) is in DNS',
      table: { east: 'Unmonitored' },
      expected: [a('192.0.2.1')],
    },
    {
      name: 'all degraded → the first eligible endpoint is served as if Online',
      table: { east: 'Stopped', west: 'Degraded', south: 'Degraded' },
      expected: [a('192.0.2.2')],
    },
    {
      name: 'no eligible endpoint → no records (NXDOMAIN)',
      table: { east: 'Disabled', west: 'Stopped', south: 'Inactive' },
      expected: [],
    },
  ])('$name', ({ table, expected }) => {
    // Act
    const records = plan(shop, table);

    // Assess
    expect(records).toEqual(expected);
  });

  it('the priority value, not the list order, decides', () => {
    // Prepare
    const shuffled = profile('shop', [
      external('late', '192.0.2.9', { priority: 20 }),
      external('early', '192.0.2.8', { priority: 10 }),
    ]);

    // Act + Assess
    expect(plan(shuffled)).toEqual([a('192.0.2.8')]);
  });

  it('equal priorities (rejected by validation) keep the list order', () => {
    const tied = profile('shop', [
      external('first', '192.0.2.1', { priority: 5 }),
      external('second', '192.0.2.2', { priority: 5 }),
    ]);
    expect(plan(tied)).toEqual([a('192.0.2.1')]);
  });

  it('a configured-Disabled endpoint never answers, whatever status it is given', () => {
    // Prepare
    const shop2 = profile('shop', [
      external('east', '192.0.2.1', { endpointStatus: 'Disabled' }),
      external('west', '192.0.2.2'),
    ]);

    // Act + Assess
    expect(plan(shop2)).toEqual([a('192.0.2.2')]);
  });

  it.each([
    { name: 'host names → CNAME', target: 'east.shop.example.net', type: 'CNAME' },
    { name: 'IPv4 → A', target: '192.0.2.1', type: 'A' },
    { name: 'IPv6 → AAAA', target: '2001:db8::1', type: 'AAAA' },
  ])('record type: $name, with the profile TTL', ({ target, type }) => {
    // Prepare
    const shop2 = profile('shop', [external('east', target)], { ttl: 60 });

    // Act + Assess
    expect(plan(shop2)).toEqual([{ name: NAME, type, ttl: 60, values: [target] }]);
  });
});

describe('disabled profile', () => {
  it.each(['Priority', 'Weighted', 'Geographic', 'Subnet'] as const)(
    'a Disabled %s profile has no records (NXDOMAIN), whatever the statuses',
    (method) => {
      // Prepare
      const shop = profile('shop', [external('east', '192.0.2.1', { geoMapping: ['WORLD'] })], {
        method,
        status: 'Disabled',
      });

      // Act + Assess
      expect(plan(shop)).toEqual([]);
    },
  );
});

describe('Weighted', () => {
  const shop = profile(
    'shop',
    [
      external('east', '192.0.2.1', { weight: 10 }),
      external('west', '192.0.2.2', { weight: 20 }),
      external('north', '192.0.2.3', { weight: 30 }),
    ],
    { method: 'Weighted' },
  );
  const w = (set: string, weight: number, ip: string) => a(ip, { setIdentifier: set, weight });

  it.each<{ name: string; table: Record<string, EndpointMonitorStatus>; expected: RecordSet[] }>([
    {
      name: 'one weighted record per available endpoint (SetIdentifier = endpoint, Weight = weight)',
      table: {},
      expected: [w('east', 10, '192.0.2.1'), w('west', 20, '192.0.2.2'), w('north', 30, '192.0.2.3')],
    },
    {
      name: 'a Degraded endpoint is no longer returned',
      table: { west: 'Degraded' },
      expected: [w('east', 10, '192.0.2.1'), w('north', 30, '192.0.2.3')],
    },
    {
      name: 'all degraded → every eligible endpoint is served, Stopped ones are not',
      table: { east: 'Degraded', west: 'Degraded', north: 'Stopped' },
      expected: [w('east', 10, '192.0.2.1'), w('west', 20, '192.0.2.2')],
    },
  ])('$name', ({ table, expected }) => {
    expect(plan(shop, table)).toEqual(expected);
  });
});

describe('Performance', () => {
  const shop = profile(
    'shop',
    [
      external('use1', '192.0.2.1', { endpointLocation: 'us-east-1' }),
      external('euw1', '192.0.2.2', { endpointLocation: 'eu-west-1' }),
      external('use1b', '192.0.2.3', { endpointLocation: 'us-east-1' }),
    ],
    { method: 'Performance' },
  );
  const l = (set: string, region: string, ip: string) => a(ip, { setIdentifier: set, region });

  it.each<{ name: string; table: Record<string, EndpointMonitorStatus>; expected: RecordSet[] }>([
    {
      name: 'one latency record per region (Region = endpointLocation); in a shared region the first by priority',
      table: {},
      expected: [l('use1', 'us-east-1', '192.0.2.1'), l('euw1', 'eu-west-1', '192.0.2.2')],
    },
    {
      name: 'a Degraded endpoint gives its region to the next endpoint there',
      table: { use1: 'Degraded' },
      expected: [l('euw1', 'eu-west-1', '192.0.2.2'), l('use1b', 'us-east-1', '192.0.2.3')],
    },
    {
      name: 'a region whose endpoints are all Degraded loses its record (traffic moves to the next-closest region)',
      table: { use1: 'Degraded', use1b: 'Degraded' },
      expected: [l('euw1', 'eu-west-1', '192.0.2.2')],
    },
    {
      name: 'all degraded → every eligible endpoint is served',
      table: { use1: 'Degraded', use1b: 'Degraded', euw1: 'Degraded' },
      expected: [l('use1', 'us-east-1', '192.0.2.1'), l('euw1', 'eu-west-1', '192.0.2.2')],
    },
  ])('$name', ({ table, expected }) => {
    expect(plan(shop, table)).toEqual(expected);
  });

  it('an endpoint without a location cannot get a latency record', () => {
    const noLocation = profile('shop', [external('x', '192.0.2.1')], { method: 'Performance' });
    expect(plan(noLocation)).toEqual([]);
  });
});

describe('Geographic', () => {
  const shop = profile(
    'shop',
    [
      external('world', '192.0.2.1', { geoMapping: ['WORLD'] }),
      external('eu', '192.0.2.2', { geoMapping: ['GEO-EU', 'DE'] }),
      external('ca', '192.0.2.3', { geoMapping: ['US-CA'] }),
    ],
    { method: 'Geographic' },
  );
  const g = (set: string, ip: string, geoLocation: RecordSet['geoLocation']) =>
    a(ip, { setIdentifier: set, geoLocation });
  const all = [
    g('world/WORLD', '192.0.2.1', { countryCode: '*' }),
    g('eu/GEO-EU', '192.0.2.2', { continentCode: 'EU' }),
    g('eu/DE', '192.0.2.2', { countryCode: 'DE' }),
    g('ca/US-CA', '192.0.2.3', { countryCode: 'US', subdivisionCode: 'CA' }),
  ];

  it.each<{ name: string; table: Record<string, EndpointMonitorStatus>; expected: RecordSet[] }>([
    {
      name: 'one geolocation record per mapped code (WORLD → *, GEO-EU → continent, DE → country, US-CA → subdivision)',
      table: {},
      expected: all,
    },
    {
      name: 'a Degraded endpoint keeps being returned (no failover)',
      table: { eu: 'Degraded', world: 'Degraded', ca: 'Degraded' },
      expected: all,
    },
    {
      name: 'a Disabled or Stopped endpoint goes, with its codes',
      table: { eu: 'Disabled', ca: 'Stopped' },
      expected: [g('world/WORLD', '192.0.2.1', { countryCode: '*' })],
    },
  ])('$name', ({ table, expected }) => {
    expect(plan(shop, table)).toEqual(expected);
  });

  it('a code Route 53 does not know is refused, not published (validation refuses it first)', () => {
    const unknown = profile('shop', [external('x', '192.0.2.9', { geoMapping: ['XX-YY'] })], {
      method: 'Geographic',
    });
    expect(() => plan(unknown)).toThrow(UnknownGeoCodeError);
  });
});

describe('MultiValue', () => {
  const shop = profile(
    'shop',
    [
      external('one', '192.0.2.1'),
      external('two', '192.0.2.2'),
      external('three', '192.0.2.3'),
      external('six', '2001:db8::6'),
    ],
    { method: 'MultiValue', maxReturn: 2 },
  );
  const m = (set: string, ip: string): RecordSet => ({
    name: NAME,
    type: ip.includes(':') ? 'AAAA' : 'A',
    ttl: 30,
    setIdentifier: set,
    multiValueAnswer: true,
    values: [ip],
  });

  it.each<{ name: string; table: Record<string, EndpointMonitorStatus>; expected: RecordSet[] }>([
    {
      name: 'at most maxReturn records per type, the first by priority; A and AAAA at one name',
      table: {},
      expected: [m('one', '192.0.2.1'), m('two', '192.0.2.2'), m('six', '2001:db8::6')],
    },
    {
      name: 'a Degraded endpoint is replaced by the next available one',
      table: { one: 'Degraded' },
      expected: [m('two', '192.0.2.2'), m('three', '192.0.2.3'), m('six', '2001:db8::6')],
    },
    {
      name: 'all degraded → every eligible endpoint may answer, still at most maxReturn',
      table: { one: 'Degraded', two: 'Degraded', three: 'Degraded', six: 'Degraded' },
      expected: [m('one', '192.0.2.1'), m('two', '192.0.2.2'), m('six', '2001:db8::6')],
    },
  ])('$name', ({ table, expected }) => {
    expect(plan(shop, table)).toEqual(expected);
  });

  it('maxReturn defaults to 2 when the profile has none', () => {
    const noMax = { ...shop, maxReturn: undefined };
    expect(plan(noMax).filter((r) => r.type === 'A')).toHaveLength(2);
  });
});

describe('Subnet', () => {
  const shop = profile(
    'shop',
    [
      external('office', '192.0.2.1', { subnets: ['10.0.0.0/8'] }),
      external('a-very-long-endpoint-name', '192.0.2.2', { subnets: ['172.16.0.0/12', '192.168.0.0/16'] }),
      external('fallback', '192.0.2.9'),
    ],
    { method: 'Subnet' },
  );
  const longLocation = 'a-very-lo_';
  const s = (set: string, location: string, ip: string) =>
    a(ip, { setIdentifier: set, cidrRoutingConfig: { collectionId: 'tm-shop', locationName: location } });

  it('one CIDR record per endpoint location plus the * default for the fallback, and the collection tm-<profile>', () => {
    // Act
    const { records, cidrCollections } = planRecords([shop], statuses());

    // Assess
    const long = records[1]?.cidrRoutingConfig?.locationName ?? '';
    expect(long.startsWith(longLocation)).toBe(true);
    expect(long).toMatch(/^[0-9A-Za-z_-]{1,16}$/);
    expect(records).toEqual([
      s('office', 'office', '192.0.2.1'),
      s('a-very-long-endpoint-name', long, '192.0.2.2'),
      s('fallback', '*', '192.0.2.9'),
    ]);
    expect(cidrCollections).toEqual([
      {
        id: 'tm-shop',
        name: 'tm-shop',
        locations: { office: ['10.0.0.0/8'], [long]: ['172.16.0.0/12', '192.168.0.0/16'] },
      },
    ]);
  });

  it.each<{ name: string; table: Record<string, EndpointMonitorStatus>; sets: string[] }>([
    {
      name: 'a Degraded mapped endpoint stays the answer for its ranges (no failover to the fallback)',
      table: { office: 'Degraded' },
      sets: ['office', 'a-very-long-endpoint-name', 'fallback'],
    },
    {
      name: 'a Degraded fallback stays the default answer',
      table: { fallback: 'Degraded' },
      sets: ['office', 'a-very-long-endpoint-name', 'fallback'],
    },
    {
      name: 'a Stopped or Disabled mapped endpoint loses its record (its ranges get the * default)',
      table: { office: 'Stopped', 'a-very-long-endpoint-name': 'Disabled' },
      sets: ['fallback'],
    },
  ])('$name', ({ table, sets }) => {
    expect(plan(shop, table).map((r) => r.setIdentifier)).toEqual(sets);
  });

  it('the collection does not change with statuses', () => {
    const healthy = planRecords([shop], statuses()).cidrCollections;
    const broken = planRecords([shop], statuses({}, 'Stopped')).cidrCollections;
    expect(broken).toEqual(healthy);
  });

  it('without a fallback endpoint there is no * record (unmapped addresses get no answer)', () => {
    const noFallback = profile('shop', [external('office', '192.0.2.1', { subnets: ['10.0.0.0/8'] })], {
      method: 'Subnet',
    });
    expect(plan(noFallback).map((r) => r.cidrRoutingConfig?.locationName)).toEqual(['office']);
  });

  it('only one endpoint answers for *, even if two have no ranges', () => {
    const twoFallbacks = profile('shop', [external('f1', '192.0.2.1'), external('f2', '192.0.2.2')], {
      method: 'Subnet',
    });
    expect(planRecords([twoFallbacks], statuses())).toEqual({
      records: [s('f1', '*', '192.0.2.1')],
      cidrCollections: [],
    });
  });

  it('a Disabled Subnet profile keeps its collection but has no records', () => {
    const off = { ...shop, profileStatus: 'Disabled' as const };
    const result = planRecords([off], statuses());
    expect(result.records).toEqual([]);
    expect(result.cidrCollections.map((c) => c.name)).toEqual(['tm-shop']);
  });
});

describe('nested profiles', () => {
  const childV4 = profile('child', [external('c1', '192.0.2.50')]);
  const childHost = profile('child', [external('c1', 'c1.example.net')]);
  const childDual = profile('child', [external('c4', '192.0.2.50'), external('c6', '2001:db8::50')], {
    method: 'MultiValue',
  });
  const alias = (type: 'A' | 'AAAA', extra: Partial<RecordSet> = {}): RecordSet => ({
    name: NAME,
    type,
    ...extra,
    aliasTarget: { hostedZoneId: ZONE_ID, dnsName: 'child.example.com', evaluateTargetHealth: false },
    values: [],
  });

  it.each<{ name: string; parent: Profile; children: Profile[]; expected: RecordSet[] }>([
    {
      name: 'a parent publishing addresses points at the child with an alias record (no TTL)',
      parent: profile('shop', [nested('eu', 'child'), external('east', '192.0.2.1')]),
      children: [childV4],
      expected: [alias('A')],
    },
    {
      name: 'a parent publishing host names points at the child with a CNAME (profile TTL)',
      parent: profile('shop', [nested('eu', 'child'), external('east', 'east.example.net')]),
      children: [childHost],
      expected: [{ name: NAME, type: 'CNAME', ttl: 30, values: ['child.example.com'] }],
    },
    {
      name: 'an all-nested parent takes its record type from its children, recursively',
      parent: profile('shop', [nested('eu', 'child')]),
      children: [
        profile('child', [nested('g', 'grandchild')]),
        profile('grandchild', [external('x', '192.0.2.7')]),
      ],
      expected: [alias('A')],
    },
    {
      name: 'an all-nested parent of a host-name child publishes a CNAME',
      parent: profile('shop', [nested('eu', 'child')]),
      children: [childHost],
      expected: [{ name: NAME, type: 'CNAME', ttl: 30, values: ['child.example.com'] }],
    },
    {
      name: 'a child serving IPv4 and IPv6 gets an A and an AAAA alias',
      parent: profile('shop', [nested('eu', 'child')], { method: 'Weighted' }),
      children: [childDual],
      expected: [
        alias('A', { setIdentifier: 'eu', weight: 1 }),
        alias('AAAA', { setIdentifier: 'eu', weight: 1 }),
      ],
    },
  ])('$name', ({ parent, children, expected }) => {
    expect(plan(parent, {}, children)).toEqual(expected);
  });

  it('a Stopped nested endpoint (child disabled) is skipped for the next one', () => {
    const parent = profile('shop', [nested('eu', 'child'), external('east', '192.0.2.1')]);
    expect(plan(parent, { eu: 'Stopped' }, [childV4])).toEqual([a('192.0.2.1')]);
  });

  it('without a hosted zone id in the definitions the alias names the child zone (resolved by the publisher)', () => {
    const parent = profile('shop', [nested('eu', 'child')]);
    const child = profile('child', [external('c1', '192.0.2.50')], { hostedZoneId: undefined });
    expect(plan(parent, {}, [child])[0]?.aliasTarget?.hostedZoneId).toBe('example.com');
  });

  it('an endpoint nesting a nested endpoint to an empty child has no answer, so the next one answers', () => {
    const parent = profile('shop', [nested('eu', 'empty'), external('east', '192.0.2.1')]);
    expect(plan(parent, {}, [profile('empty', [])])).toEqual([a('192.0.2.1')]);
  });

  it('a cycle (rejected by validation) does not loop forever: the looping endpoint has no answer', () => {
    const loopA = profile('shop', [nested('b', 'loop-b'), external('x', '192.0.2.1')]);
    const loopB = profile('loop-b', [nested('a', 'shop')]);
    expect(plan(loopA, {}, [loopB])).toEqual([a('192.0.2.1')]);
  });

  it('fails when a nested endpoint names an unknown profile', () => {
    const parent = profile('shop', [nested('eu', 'nowhere')]);
    expect(() => plan(parent)).toThrow(UnknownChildProfileError);
    expect(() => plan(parent)).toThrow(/profile "shop" endpoint "eu": target profile "nowhere"/);
  });
});
