/**
 * A Priority profile whose endpoints answer different record types (an IPv4 endpoint and a
 * nested dual-stack child) gets no static-failover switch: today's records at `_fast` hold only
 * the first served endpoint's types, and Route 53 refuses a switch alias to a type `_fast` does
 * not hold. It keeps today's records at its fqdn with no problem kept (before: every apply was
 * refused and retried), and its `_static` tree still exists for parents that nest it; the child
 * is switched as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definition, startEvaluatorHarness, type EvaluatorHarness } from './harness.js';

const CHILD = definition({
  name: 'child',
  trafficRoutingMethod: 'MultiValue',
  staticFailover: true,
  endpoints: [
    { name: 'v4', target: '192.0.2.30' },
    { name: 'v6', target: '2001:db8::30' },
  ],
});
const MIXED = definition({
  name: 'mixed',
  staticFailover: true,
  endpoints: [
    { name: 'v4', target: '192.0.2.10', priority: 1 },
    { name: 'kid', type: 'nested', targetProfile: 'child', priority: 2 },
  ],
});

let h: EvaluatorHarness;

beforeAll(async () => {
  h = await startEvaluatorHarness({ staticFailover: { deployment: 'tm-mixed' } });
});

afterAll(async () => {
  await h?.stop();
});

describe('a Priority profile mixing record types under static failover', () => {
  it("keeps today's records at its fqdn, without a refused switch; its child is switched", async () => {
    // Act
    await h.define([CHILD, MIXED]);
    await h.allUp();
    await h.heartbeat();
    await h.settle();

    // Assess
    const item = await h.deps.staticFailover?.store.loadStructure();
    expect(item?.problem).toBeUndefined();
    expect(h.records('mixed.example.com').map((r) => [r.type, r.setIdentifier, r.values])).toEqual([
      ['A', undefined, ['192.0.2.10']],
    ]);
    expect(h.records('_fast.mixed.example.com')).toEqual([]);
    expect(h.records('_static.mixed.example.com').map((r) => [r.type, r.setIdentifier])).toEqual([
      ['A', 'kid'],
      ['A', 'v4'],
      ['AAAA', 'kid'],
    ]);
    expect(h.records('child.example.com').map((r) => [r.type, r.setIdentifier])).toEqual([
      ['A', 'fast'],
      ['A', 'static'],
      ['AAAA', 'fast'],
      ['AAAA', 'static'],
    ]);
  });
});
