import { describe, expect, it } from 'vitest';
import type { Endpoint, NestedEndpoint, Profile } from '../../shared/profile/types.js';
import { NestingCycleError } from '../../shared/status/errors.js';
import { evaluateProfiles, type ProfileStatusReport } from '../../shared/status/evaluate.js';
import { childrenFirst, nestedEndpointStatus } from '../../shared/status/nested.js';
import { profileMonitorStatus } from '../../shared/status/profile-status.js';
import type { EndpointMonitorStatus } from '../../shared/status/vocabulary.js';
import { external, heartbeat, heartbeats, nested, profile, REGIONS, verdict } from './evaluate-fixtures.js';

const NOW = 10_000_000;

/** A child profile whose endpoints have these statuses (`v4:`/`v6:` prefixes set the address family). */
function child(
  statuses: readonly string[],
  fields: Partial<Profile> = {},
): { child: Profile; report: ProfileStatusReport } {
  const endpoints: Endpoint[] = statuses.map((s, i) => {
    const [family, status] = s.includes(':') ? s.split(':') : ['host', s];
    const targetKind = family === 'v4' ? 'ipv4' : family === 'v6' ? 'ipv6' : 'hostname';
    const target =
      family === 'v4' ? `192.0.2.${i + 1}` : family === 'v6' ? `2001:db8::${i + 1}` : `c${i}.example.net`;
    return external(`c${i}-${status}`, { target, targetKind });
  });
  const p = profile('child', endpoints, fields);
  const endpointStatuses = statuses.map(
    (s) => (s.includes(':') ? s.split(':')[1] : s) as EndpointMonitorStatus,
  );
  return {
    child: p,
    report: {
      profile: 'child',
      status: profileMonitorStatus(p.profileStatus, endpointStatuses),
      since: 0,
      stale: false,
      endpoints: endpoints.map((e, i) => ({
        endpoint: e.name,
        status: endpointStatuses[i]!,
        since: 0,
        reason: '',
        stale: false,
        votes: [],
      })),
    },
  };
}

function parentEndpoint(fields: Partial<NestedEndpoint> = {}): NestedEndpoint {
  return nested('eu', 'child', fields);
}

