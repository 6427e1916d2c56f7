/**
 * The one hash of the core (shared/hash/fnv1a.ts) and the stored names made from it. Verdict
 * keys, CIDR location names and probe offsets are written to the table and to Route 53, so a
 * change of the hash would orphan what an earlier version wrote: these values are pinned.
 */
import { describe, expect, it } from 'vitest';
import { fnv1a32 } from '../../shared/hash/fnv1a.js';
import { spreadOffsetMs, stableHash32 } from '../../shared/probe/plan.js';
import { shardOf } from '../../shared/probe/shards.js';
import { requestKeyOf, verdictKeyOf, type ProbeJudging } from '../../shared/probe/target.js';
import { cidrLocationNameOf } from '../../shared/routing/cidr-names.js';

describe('FNV-1a, 32 bits', () => {
  it.each([
    { text: '', hash: 0x811c9dc5 },
    { text: 'a', hash: 0xe40c292c },
    { text: 'foobar', hash: 0xbf9cf968 },
  ])('the published test vector for "$text"', ({ text, hash }) => {
    expect(fnv1a32(text)).toBe(hash);
  });
});

describe('names made from it stay what earlier versions wrote', () => {
  const requestKey = requestKeyOf({
    protocol: 'HTTPS',
    host: 'shop.example.com',
    port: 443,
    path: '/health',
    method: 'GET',
    headers: [{ name: 'X-A', value: '1' }],
  });
  const judging: ProbeJudging = {
    intervalMs: 30_000,
    timeoutMs: 10_000,
    expectedStatusCodeRanges: [{ min: 200, max: 299 }],
    healthRule: { kind: 'consecutiveFailures' },
    toleratedNumberOfFailures: 3,
  };

  it('the request key and the verdict key', () => {
    expect(requestKey).toBe('HTTPS:shop.example.com:443/health#16d950b2');
    expect(verdictKeyOf(requestKey, judging)).toBe('HTTPS:shop.example.com:443/health#16d950b2|568ff59a');
  });

  it.each([
    { method: 'GET' as const, key: 'HTTP:shop.example.com:80/health#09aa0e69' },
    { method: 'HEAD' as const, key: 'HTTP:shop.example.com:80/health#c56d3a9f' },
  ])('the request key of a $method without headers (most requests)', ({ method, key }) => {
    const spec = {
      protocol: 'HTTP' as const,
      host: 'shop.example.com',
      port: 80,
      path: '/health',
      headers: [],
    };
    expect(requestKeyOf({ ...spec, method })).toBe(key);
  });

  it('a shortened CIDR location name', () => {
    expect(cidrLocationNameOf('frankfurt-datacenter-2')).toBe('frankfurt_djh3zx');
  });

  it('a probe’s offset in its interval', () => {
    expect(stableHash32('HTTPS:shop.example.com:443/health')).toBe(3159464116);
    expect(spreadOffsetMs('HTTPS:shop.example.com:443/health', 30_000)).toBe(22068);
  });

  it('a salted hash (the shard a request goes to)', () => {
    expect(stableHash32('HTTPS:shop.example.com:443/health', 0x5a17_0001)).toBe(81199341);
    expect(shardOf('HTTPS:shop.example.com:443/health', 7)).toBe(3);
  });
});
