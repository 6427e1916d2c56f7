import { describe, expect, it } from 'vitest';
import { Keys, verdictKeyParts } from '../../shared/state/keys.js';

describe('table layout: a verdict’s partition key carries its region', () => {
  it.each([
    {
      name: 'a plain target key',
      targetKey: 'HTTPS:shop.example.com:443/health#1a2b3c4d',
      region: 'eu-west-1',
    },
    { name: 'a target key with # and : inside', targetKey: 'TCP:10.0.0.1:5432#a#b', region: 'us-east-1' },
  ])('Keys.verdict and verdictKeyParts round-trip $name', ({ targetKey, region }) => {
    const key = Keys.verdict(targetKey, region);
    expect(key.pk.startsWith(`VERDICT#${region}#`)).toBe(true);
    expect(verdictKeyParts(key.pk)).toEqual({ region, targetKey });
  });

  it.each([
    { name: 'another prefix', pk: 'REGION#eu-west-1' },
    { name: 'no region separator', pk: 'VERDICT#garbage' },
    { name: 'an empty region', pk: 'VERDICT##HTTPS:x:443/' },
    { name: 'an empty target key', pk: 'VERDICT#eu-west-1#' },
  ])('verdictKeyParts refuses $name', ({ pk }) => {
    expect(verdictKeyParts(pk)).toBeUndefined();
  });
});

describe('table layout: the sort keys that one Query on a prefix reads', () => {
  it.each([
    { kind: 'heartbeat', key: Keys.heartbeat, sk: 'HEARTBEAT' },
    { kind: 'checkSummaries', key: Keys.checkSummaries, sk: 'SUMMARY' },
    { kind: 'judgeList', key: Keys.judgeList, sk: 'JUDGES' },
    { kind: 'certificates', key: Keys.certificates, sk: 'CERTIFICATES' },
  ])(
    "a probe region's $kind items: shard 0 under $sk, shard n under $sk#n, all in the region's partition",
    ({ key, sk }) => {
      expect([key('eu-west-1'), key('eu-west-1', 0), key('eu-west-1', 2)]).toEqual([
        { pk: 'REGION#eu-west-1', sk },
        { pk: 'REGION#eu-west-1', sk },
        { pk: 'REGION#eu-west-1', sk: `${sk}#2` },
      ]);
      expect(Keys.capacity('eu-west-1', 0).sk.startsWith(sk)).toBe(false);
    },
  );

  it("a profile's control and its version under *, an endpoint's under its name", () => {
    expect([Keys.statusControl('shop', undefined), Keys.statusControl('shop', 'east')]).toEqual([
      { pk: 'CONTROL', sk: 'STATUS#shop#*' },
      { pk: 'CONTROL', sk: 'STATUS#shop#east' },
    ]);
    expect([Keys.controlVersion('shop', undefined), Keys.controlVersion('shop', 'east')]).toEqual([
      { pk: 'CONTROL', sk: 'VERSION#shop#*' },
      { pk: 'CONTROL', sk: 'VERSION#shop#east' },
    ]);
  });

  it("a profile's history sorts by time, a profile's change (*) beside its endpoints'", () => {
    const at = '2026-01-01T00:00:00.000Z';
    const keys = [
      Keys.history({
        profile: 'shop',
        endpoint: 'east',
        at: '2026-01-01T00:00:01.000Z',
        eventId: 'shop/east/2@1',
      }),
      Keys.history({ profile: 'shop', endpoint: undefined, at, eventId: 'shop/*/1@0' }),
      Keys.history({ profile: 'shop', endpoint: 'east', at, eventId: 'shop/east/1@0' }),
    ];
    expect(keys.map((k) => k.pk)).toEqual(['HISTORY#shop', 'HISTORY#shop', 'HISTORY#shop']);
    expect(keys.map((k) => k.sk).sort()).toEqual([
      `${at}#*#shop/*/1@0`,
      `${at}#east#shop/east/1@0`,
      '2026-01-01T00:00:01.000Z#east#shop/east/2@1',
    ]);
  });
});
