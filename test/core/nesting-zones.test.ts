/**
 * A nested child in another hosted zone than its parent (SPEC §6 on Route 53): an alias record
 * reaches only records of its own hosted zone, so a parent that publishes addresses (aliases
 * to its children) needs each child in its zone; a parent that publishes host names points a
 * CNAME at the child's name, which works across zones.
 */
import { describe, expect, it } from 'vitest';
import { formatIssue, parseDefinitions } from '../support/profile-api.js';

type Json = Record<string, unknown>;

const profile = (name: string, zone: Json, endpoints: Json[]): Json => ({
  name,
  trafficRoutingMethod: 'Priority',
  dnsConfig: { relativeName: name, ...zone },
  endpoints,
});
const nested = (name: string, targetProfile: string): Json => ({ name, type: 'nested', targetProfile });
const COM = { zoneName: 'example.com' };
const EU = { zoneName: 'eu.example.com' };

function messages(definitions: Json[]): string[] {
  const result = parseDefinitions(definitions);
  return result.ok ? [] : result.issues.map((issue) => formatIssue(issue, definitions));
}

describe('nested profiles across hosted zones', () => {
  it.each([
    {
      name: 'fails when an address-publishing parent nests a child of another zone (by zone name)',
      definitions: [
        profile('shop', COM, [nested('eu', 'shop-eu'), { name: 'us', target: '192.0.2.1' }]),
        profile('shop-eu', EU, [{ name: 'a', target: '192.0.2.2' }]),
      ],
    },
    {
      name: 'fails when the zone names match but the hosted zone ids differ (e.g. a private and a public zone)',
      definitions: [
        profile('shop', { ...COM, hostedZoneId: 'Z111111111' }, [nested('eu', 'shop-eu')]),
        profile('shop-eu', { ...COM, hostedZoneId: 'Z222222222' }, [{ name: 'a', target: '2001:db8::1' }]),
      ],
    },
  ])('$name', ({ definitions }) => {
    expect(messages(definitions)).toEqual([
      expect.stringMatching(
        /^profiles\[0\] "shop" endpoints\[0\] "eu"\.targetProfile: must name a profile in the same hosted zone as "shop" .*Route 53 aliases reach only records of their own hosted zone.*, got "shop-eu"$/,
      ),
    ]);
  });

  it.each([
    {
      name: 'accepts a child of another zone under a parent that publishes host names (a CNAME to the child works across zones)',
      definitions: [
        profile('shop', COM, [nested('eu', 'shop-eu'), { name: 'us', target: 'us.shop.example.net' }]),
        profile('shop-eu', EU, [{ name: 'a', target: 'eu.shop.example.net' }]),
      ],
    },
    {
      name: 'accepts an address-publishing parent whose child is in its own zone',
      definitions: [
        profile('shop', COM, [nested('eu', 'shop-eu')]),
        profile('shop-eu', COM, [{ name: 'a', target: '192.0.2.2' }]),
      ],
    },
  ])('$name', ({ definitions }) => {
    expect(messages(definitions)).toEqual([]);
  });

  it('names the zones in the message', () => {
    const [message] = messages([
      profile('shop', COM, [nested('eu', 'shop-eu')]),
      profile('shop-eu', EU, [{ name: 'a', target: '192.0.2.2' }]),
    ]);
    expect(message).toContain('"shop-eu" is in eu.example.com, "shop" in example.com');
  });
});
