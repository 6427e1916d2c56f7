import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cidrCollectionNameOf, cidrLocationNameOf } from '../../shared/routing/cidr-names.js';
import { geoCodeOf, geoLocationOf } from '../../shared/profile/geo-codes.js';
import { profile } from './routing-fixtures.js';

describe('geographic codes → Route 53 geolocations', () => {
  it.each([
    { name: 'WORLD is the default location (country *)', code: 'WORLD', location: { countryCode: '*' } },
    { name: 'GEO-EU is the continent EU', code: 'GEO-EU', location: { continentCode: 'EU' } },
    { name: 'DE is the country DE', code: 'DE', location: { countryCode: 'DE' } },
    {
      name: 'US-CA is the subdivision CA of the country US',
      code: 'US-CA',
      location: { countryCode: 'US', subdivisionCode: 'CA' },
    },
  ])('$name', ({ code, location }) => {
    expect(geoLocationOf(code)).toEqual(location);
    expect(geoCodeOf(location)).toBe(code);
  });

  it('a location without any code reads as an empty code', () => {
    expect(geoCodeOf({})).toBe('');
    expect(geoCodeOf({ subdivisionCode: 'CA' })).toBe('-CA');
  });
});

describe('CIDR collection and location names', () => {
  it.each([
    { name: 'a short endpoint name is the location name as written', endpoint: 'office', expected: 'office' },
    { name: 'a 16-character name is kept', endpoint: 'abcdefghijklmnop', expected: 'abcdefghijklmnop' },
  ])('$name', ({ endpoint, expected }) => {
    expect(cidrLocationNameOf(endpoint)).toBe(expected);
  });

  it('a long endpoint name becomes a prefix, _ and a hash: ≤ 16 characters of [0-9A-Za-z_-], stable', () => {
    const name = cidrLocationNameOf('frankfurt-datacenter-2');
    expect(name).toMatch(/^frankfurt_[0-9a-z]{6}$/);
    expect(cidrLocationNameOf('frankfurt-datacenter-2')).toBe(name);
    expect(cidrLocationNameOf('frankfurt-datacenter-3')).not.toBe(name);
  });

  it('any endpoint name maps to a valid Route 53 location name, distinct names to distinct ones', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[A-Za-z0-9-]{1,40}$/), { maxLength: 20 }), (names) => {
        const mapped = names.map(cidrLocationNameOf);
        for (const m of mapped) expect(m).toMatch(/^[0-9A-Za-z_-]{1,16}$/);
        expect(new Set(mapped).size).toBe(names.length);
      }),
    );
  });

  it('the collection is tm-<profile>, shortened past 64 characters', () => {
    expect(cidrCollectionNameOf(profile('shop', []))).toBe('tm-shop');
    const long = cidrCollectionNameOf(profile('p'.repeat(80), []));
    expect(long).toMatch(/^tm-p+_[0-9a-z]{6}$/);
    expect(long).toHaveLength(64);
  });

  it('characters Route 53 does not accept are replaced before shortening', () => {
    expect(cidrLocationNameOf('a.b')).toMatch(/^a-b_[0-9a-z]{6}$/);
  });
});
