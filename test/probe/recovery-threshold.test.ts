/**
 * monitorConfig.requiredSuccessesToRecover: a region that says down says up again only after
 * that many consecutive successful checks — with the consecutive-failure rule and the sample
 * window, across a worker restart, and per profile on a shared probe.
 */
import { describe, expect, it } from 'vitest';
import { expectedDuration } from '../../shared/evaluation/timing.js';
import { planProbes } from '../../shared/probe/plan.js';
import { monitorConfig } from '../support/profiles.js';
import { healthTimeline, shopDefinition } from './health-rules.harness.js';

describe('requiredSuccessesToRecover', () => {
  it('keeps a Degraded endpoint Degraded until the 3rd consecutive success, with the progress as reason', async () => {
    // Prepare: tolerated 1 → Degraded on the 2nd failure
    const sim = healthTimeline([
      shopDefinition('shop', { toleratedNumberOfFailures: 1, requiredSuccessesToRecover: 3 }),
    ]);
    await sim.rounds(2, 'shop');
    sim.serviceDown(true);
    const failing = await sim.rounds(2, 'shop');
    sim.serviceDown(false);
    // Act
    const recovering = await sim.rounds(4, 'shop');
    // Assess
    expect(failing.map((r) => r.status)).toEqual(['Online', 'Degraded']);
    expect(recovering.map((r) => r.status)).toEqual(['Degraded', 'Degraded', 'Online', 'Online']);
    expect(recovering[0]!.reason).toBe('1 of 3 successes needed to recover in 1/1 regions');
    expect(recovering[1]!.reason).toBe('2 of 3 successes needed to recover in 1/1 regions');
    expect(recovering[2]!.reason).toBe('up in 1/1 regions');
    expect(recovering[2]!.votes[0]!.detail).toBe('3 consecutive successes (3 needed to recover)');
    // The Degraded status keeps its start while recovery progresses.
    expect(recovering[1]!.since).toBe(failing[1]!.since);
  });

  it('starts counting again after a failed check during recovery', async () => {
    // Prepare
    const sim = healthTimeline([
      shopDefinition('shop', { toleratedNumberOfFailures: 0, requiredSuccessesToRecover: 2 }),
    ]);
    await sim.round();
    sim.serviceDown(true);
    await sim.round();
    // Act: success, failure, success, success
    sim.serviceDown(false);
    const first = await sim.round();
    sim.serviceDown(true);
    const failed = await sim.round();
    sim.serviceDown(false);
    const after = await sim.rounds(2, 'shop');
    // Assess
    expect([first.shop!.status, failed.shop!.status, ...after.map((r) => r.status)]).toEqual([
      'Degraded',
      'Degraded',
      'Degraded',
      'Online',
    ]);
    expect(failed.shop!.reason).toMatch(/^1 consecutive failure \(tolerated 0\): /);
  });

  it('with the sample window: up only when the window holds and the last 3 checks succeeded', async () => {
    // Prepare: 2 of 4 required; down once 3 of the last 4 failed
    const rule = { kind: 'sampleWindow', sampleSize: 4, successfulSamplesRequired: 2 };
    const sim = healthTimeline([
      shopDefinition('window', { healthRule: rule }),
      shopDefinition('strict', { healthRule: rule, requiredSuccessesToRecover: 3 }),
    ]);
    await sim.rounds(2, 'strict');
    sim.serviceDown(true);
    const failing = await sim.rounds(3, 'strict');
    sim.serviceDown(false);
    // Act
    const statuses: string[][] = [];
    for (let i = 0; i < 3; i++) {
      const reports = await sim.round();
      statuses.push([reports.window!.status, reports.strict!.status]);
    }
    // Assess: the window alone is up on the 2nd success; with the threshold on the 3rd
    expect(failing.map((r) => r.status)).toEqual(['Online', 'Online', 'Degraded']);
    expect(statuses).toEqual([
      ['Degraded', 'Degraded'],
      ['Online', 'Degraded'],
      ['Online', 'Online'],
    ]);
  });

  it('a restarted worker continues the count from the heartbeat checkpoint', async () => {
    // Prepare: down, then 2 of 3 successes
    const sim = healthTimeline([
      shopDefinition('shop', { toleratedNumberOfFailures: 0, requiredSuccessesToRecover: 3 }),
    ]);
    await sim.round();
    sim.serviceDown(true);
    await sim.round();
    sim.serviceDown(false);
    await sim.rounds(2, 'shop');
    const checkpoint = sim.store.heartbeats.get('us-east-1')!.checkpoint;
    // Act: a new worker on the same table takes the next check
    sim.restart('us-east-1');
    const next = await sim.round();
    // Assess
    expect(Object.values(checkpoint)).toEqual([{ kind: 'consecutiveFailures', failures: 0, successes: 2 }]);
    expect(next.shop!.status).toBe('Online');
  });

  it('two profiles sharing the target judge it by their own threshold from one probe per round', async () => {
    // Prepare
    const sim = healthTimeline([
      shopDefinition('azure', { toleratedNumberOfFailures: 0 }),
      shopDefinition('careful', { toleratedNumberOfFailures: 0, requiredSuccessesToRecover: 2 }),
    ]);
    const [probe] = planProbes(sim.profiles, 'us-east-1', []);
    await sim.round();
    sim.serviceDown(true);
    await sim.round();
    sim.serviceDown(false);
    const before = sim.script.calls();
    // Act
    const first = await sim.round();
    const second = await sim.round();
    // Assess
    expect(probe!.judges).toHaveLength(2);
    expect(sim.script.calls() - before).toBe(2);
    expect([first.azure!.status, first.careful!.status]).toEqual(['Online', 'Degraded']);
    expect([second.azure!.status, second.careful!.status]).toEqual(['Online', 'Online']);
  });

  it('at its default (1) judges exactly like Azure and shares the verdict key of a profile without it', () => {
    // Prepare
    const sim = healthTimeline([
      shopDefinition('plain', {}),
      shopDefinition('explicit', { requiredSuccessesToRecover: 1 }),
    ]);
    // Act
    const [probe] = planProbes(sim.profiles, 'us-east-1', []);
    // Assess
    expect(probe!.judges).toHaveLength(1);
    expect(probe!.judges[0]!.servedEndpoints.map((s) => s.profile)).toEqual(['plain', 'explicit']);
    expect(probe!.judges[0]).not.toHaveProperty('requiredSuccessesToRecover');
  });
});

describe('the operators formula for coming back', () => {
  it.each([
    { rule: undefined, formula: '3 × 30 s interval + 10 s timeout + 62 s publish + 30 s TTL = 192 s' },
    {
      rule: { kind: 'sampleWindow' as const, sampleSize: 4, successfulSamplesRequired: 2 },
      formula: '3 × 30 s interval + 10 s timeout + 62 s publish + 30 s TTL = 192 s',
    },
    {
      rule: { kind: 'sampleWindow' as const, sampleSize: 8, successfulSamplesRequired: 5 },
      formula: '5 × 30 s interval + 10 s timeout + 62 s publish + 30 s TTL = 252 s',
    },
  ])('counts requiredSuccessesToRecover checks (rule $rule.kind)', ({ rule, formula }) => {
    // Prepare
    const monitor = monitorConfig({
      intervalInSeconds: 30,
      timeoutInSeconds: 10,
      requiredSuccessesToRecover: 3,
      ...(rule === undefined ? {} : { healthRule: rule }),
    });
    // Act / Assess
    expect(expectedDuration(monitor, 30, 'recovering', { batchingWindowSeconds: 2 }).formula).toBe(formula);
  });
});
