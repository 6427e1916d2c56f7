import { describe, expect, it } from 'vitest';
import { StatusOverrideError } from '../../shared/status/errors.js';
import { endpointStatusLookup, statusesFromOverrides } from '../../shared/status/evaluate.js';
import type { EndpointMonitorStatus } from '../../shared/status/vocabulary.js';
import { external, nested, profile } from './evaluate-fixtures.js';

const NOW = 42;
const shop = profile('shop', [
  external('east'),
  external('west'),
  external('off', { endpointStatus: 'Disabled' }),
  external('always', { alwaysServe: true }),
  nested('eu', 'shop-eu'),
]);
const shopEu = profile('shop-eu', [external('fra'), external('ams')]);
const dark = profile('dark', [external('x')], { profileStatus: 'Disabled' });
const profiles = [shop, shopEu, dark];

function statuses(overrides: Record<string, string>) {
  const reports = statusesFromOverrides(
    profiles,
    new Map(Object.entries(overrides) as [string, EndpointMonitorStatus][]),
    NOW,
  );
  const lookup = endpointStatusLookup(reports);
  return { reports, lookup };
}

describe('statusesFromOverrides (tm plan --status profile/endpoint=STATUS)', () => {
  it('external endpoints not named have no results yet: CheckingEndpoint', () => {
    // Act
    const { lookup } = statuses({});
    // Assess
    expect(['east', 'west'].map((e) => lookup('shop', e))).toEqual(['CheckingEndpoint', 'CheckingEndpoint']);
  });

  it('named endpoints take the status given', () => {
    // Act
    const { lookup, reports } = statuses({ 'shop/east': 'Degraded', 'shop/west': 'Online' });
    // Assess
    expect([lookup('shop', 'east'), lookup('shop', 'west')]).toEqual(['Degraded', 'Online']);
    expect(reports[0]).toMatchObject({ status: 'Degraded', since: NOW, stale: false });
    expect(reports[0]?.endpoints[0]).toMatchObject({ reason: 'set by hand', votes: [], since: NOW });
  });

  it.each([
    { name: 'an override cannot make a disabled endpoint Online', key: 'shop/off', expected: 'Disabled' },
    { name: 'an always-serve endpoint stays Unmonitored', key: 'shop/always', expected: 'Unmonitored' },
    { name: 'an endpoint of a disabled profile stays Inactive', key: 'dark/x', expected: 'Inactive' },
  ])('the status tables still decide first: $name', ({ key, expected }) => {
    // Act
    const { lookup } = statuses({ [key]: 'Online' });
    // Assess
    const [p, e] = key.split('/') as [string, string];
    expect(lookup(p, e)).toBe(expected);
  });

  it.each<{ name: string; overrides: Record<string, string>; expected: string }>([
    {
      name: 'child endpoint Online → nested endpoint Online',
      overrides: { 'shop-eu/fra': 'Online', 'shop-eu/ams': 'Degraded' },
      expected: 'Online',
    },
    {
      name: 'every child endpoint Degraded → nested endpoint Degraded',
      overrides: { 'shop-eu/fra': 'Degraded', 'shop-eu/ams': 'Degraded' },
      expected: 'Degraded',
    },
    {
      name: 'no child results yet → nested endpoint CheckingEndpoint',
      overrides: {},
      expected: 'CheckingEndpoint',
    },
  ])('nested endpoints are computed from their child: $name', ({ overrides, expected }) => {
    expect(statuses(overrides).lookup('shop', 'eu')).toBe(expected);
  });

  it.each<{ name: string; overrides: Record<string, string>; problem: string }>([
    {
      name: 'an unknown profile',
      overrides: { 'nope/east': 'Degraded' },
      problem: '--status nope/east=Degraded: no profile "nope" (defined: shop, shop-eu, dark)',
    },
    {
      name: 'an unknown endpoint',
      overrides: { 'shop/north': 'Degraded' },
      problem:
        '--status shop/north=Degraded: profile "shop" has no endpoint "north" (defined: east, west, off, always, eu)',
    },
    {
      name: 'a nested endpoint (its status follows the child)',
      overrides: { 'shop/eu': 'Online' },
      problem:
        '--status shop/eu=Online: "eu" is a nested endpoint; its status follows child profile "shop-eu" — set that profile\'s endpoints instead (or disable it: shop/eu=Disabled)',
    },
    {
      name: 'a status only configuration can produce',
      overrides: { 'shop/east': 'Unmonitored' },
      problem:
        '--status shop/east=Unmonitored: status must be one of Online, Degraded, CheckingEndpoint, Disabled, got "Unmonitored" (only `alwaysServe: true` in the definitions makes an endpoint Unmonitored)',
    },
    {
      name: 'a status that does not exist',
      overrides: { 'shop/east': 'Healthy' },
      problem:
        '--status shop/east=Healthy: status must be one of Online, Degraded, CheckingEndpoint, Disabled, got "Healthy"',
    },
    {
      name: 'a whole profile given a monitoring status',
      overrides: { shop: 'Degraded' },
      problem:
        '--status shop=Degraded: a whole profile can only be Disabled; name an endpoint as shop/ENDPOINT',
    },
    {
      name: 'a name with an empty endpoint',
      overrides: { 'shop/': 'Degraded' },
      problem:
        '--status shop/=Degraded: must name an endpoint as profile/endpoint (or a profile), got "shop/"',
    },
  ])('rejects $name', ({ overrides, problem }) => {
    // Act
    const attempt = () => statuses(overrides);
    // Assess
    expect(attempt).toThrow(StatusOverrideError);
    expect(attempt).toThrow(problem);
  });

  it.each<{ name: string; overrides: Record<string, string>; expected: Record<string, string> }>([
    {
      name: 'an endpoint Disabled is Disabled and not served',
      overrides: { 'shop/east': 'Disabled' },
      expected: { 'shop/east': 'Disabled', 'shop/west': 'CheckingEndpoint' },
    },
    {
      name: 'a profile Disabled makes its endpoints Inactive',
      overrides: { 'shop-eu': 'Disabled' },
      expected: { 'shop-eu/fra': 'Inactive', 'shop-eu/ams': 'Inactive', 'shop/eu': 'Stopped' },
    },
    {
      name: 'a nested endpoint can be Disabled',
      overrides: { 'shop/eu': 'Disabled', 'shop-eu/fra': 'Online' },
      expected: { 'shop/eu': 'Disabled', 'shop-eu/fra': 'Online' },
    },
  ])('Disabled works as disabling in the definitions: $name', ({ overrides, expected }) => {
    // Act
    const { lookup } = statuses(overrides);
    // Assess
    const actual = Object.fromEntries(
      Object.keys(expected).map((key) => [key, lookup(...(key.split('/') as [string, string]))]),
    );
    expect(actual).toEqual(expected);
  });

  it('reports every problem at once', () => {
    // Act
    let error: unknown;
    try {
      statuses({ 'nope/a': 'Online', 'shop/east': 'Stopped', 'shop/west': 'Degraded' });
    } catch (e) {
      error = e;
    }
    // Assess
    expect(error).toBeInstanceOf(StatusOverrideError);
    expect(error).toMatchObject({ name: 'StatusOverrideError', code: 'STATUS_OVERRIDE' });
    expect((error as StatusOverrideError).problems).toHaveLength(2);
  });
});
