/**
 * SPEC §3's failover timeline, with a fake clock: HTTP, interval 30 s, tolerated 3,
 * timeout 10 s. Each probe region applies the per-region rule to its checks and stores a
 * verdict only when it changes (plus a heartbeat per round); the evaluator turns the
 * stored verdicts into the endpoint monitor status after every round.
 */
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../shared/clock.js';
import { applyCheck, initialRuleState, type RuleState } from '../../shared/monitor/region-rule.js';
import { STALE_AFTER_HEARTBEATS } from '../../shared/monitor/staleness.js';
import type { HeartbeatItem, VerdictItem } from '../../shared/state/items.js';
import {
  evaluateProfiles,
  type EndpointStatusReport,
  type ProfileStatusReport,
} from '../../shared/status/evaluate.js';
import { external, heartbeat, monitor, profile, targetKey } from './evaluate-fixtures.js';

const INTERVAL_MS = 30_000;
const TIMEOUT_MS = 10_000;
const TOLERATED = 3;
const SUCCESS_LATENCY_MS = 120;
/** Probe regions heartbeat once per round here. */
const HEARTBEAT_PERIOD_MS = INTERVAL_MS;

type Outcome = 'ok' | 'fail' | 'silent';

class FakeClock implements Clock {
  private t = 0;
  now(): number {
    return this.t;
  }
  set(t: number): void {
    this.t = t;
  }
}

function failoverSimulation(regions: readonly string[]) {
  const shop = profile('shop', [external('east')], {
    probeRegions: regions,
    monitorConfig: {
      ...monitor,
      intervalInSeconds: 30,
      timeoutInSeconds: 10,
      toleratedNumberOfFailures: TOLERATED,
    },
  });
  const key = targetKey(shop, 'east');
  const clock = new FakeClock();
  const rules = new Map<string, RuleState>(
    regions.map((r) => [r, initialRuleState(shop.monitorConfig.healthRule)]),
  );
  const verdicts = new Map<string, VerdictItem>();
  const heartbeats = new Map<string, HeartbeatItem>();
  let previous = new Map<string, ProfileStatusReport>();
  let round = 0;

  /** One probe round in every region (outcome per region, or one for all), then one evaluation. */
  function nextRound(outcomes: Outcome | readonly Outcome[]): EndpointStatusReport {
    const start = round++ * INTERVAL_MS;
    regions.forEach((region, i) => {
      const outcome = typeof outcomes === 'string' ? outcomes : (outcomes[i] ?? 'silent');
      if (outcome === 'silent') return;
      const ok = outcome === 'ok';
      const at = start + (ok ? SUCCESS_LATENCY_MS : TIMEOUT_MS); // a failed check is known when it times out
      const decision = applyCheck(shop.monitorConfig.healthRule, TOLERATED, rules.get(region)!, ok);
      rules.set(region, decision.state);
      if (decision.changed && decision.verdict !== undefined) {
        verdicts.set(region, {
          targetKey: key,
          region,
          verdict: decision.verdict,
          since: at,
          checkedAt: at,
          detail: decision.detail,
        });
      }
      heartbeats.set(region, heartbeat(region, at, HEARTBEAT_PERIOD_MS));
    });
    clock.set(start + TIMEOUT_MS);
    return evaluate();
  }

  function evaluate(): EndpointStatusReport {
    const reports = evaluateProfiles({
      profiles: [shop],
      verdicts: [...verdicts.values()],
      heartbeats: [...heartbeats.values()],
      previous,
      defaultProbeRegions: [],
      now: clock.now(),
    });
    previous = new Map(reports.map((r) => [r.profile, r]));
    return reports[0]!.endpoints[0]!;
  }

  /** Lets time pass without any round (e.g. the service breaks between two checks). */
  function at(t: number): EndpointStatusReport {
    clock.set(t);
    return evaluate();
  }

  return { nextRound, at, roundStart: () => round * INTERVAL_MS };
}

const ONE_REGION = ['us-east-1'];
const THREE_REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-1'];

