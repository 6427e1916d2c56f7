/**
 * Turning static failover on hands a profile's name over from today's records to the switch
 * (docs/adr/0011-static-failover.md, "Handover"): today's records keep answering at the fqdn
 * until the structure is in place, then one Route 53 batch replaces them with the switch and
 * copies them to `_fast.<fqdn>`. A structure that cannot be applied (here: the account's
 * health-check quota is used up) leaves the name answering as before — never unanswered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definition, startEvaluatorHarness, type EvaluatorHarness } from './harness.js';

const SHOP = definition({
  name: 'shop',
  staticFailover: false,
  endpoints: [
    { name: 'east', target: '192.0.2.10' },
    { name: 'west', target: '192.0.2.20' },
  ],
});
const SHOP_STATIC = { ...SHOP, staticFailover: true };
const NEW = definition({
  name: 'new',
  staticFailover: true,
  endpoints: [
    { name: 'east', target: '192.0.2.50' },
    { name: 'west', target: '192.0.2.60' },
  ],
});

let h: EvaluatorHarness;

beforeAll(async () => {
  // Room for the guard's check only: every target check is refused with TooManyHealthChecks.
  h = await startEvaluatorHarness({ staticFailover: { deployment: 'tm-handover' }, healthCheckQuota: 1 });
});

afterAll(async () => {
  await h?.stop();
});

describe('handing a name over to static failover', () => {
  it("a structure Route 53 refuses: today's records keep answering at the fqdn, the problem is kept", async () => {
    // Prepare
    await h.define([SHOP]);
    await h.allUp();
    await h.heartbeat();
    await h.settle();
    expect(h.values('shop.example.com')).toEqual(['192.0.2.10']);

    // Act: static failover turned on for it, and a new profile defined with it on
    await h.define([SHOP_STATIC, NEW]);
    await h.allUp();
    await h.heartbeat();
    await h.settle();

    // Assess
    expect(h.values('shop.example.com')).toEqual(['192.0.2.10']);
    expect(h.values('new.example.com')).toEqual(['192.0.2.50']);
    expect(h.records('_fast.shop.example.com')).toEqual([]);
    const item = await h.deps.staticFailover?.store.loadStructure();
    expect(item?.problem?.reason).toMatch(/TooManyHealthChecks|health checks/);
    expect(h.staticErrors.length).toBeGreaterThan(0);
  });
});
