/** The names in the `route53:ChangeResourceRecordSetsNormalizedRecordNames` condition, normalized as Route 53 documents. */
import { describe, expect, it } from 'vitest';
import { recordNamesByHostedZone } from '../../infra/cdk/record-names.js';
import { OTHER_ZONE_ID, ZONE_ID, profile } from './fixtures/profiles.js';

describe('normalized record names (the escaping itself: test/core/zone-names.test.ts)', () => {
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
