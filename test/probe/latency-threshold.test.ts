/**
 * monitorConfig.maxLatencyMs: a check answered later than this (to the last byte) is a failed
 * check with reason `slow` — through the worker and evaluation with a fake clock, per profile
 * on a shared probe, and measured by the real HTTP prober against a loopback server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeHttp } from '../../functions/probe/probers/http.js';
import { judgeObservation } from '../../shared/probe/judge.js';
import { planProbes } from '../../shared/probe/plan.js';
import { probeJudgingOf, probeRequestOf } from '../../shared/probe/target.js';
import { parseDefinitionsOrThrow } from '../support/parse-definitions.js';
import type { ExternalEndpoint } from '../../shared/profile/types.js';
import { healthTimeline, shopDefinition } from './health-rules.harness.js';

describe('maxLatencyMs on the timeline', () => {
  it('counts slow answers as failures: Degraded exactly on the (tolerated+1)-th slow check, Online on the first fast one', async () => {
    // Prepare: tolerated 1, answers within 500 ms required
    const sim = healthTimeline([shopDefinition('shop', { toleratedNumberOfFailures: 1, maxLatencyMs: 500 })]);
    const healthy = await sim.rounds(2, 'shop');
    // Act: the service slows down to 812 ms (still 200), then speeds up again
    sim.serviceLatency(812);
    const slow = await sim.rounds(3, 'shop');
    sim.serviceLatency(499);
    const fast = await sim.round();
    // Assess
    expect(healthy.map((r) => r.status)).toEqual(['Online', 'Online']);
    expect(slow.map((r) => r.status)).toEqual(['Online', 'Degraded', 'Degraded']);
    expect(slow[1]!.reason).toBe(
      '2 consecutive failures (tolerated 1): slow: 812 ms > 500 ms in 1/1 regions',
    );
    expect(fast.shop!.status).toBe('Online');
    const stored = [...sim.store.verdicts.values()][0]!;
    expect(stored.verdict).toBe('up');
  });

  it('judges one shared probe per profile: only the profile with the limit sees it slow', async () => {
    // Prepare
    const sim = healthTimeline([
      shopDefinition('relaxed', { toleratedNumberOfFailures: 0 }),
      shopDefinition('strict', { toleratedNumberOfFailures: 0, maxLatencyMs: 200 }),
    ]);
    await sim.round();
    const before = sim.script.calls();
    // Act
    sim.serviceLatency(300);
    const reports = await sim.round();
    // Assess
    expect(planProbes(sim.profiles, 'us-east-1', [])).toHaveLength(1);
    expect(sim.script.calls() - before).toBe(1);
    expect(reports.relaxed!.status).toBe('Online');
    expect(reports.strict!.status).toBe('Degraded');
    expect(reports.strict!.votes[0]!.detail).toBe(
      '1 consecutive failure (tolerated 0): slow: 300 ms > 200 ms',
    );
  });
});

describe('maxLatencyMs with the real HTTP prober', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    // Headers at once, the body 300 ms later: the latency runs to the last byte.
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('partial ');
      setTimeout(() => response.end('done'), 300);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('a 200 whose body ends after the limit fails with reason slow', async () => {
    // Prepare
    const [profile] = parseDefinitionsOrThrow([
      {
        name: 'shop',
        trafficRoutingMethod: 'Priority',
        dnsConfig: { zoneName: 'example.com', relativeName: 'shop' },
        monitorConfig: { protocol: 'HTTP', port, path: '/health', timeoutInSeconds: 5, maxLatencyMs: 150 },
        endpoints: [{ name: 'east', target: '127.0.0.1' }],
      },
    ]);
    const endpoint = profile!.endpoints[0] as ExternalEndpoint;
    // Act
    const observation = await probeHttp(probeRequestOf(profile!, endpoint), 5_000);
    const result = judgeObservation(observation, probeJudgingOf(profile!));
    // Assess
    expect(observation.answered).toBe(true);
    expect(observation.timings.firstByte).toBeLessThan(observation.latencyMs!);
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.reason).toBe('slow');
    expect(result.ok === false && result.detail).toMatch(/^slow: \d+ ms > 150 ms$/);
    expect(observation.latencyMs).toBeGreaterThanOrEqual(290);
  });
});
