/**
 * monitorConfig.expectedBody: a 200 whose first 64 KiB of body lack the expected substring or
 * regular expression is a failed check with reason `body` — on the timeline with a fake clock,
 * per profile on a shared probe, and with the real HTTP prober against a loopback server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeHttp } from '../../functions/probe/probers/http.js';
import { judgeObservation } from '../../shared/probe/judge.js';
import { planProbes } from '../../shared/probe/plan.js';
import type { PlannedProbe } from '../../shared/probe/target.js';
import { parseDefinitionsOrThrow } from '../support/parse-definitions.js';
import { MAINTENANCE_PAGE, startHttpServer, type TestHttpServer } from '../support/servers.js';
import { healthTimeline, shopDefinition } from './health-rules.harness.js';

describe('expectedBody on the timeline', () => {
  it('a maintenance page (200) fails with reason body: Degraded on the (tolerated+1)-th such check, Online on the first good body', async () => {
    // Prepare: tolerated 1
    const sim = healthTimeline([
      shopDefinition('shop', { toleratedNumberOfFailures: 1, expectedBody: 'OK' }),
    ]);
    sim.serviceBody('status: OK');
    const healthy = await sim.rounds(2, 'shop');
    // Act: the service answers 200 with a maintenance page, then with its status again
    sim.serviceBody(MAINTENANCE_PAGE);
    const maintenance = await sim.rounds(3, 'shop');
    sim.serviceBody('status: OK');
    const back = await sim.round();
    // Assess
    expect(healthy.map((r) => r.status)).toEqual(['Online', 'Online']);
    expect(maintenance.map((r) => r.status)).toEqual(['Online', 'Degraded', 'Degraded']);
    expect(maintenance[1]!.reason).toBe(
      `2 consecutive failures (tolerated 1): body: "OK" not found in the ${MAINTENANCE_PAGE.length} bytes of the body in 1/1 regions`,
    );
    expect(back.shop!.status).toBe('Online');
  });

  it('judges one shared probe per profile: only the profile with an expectedBody fails on the page', async () => {
    // Prepare
    const sim = healthTimeline([
      shopDefinition('relaxed', { toleratedNumberOfFailures: 0 }),
      shopDefinition('strict', {
        toleratedNumberOfFailures: 0,
        expectedBody: { regex: '^status: ok$', flags: 'im' },
      }),
    ]);
    sim.serviceBody('build 42\nSTATUS: OK\n');
    const first = await sim.round();
    const before = sim.script.calls();
    // Act
    sim.serviceBody(MAINTENANCE_PAGE);
    const reports = await sim.round();
    // Assess: one probe, kept body, two verdicts
    const [probe] = planProbes(sim.profiles, 'us-east-1', []);
    expect(planProbes(sim.profiles, 'us-east-1', [])).toHaveLength(1);
    expect(probe!.keepsBody).toBe(true);
    expect(sim.script.calls() - before).toBe(1);
    expect(first.strict!.status).toBe('Online');
    expect(reports.relaxed!.status).toBe('Online');
    expect(reports.strict!.status).toBe('Degraded');
    expect(reports.strict!.votes[0]!.detail).toBe(
      `1 consecutive failure (tolerated 0): body: /^status: ok$/im not found in the ${MAINTENANCE_PAGE.length} bytes of the body`,
    );
  });

  it('keeps no body when no profile of the probe has an expectedBody', () => {
    // Act
    const sim = healthTimeline([shopDefinition('plain', {})]);
    // Assess
    expect(planProbes(sim.profiles, 'us-east-1', [])[0]).not.toHaveProperty('keepsBody');
  });
});

describe('expectedBody with the real HTTP prober on loopback', () => {
  let server: TestHttpServer;
  beforeAll(async () => {
    server = await startHttpServer();
  });
  afterAll(async () => {
    await server.close();
  });

  function plannedFor(path: string, expectedBody: unknown): PlannedProbe {
    const profiles = parseDefinitionsOrThrow([
      {
        name: 'shop',
        trafficRoutingMethod: 'Priority',
        dnsConfig: { zoneName: 'example.com', relativeName: 'shop' },
        monitorConfig: { protocol: 'HTTP', port: server.port, path, timeoutInSeconds: 5, expectedBody },
        endpoints: [{ name: 'east', target: '127.0.0.1' }],
      },
    ]);
    return planProbes(profiles, 'us-east-1', ['us-east-1'])[0]!;
  }

  async function check(path: string, expectedBody: unknown, prober = probeHttp) {
    const probe = plannedFor(path, expectedBody);
    const observation = await prober(probe, 5_000);
    return { observation, result: judgeObservation(observation, probe.judges[0]!) };
  }

  it('a maintenance page fails with reason body', async () => {
    // Act
    const { observation, result } = await check('/maintenance', 'ok');
    // Assess
    expect(observation).toMatchObject({ answered: true, statusCode: 200 });
    expect(result).toMatchObject({
      ok: false,
      reason: 'body',
      detail: `body: "ok" not found in the ${MAINTENANCE_PAGE.length} bytes of the body`,
    });
  });

  it('a matching regular expression succeeds', async () => {
    // Act
    const { result } = await check('/maintenance', { regex: '<h1>down for \\w+</h1>', flags: 'i' });
    // Assess
    expect(result.ok).toBe(true);
  });

  it('matches only the first 64 KiB of a longer body, and reads no further', async () => {
    // Act: /endless sends 'a' forever
    const { observation, result } = await check('/endless', 'b');
    // Assess
    expect(observation.answered && observation.body).toMatchObject({ bytes: 65_536, capped: true });
    expect(result).toMatchObject({
      ok: false,
      reason: 'body',
      detail: 'body: "b" not found in the first 65,536 bytes',
    });
  });

  it('without an expectedBody the observation holds no body', async () => {
    // Prepare
    const profiles = parseDefinitionsOrThrow([
      {
        name: 'shop',
        trafficRoutingMethod: 'Priority',
        dnsConfig: { zoneName: 'example.com', relativeName: 'shop' },
        monitorConfig: { protocol: 'HTTP', port: server.port, path: '/maintenance' },
        endpoints: [{ name: 'east', target: '127.0.0.1' }],
      },
    ]);
    // Act
    const observation = await probeHttp(planProbes(profiles, 'us-east-1', ['us-east-1'])[0]!, 5_000);
    // Assess
    expect(observation.answered).toBe(true);
    expect(observation).not.toHaveProperty('body');
  });
});
