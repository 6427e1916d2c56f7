import { describe, expect, it } from 'vitest';
import { planProbes } from '../../shared/probe/plan.js';
import type { ConfiguredStatus, Profile } from '../../shared/profile/types.js';
import { countsAfterEnable, enabledAtOf, stampReenabled } from '../../shared/status/reenabled.js';
import { externalEndpoint, profile } from '../support/profiles.js';

const T0 = 1_700_000_000_000;
const NOW = T0 + 86_400_000;

function shop(
  status: ConfiguredStatus,
  east: ConfiguredStatus,
  stamps: { profile?: number; east?: number } = {},
): Profile {
  return profile({
    name: 'shop',
    profileStatus: status,
    ...(stamps.profile === undefined ? {} : { enabledAt: stamps.profile }),
    endpoints: [
      externalEndpoint({
        name: 'east',
        target: '192.0.2.1',
        endpointStatus: east,
        ...(stamps.east === undefined ? {} : { enabledAt: stamps.east }),
      }),
      externalEndpoint({ name: 'west', target: '192.0.2.2', priority: 2 }),
    ],
  });
}
const stampsOf = (p: Profile) => ({
  profile: p.enabledAt,
  east: p.endpoints[0]?.enabledAt,
  west: p.endpoints[1]?.enabledAt,
});

describe('stampReenabled: the moment a profile or endpoint becomes Enabled again', () => {
  it.each([
    {
      name: 'an endpoint Disabled → Enabled is stamped now',
      before: shop('Enabled', 'Disabled'),
      after: shop('Enabled', 'Enabled'),
      expected: { profile: undefined, east: NOW, west: undefined },
    },
    {
      name: 'a profile Disabled → Enabled is stamped now (its endpoints follow through enabledAtOf)',
      before: shop('Disabled', 'Enabled'),
      after: shop('Enabled', 'Enabled'),
      expected: { profile: NOW, east: undefined, west: undefined },
    },
    {
      name: 'an earlier stamp is kept while the endpoint stays Enabled (a redeploy)',
      before: shop('Enabled', 'Enabled', { east: T0 }),
      after: shop('Enabled', 'Enabled'),
      expected: { profile: undefined, east: T0, west: undefined },
    },
    {
      name: 'a stamp is dropped once the endpoint is Disabled',
      before: shop('Enabled', 'Enabled', { east: T0 }),
      after: shop('Enabled', 'Disabled'),
      expected: { profile: undefined, east: undefined, west: undefined },
    },
    {
      name: 'a profile seen for the first time gets no stamp',
      before: undefined,
      after: shop('Enabled', 'Enabled'),
      expected: { profile: undefined, east: undefined, west: undefined },
    },
    {
      name: 'a stamp in the new definitions is not trusted: the stored one decides',
      before: shop('Enabled', 'Enabled'),
      after: shop('Enabled', 'Enabled', { east: T0 }),
      expected: { profile: undefined, east: undefined, west: undefined },
    },
  ])('$name', ({ before, after, expected }) => {
    expect(stampsOf(stampReenabled(before, after, NOW))).toEqual(expected);
  });
});

describe('enabledAtOf and countsAfterEnable', () => {
  it('an endpoint counts from the later of its own and its profile’s stamp', () => {
    const p = shop('Enabled', 'Enabled', { profile: T0, east: NOW });
    expect(enabledAtOf(p, p.endpoints[0]!)).toBe(NOW);
    expect(enabledAtOf(p, p.endpoints[1]!)).toBe(T0);
    expect(enabledAtOf(shop('Enabled', 'Enabled'), p.endpoints[1]!)).toBeUndefined();
  });

  it('a verdict counts when its check ran at or after the enable', () => {
    expect(countsAfterEnable({ checkedAt: NOW - 1 }, NOW)).toBe(false);
    expect(countsAfterEnable({ checkedAt: NOW }, NOW)).toBe(true);
    expect(countsAfterEnable({ checkedAt: 0 }, undefined)).toBe(true);
  });

  it('a shared judge asks for a verdict after the latest enable of the endpoints it serves', () => {
    const a = shop('Enabled', 'Enabled', { east: T0 });
    const b = { ...shop('Enabled', 'Enabled', { profile: NOW }), name: 'other' };
    const probe = planProbes([a, b], 'us-east-1', ['us-east-1']).find((t) => t.host === '192.0.2.1');
    expect(probe?.judges).toHaveLength(1);
    expect(probe?.judges[0]?.freshAfter).toBe(NOW);
    expect(
      planProbes([shop('Enabled', 'Enabled')], 'us-east-1', ['us-east-1'])[0]?.judges[0]?.freshAfter,
    ).toBeUndefined();
  });
});
