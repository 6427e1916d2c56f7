/** The names in the `route53:ChangeResourceRecordSetsNormalizedRecordNames` condition, normalized as Route 53 documents. */
import { describe, expect, it } from 'vitest';
import { normalizedRecordName, recordNamesByHostedZone } from '../../infra/cdk/record-names.js';
import { OTHER_ZONE_ID, ZONE_ID, profile } from './fixtures/profiles.js';

describe('normalized record names', () => {
  it.each([
    { name: 'all letters lower case', input: 'Shop.Example.COM', want: 'shop.example.com' },
    { name: 'no trailing dot', input: 'shop.example.com.', want: 'shop.example.com' },
    { name: 'digits, hyphen and underscore kept', input: '_tm-1.example.com', want: '_tm-1.example.com' },
    {
      name: 'other characters as three-digit octal escapes',
      input: '*.example.com',
      want: '\\052.example.com',
    },
  ])('$name', ({ input, want }) => {
    expect(normalizedRecordName(input)).toBe(want);
  });

  it('groups each hosted zone’s profile names, sorted and distinct', () => {
    const names = recordNamesByHostedZone([
      profile('shop'),
      profile('api'),
      profile('status', { zone: 'example.org', zoneId: OTHER_ZONE_ID }),
    ]);
    expect([...names]).toEqual([
      [ZONE_ID, ['api.example.com', 'shop.example.com']],
      [OTHER_ZONE_ID, ['status.example.org']],
    ]);
  });
});
