/**
 * Re-enabled means CheckingEndpoint (SPEC §4): an endpoint or profile that is disabled and
 * later enabled again is CheckingEndpoint — served — until checks made after the re-enable
 * decide; a verdict from before the disable never counts, however long it has been "up".
 * Production wiring: the config writer's sync, DynamoDB Local's stream, the handler, the
 * local Route 53.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { definition, startEvaluatorHarness, type EvaluatorHarness } from './harness.js';

const DAY = 86_400_000;
const shop = (east: 'Enabled' | 'Disabled', profileStatus: 'Enabled' | 'Disabled' = 'Enabled') =>
  definition({
    name: 'shop',
    profileStatus,
    endpoints: [
      { name: 'east', target: '192.0.2.10', endpointStatus: east },
      { name: 'west', target: '192.0.2.20' },
    ],
  });

let h: EvaluatorHarness;
beforeEach(async () => {
  h = await startEvaluatorHarness();
  await h.define([shop('Enabled')]);
  await h.heartbeat();
  await h.allUp();
  await h.settle();
});
afterEach(async () => {
  await h.stop();
});

const statusOf = async (endpoint: string) =>
  (await h.deps.store.loadStatuses()).get('shop')?.report.endpoints.find((e) => e.endpoint === endpoint)
    ?.status;

describe('re-enabled means CheckingEndpoint until fresh checks decide', () => {
  it('an endpoint disabled and enabled again 30 days later is CheckingEndpoint (and served), not Online from its 30-day-old "up" verdict', async () => {
    expect(await statusOf('east')).toBe('Online');
    await h.define([shop('Disabled')]);
    expect(await statusOf('east')).toBe('Disabled');

    h.clock.now += 30 * DAY;
    await h.heartbeat();
    await h.define([shop('Enabled')]);
    expect(await statusOf('east')).toBe('CheckingEndpoint');
    expect(h.values('shop.example.com')).toEqual(['192.0.2.10']); // CheckingEndpoint is served

    h.clock.now += 10_000;
    await h.verdict('shop', 'east', 'down'); // checks after the re-enable decide
    await h.settle();
    expect(await statusOf('east')).toBe('Degraded');
    expect(h.values('shop.example.com')).toEqual(['192.0.2.20']);
  });

  it('a profile disabled and enabled again: every endpoint is CheckingEndpoint until fresh checks decide', async () => {
    await h.define([shop('Enabled', 'Disabled')]);
    h.clock.now += 30 * DAY;
    await h.heartbeat();
    await h.define([shop('Enabled', 'Enabled')]);
    expect(await statusOf('east')).toBe('CheckingEndpoint');
    expect(await statusOf('west')).toBe('CheckingEndpoint');
    expect((await h.deps.store.loadStatuses()).get('shop')?.report.status).toBe('CheckingEndpoints');

    h.clock.now += 10_000;
    await h.verdict('shop', 'west', 'up');
    await h.settle();
    expect(await statusOf('west')).toBe('Online');
    expect(await statusOf('east')).toBe('CheckingEndpoint');
  });

  it('a redeploy of unchanged definitions keeps the re-enable moment (fresh verdicts stay valid)', async () => {
    await h.define([shop('Disabled')]);
    h.clock.now += DAY;
    await h.heartbeat();
    await h.define([shop('Enabled')]);
    h.clock.now += 10_000;
    await h.verdict('shop', 'east', 'up');
    await h.settle();
    h.clock.now += DAY;
    await h.heartbeat();
    await h.define([shop('Enabled')]);
    expect(await statusOf('east')).toBe('Online');
  });
});
