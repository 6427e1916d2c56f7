import { describe, expect, it } from 'vitest';
import { Keys, verdictKeyParts } from '../../shared/state/items.js';

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