describe('nested endpoint status (SPEC §6)', () => {
  it.each([
    {
      name: 'child profile Disabled → Stopped',
      children: ['Online'],
      childFields: { profileStatus: 'Disabled' },
      expected: 'Stopped',
    },
    {
      name: 'child profile Inactive (all endpoints disabled) → Stopped',
      children: ['Disabled', 'Disabled'],
      expected: 'Stopped',
    },
    { name: 'child profile Inactive (no endpoints) → Stopped', children: [], expected: 'Stopped' },
    {
      name: 'at least minChildEndpoints (1) Online → Online',
      children: ['Online', 'Degraded'],
      expected: 'Online',
    },
    {
      name: 'child profile Degraded overall but with enough Online endpoints → Online',
      children: ['Online', 'Degraded', 'Degraded'],
      expected: 'Online',
    },
    {
      name: 'minChildEndpoints 2 with 2 Online → Online',
      children: ['Online', 'Online', 'Degraded'],
      fields: { minChildEndpoints: 2 },
      expected: 'Online',
    },
    {
      name: 'fewer Online than minChildEndpoints, but Online + CheckingEndpoint reach it → CheckingEndpoint',
      children: ['Online', 'CheckingEndpoint', 'Degraded'],
      fields: { minChildEndpoints: 2 },
      expected: 'CheckingEndpoint',
    },
    {
      name: 'a child still checking its only endpoint → CheckingEndpoint',
      children: ['CheckingEndpoint'],
      expected: 'CheckingEndpoint',
    },
    {
      name: 'Online + CheckingEndpoint below minChildEndpoints → Degraded',
      children: ['Online', 'Degraded', 'Degraded'],
      fields: { minChildEndpoints: 2 },
      expected: 'Degraded',
    },
    {
      name: 'every child endpoint Degraded → Degraded',
      children: ['Degraded', 'Degraded'],
      expected: 'Degraded',
    },
    {
      name: 'Disabled and Stopped children do not count → Degraded',
      children: ['Disabled', 'Stopped', 'Degraded'],
      expected: 'Degraded',
    },
    {
      name: 'decision: Unmonitored children count as Online',
      children: ['Unmonitored', 'Degraded'],
      expected: 'Online',
    },
    {
      name: 'IPv4/IPv6 counted separately: both thresholds met → Online',
      children: ['v4:Online', 'v6:Online'],
      fields: { minChildEndpointsIPv4: 1, minChildEndpointsIPv6: 1 },
      expected: 'Online',
    },
    {
      name: 'IPv4 threshold met but IPv6 not → not Online (both must hold)',
      children: ['v4:Online', 'v4:Online', 'v6:Degraded'],
      fields: { minChildEndpoints: 1, minChildEndpointsIPv4: 1, minChildEndpointsIPv6: 1 },
      expected: 'Degraded',
    },
    {
      name: 'IPv6 threshold reached only with CheckingEndpoint → CheckingEndpoint',
      children: ['v4:Online', 'v6:CheckingEndpoint'],
      fields: { minChildEndpointsIPv4: 1, minChildEndpointsIPv6: 1 },
      expected: 'CheckingEndpoint',
    },
    {
      name: 'IPv4 threshold of 2 with one IPv4 Online → Degraded',
      children: ['v4:Online', 'v6:Online'],
      fields: { minChildEndpointsIPv4: 2 },
      expected: 'Degraded',
    },
    {
      name: 'minChildEndpoints still holds beside the per-family thresholds',
      children: ['v4:Online', 'v6:Degraded'],
      fields: { minChildEndpoints: 2, minChildEndpointsIPv4: 1 },
      expected: 'Degraded',
    },
    {
      name: 'a threshold only for IPv6 ignores IPv4 children',
      children: ['v4:Degraded', 'v6:Online'],
      fields: { minChildEndpointsIPv6: 1 },
      expected: 'Online',
    },
  ] as {
    name: string;
    children: string[];
    childFields?: Partial<Profile>;
    fields?: Partial<NestedEndpoint>;
    expected: EndpointMonitorStatus;
  }[])('$name', ({ children, childFields, fields, expected }) => {
    // Prepare
    const { child: c, report } = child(children, childFields);
    // Act
    const decision = nestedEndpointStatus(parentEndpoint(fields), c, report);
    // Assess
    expect(decision.status).toBe(expected);
  });

  it('explains the count against the thresholds', () => {
    // Prepare
    const { child: c, report } = child(['v4:Online', 'v6:Degraded']);
    // Act
    const decision = nestedEndpointStatus(
      parentEndpoint({ minChildEndpointsIPv4: 1, minChildEndpointsIPv6: 1 }),
      c,
      report,
    );
    // Assess
    expect(decision.reason).toBe('child profile "child": 1 Online (min 1), 1 IPv4 (min 1), 0 IPv6 (min 1)');
  });

  it('an unknown child profile → Stopped (validation normally prevents it)', () => {
    expect(nestedEndpointStatus(parentEndpoint(), undefined, undefined)).toMatchObject({
      status: 'Stopped',
      reason: 'child profile "child" is not defined',
    });
  });

  it('a child endpoint missing from the child report counts as CheckingEndpoint', () => {
    // Prepare
    const { child: c, report } = child(['Online']);
    // Act
    const decision = nestedEndpointStatus(parentEndpoint(), c, { ...report, endpoints: [] });
    // Assess
    expect(decision.status).toBe('CheckingEndpoint');
  });

  it('a stale child makes the parent endpoint stale', () => {
    // Prepare
    const { child: c, report } = child(['Online']);
    // Act
    const decision = nestedEndpointStatus(parentEndpoint(), c, { ...report, stale: true });
    // Assess
    expect(decision).toMatchObject({ status: 'Online', stale: true });
  });
});