describe('failover timeline (SPEC §3: interval 30 s, tolerated 3, timeout 10 s)', () => {
  it('is Degraded exactly on the 4th consecutive failed check, stays Degraded while down, Online on the first success', () => {
    // Prepare
    const sim = failoverSimulation(ONE_REGION);
    const statuses: string[] = [];
    // Act: healthy for 3 rounds; the service goes down between two checks; …
    for (let i = 0; i < 3; i++) statuses.push(sim.nextRound('ok').status);
    const wentDownAt = sim.roundStart() - 15_000;
    const untilNextCheck = sim.at(sim.roundStart() - 1).status;
    const failing = [1, 2, 3, 4, 5, 6].map(() => sim.nextRound('fail'));
    const recovered = sim.nextRound('ok');
    // Assess
    expect(statuses).toEqual(['Online', 'Online', 'Online']);
    expect(untilNextCheck).toBe('Online'); // nothing is known until the next check
    expect(failing.map((r) => r.status)).toEqual([
      'Online',
      'Online',
      'Online',
      'Degraded',
      'Degraded',
      'Degraded',
    ]);
    expect(failing[3]?.reason).toBe('4 consecutive failures (tolerated 3) in 1/1 regions');
    expect(recovered.status).toBe('Online');
    // The 4th failure is known (tolerated + 1) × interval + timeout after the outage at worst.
    const degradedAt = failing[3]!.since;
    expect(degradedAt - wentDownAt).toBeLessThanOrEqual((TOLERATED + 1) * INTERVAL_MS + TIMEOUT_MS);
    expect(degradedAt).toBe(6 * INTERVAL_MS + TIMEOUT_MS);
  });

  it('stays Degraded after the service comes back, until the next check succeeds', () => {
    // Prepare
    const sim = failoverSimulation(ONE_REGION);
    sim.nextRound('ok');
    for (let i = 0; i < 4; i++) sim.nextRound('fail');
    // Act: the service is back shortly after a check; nothing is known until the next one
    const beforeNextCheck = sim.at(sim.roundStart() - 1);
    const nextCheck = sim.nextRound('ok');
    // Assess
    expect(beforeNextCheck.status).toBe('Degraded');
    expect(nextCheck.status).toBe('Online');
  });

  it('a success in between resets the count', () => {
    // Prepare
    const sim = failoverSimulation(ONE_REGION);
    sim.nextRound('ok');
    // Act
    const outcomes: Outcome[] = ['fail', 'fail', 'fail', 'ok', 'fail', 'fail', 'fail', 'fail'];
    const statuses = outcomes.map((o) => sim.nextRound(o).status);
    // Assess
    expect(statuses).toEqual([
      'Online',
      'Online',
      'Online',
      'Online',
      'Online',
      'Online',
      'Online',
      'Degraded',
    ]);
  });

  it('a new endpoint is CheckingEndpoint until its first decision', () => {
    // Prepare
    const sim = failoverSimulation(ONE_REGION);
    // Act
    const statuses = ['fail', 'fail', 'fail', 'fail'].map((o) => sim.nextRound(o as Outcome).status);
    // Assess
    expect(statuses).toEqual(['CheckingEndpoint', 'CheckingEndpoint', 'CheckingEndpoint', 'Degraded']);
  });

  it('with 3 regions: 1 region down keeps it Online, 2 down make it Degraded', () => {
    // Prepare
    const sim = failoverSimulation(THREE_REGIONS);
    sim.nextRound('ok');
    // Act: us-east-1 loses the endpoint (e.g. a regional network problem)
    const oneDown = [1, 2, 3, 4, 5].map(() => sim.nextRound(['fail', 'ok', 'ok']));
    const twoDown = [1, 2, 3, 4].map(() => sim.nextRound(['fail', 'fail', 'ok']));
    // Assess
    expect(oneDown.map((r) => r.status)).toEqual(['Online', 'Online', 'Online', 'Online', 'Online']);
    expect(oneDown[4]?.votes.map((v) => v.vote)).toEqual(['down', 'up', 'up']);
    expect(twoDown.map((r) => r.status)).toEqual(['Online', 'Online', 'Online', 'Degraded']);
    // Verdicts are stored on change only: each region's detail is that of its deciding check.
    expect(twoDown[3]?.reason).toBe('4 consecutive failures (tolerated 3) in 2/3 regions');
  });

  it('a region going silent stops voting after the staleness window', () => {
    // Prepare: Degraded by two of three regions
    const sim = failoverSimulation(THREE_REGIONS);
    sim.nextRound('ok');
    for (let i = 0; i < 4; i++) sim.nextRound(['fail', 'fail', 'ok']);
    // Act: eu-west-1 goes silent; the other two keep probing (one down, one up)
    const window = STALE_AFTER_HEARTBEATS * HEARTBEAT_PERIOD_MS;
    const rounds = window / INTERVAL_MS + 1;
    const whileSilent = Array.from({ length: rounds }, () => sim.nextRound(['fail', 'silent', 'ok']));
    // Assess: eu-west-1 votes while its last heartbeat is within the window, then 1 of 2 up = healthy
    expect(whileSilent.map((r) => r.status)).toEqual([...Array(rounds - 1).fill('Degraded'), 'Online']);
    expect(whileSilent.at(-1)?.votes.map((v) => v.vote)).toEqual(['down', 'stale', 'up']);
  });

  it.each([
    { name: 'Online is kept and flagged stale', last: 'ok' as Outcome, kept: 'Online' },
    { name: 'Degraded is kept and flagged stale', last: 'fail' as Outcome, kept: 'Degraded' },
  ])('all regions silent → the last status is kept: $name', ({ last, kept }) => {
    // Prepare
    const sim = failoverSimulation(THREE_REGIONS);
    for (let i = 0; i < 4; i++) sim.nextRound(last);
    const lastStatus = sim.nextRound(last);
    // Act: the whole probe fleet stops for ten minutes, then comes back
    const silent = Array.from({ length: 20 }, () => sim.nextRound('silent'));
    const back = sim.nextRound(last);
    // Assess
    expect(lastStatus).toMatchObject({ status: kept, stale: false });
    expect(silent.every((r) => r.status === kept)).toBe(true);
    expect(silent.at(-1)).toMatchObject({ status: kept, stale: true, since: lastStatus.since });
    expect(back).toMatchObject({ status: kept, stale: false, since: lastStatus.since });
  });
});