describe('nested propagation through evaluateProfiles', () => {
  it('propagates through three levels, whatever the input order (children first)', () => {
    // Prepare: top → mid → leaf; leaf's only endpoint is down in every region
    const leaf = profile('leaf', [external('a')]);
    const mid = profile('mid', [nested('to-leaf', 'leaf')]);
    const top = profile('top', [nested('to-mid', 'mid'), external('b')]);
    const verdicts = REGIONS.map((r) => verdict(leaf, 'a', r, 'down', 1));
    // Act
    const reports = evaluateProfiles({
      profiles: [top, mid, leaf],
      verdicts,
      heartbeats: heartbeats(NOW),
      previous: new Map(),
      defaultProbeRegions: [],
      now: NOW,
    });
    // Assess
    expect(reports.map((r) => [r.profile, r.status, r.endpoints.map((e) => e.status)])).toEqual([
      ['top', 'Degraded', ['Degraded', 'CheckingEndpoint']],
      ['mid', 'Degraded', ['Degraded']],
      ['leaf', 'Degraded', ['Degraded']],
    ]);
  });

  it('a disabled nested endpoint is Disabled, not Stopped; a disabled parent profile makes it Inactive', () => {
    // Prepare
    const leaf = profile('leaf', [external('a')], { profileStatus: 'Disabled' });
    const parent = profile('p', [
      nested('off', 'leaf', { endpointStatus: 'Disabled' }),
      nested('on', 'leaf'),
    ]);
    const parentOff = profile('q', [nested('on', 'leaf')], { profileStatus: 'Disabled' });
    // Act
    const [p, q] = evaluateProfiles({
      profiles: [parent, parentOff, leaf],
      verdicts: [],
      heartbeats: [heartbeat('x', NOW)],
      previous: new Map(),
      defaultProbeRegions: [],
      now: NOW,
    });
    // Assess
    expect(p?.endpoints.map((e) => e.status)).toEqual(['Disabled', 'Stopped']);
    expect(p?.status).toBe('Inactive');
    expect(q?.endpoints.map((e) => e.status)).toEqual(['Inactive']);
  });

  it('a grandchild counts toward minChildEndpoints', () => {
    // Prepare: mid has one nested endpoint (to an Online leaf); top needs 1 child endpoint Online
    const leaf = profile('leaf', [external('a', { alwaysServe: true })]);
    const mid = profile('mid', [nested('to-leaf', 'leaf')]);
    const top = profile('top', [nested('to-mid', 'mid')]);
    // Act
    const [report] = evaluateProfiles({
      profiles: [top, mid, leaf],
      verdicts: [],
      heartbeats: [],
      previous: new Map(),
      defaultProbeRegions: [],
      now: NOW,
    });
    // Assess
    expect(report?.endpoints[0]?.status).toBe('Online');
  });
});

describe('childrenFirst', () => {
  it('orders children before parents and keeps the input order otherwise', () => {
    // Prepare
    const a = profile('a', [nested('x', 'c')]);
    const b = profile('b', [external('e')]);
    const c = profile('c', [nested('y', 'd')]);
    const d = profile('d', [external('e')]);
    // Act / Assess
    expect(childrenFirst([a, b, c, d]).map((p) => p.name)).toEqual(['d', 'c', 'a', 'b']);
  });

  it('refuses a cycle (validation normally prevents it)', () => {
    // Prepare
    const a = profile('a', [nested('x', 'b')]);
    const b = profile('b', [nested('y', 'a')]);
    // Act / Assess
    expect(() => childrenFirst([a, b])).toThrow(NestingCycleError);
    expect(() => childrenFirst([a, b])).toThrow('nested profiles form a cycle: a → b → a');
  });
});
