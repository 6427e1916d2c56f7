/**
 * One request shared by a 10 s and a 30 s profile, with a fake clock: the request is sent
 * once per 10 s round, and each profile's rule counts only the checks of its own cadence
 * and judges each by its own timeout (SPEC §3 timeline and §7 dedup, both at once).
 */
import { describe, expect, it, vi } from 'vitest';
import { MemoryProbeStateStore } from '../support/memory-probe-state-store.js';
import { createProbeWorker } from '../../functions/probe/worker.js';
import { isDueInRound } from '../../shared/probe/round-schedule.js';
import type { ProbeObservation } from '../../shared/probe/result.js';
import type { PlannedJudge } from '../../shared/probe/target.js';
import { fakeClock, noSleep, scriptedProber, shared } from './worker.fixtures.js';

const REGION = 'us-east-1';
const ROUND = 10_000;
const TOLERATED = 3;
const quiet = { warn: () => undefined };

function judge(key: string, intervalMs: number, timeoutMs: number): PlannedJudge {
  return {
    key,
    intervalMs,
    timeoutMs,
    expectedStatusCodeRanges: [{ min: 200, max: 200 }],
    healthRule: { kind: 'consecutiveFailures' },
    toleratedNumberOfFailures: TOLERATED,
    servedEndpoints: [{ profile: key, endpoint: 'shared' }],
  };
}

function setup(offsetMs: number) {
  const clock = fakeClock(0);
  const script = scriptedProber(clock);
  const store = new MemoryProbeStateStore();
  const worker = createProbeWorker({
    region: REGION,
    store,
    prober: script.prober,
    clock,
    sleep: noSleep,
    logger: quiet,
  });
  const fast = judge('fast', 10_000, 9_000);
  const slow = judge('slow', 30_000, 10_000);
  const probe = shared('api', [fast, slow], { offsetMs });
  worker.setTargets([probe]);
  let dueAt = 0;
  const round = async () => {
    clock.set(dueAt);
    const report = await worker.runRound(dueAt, ROUND);
    dueAt += ROUND;
    return report;
  };
  const slowDue = (at: number) => isDueInRound({ intervalMs: 30_000, offsetMs }, at, ROUND);
  return { clock, script, store, worker, round, slowDue, fast, slow };
}

describe('a request shared by a 10 s and a 30 s profile', () => {
  it.each([{ offsetMs: 1_000 }, { offsetMs: 14_000 }, { offsetMs: 27_500 }])(
    'each judge is Degraded on exactly its own 4th failed check (offset $offsetMs ms)',
    async ({ offsetMs }) => {
      // Prepare: healthy for 3 rounds, then the service goes down
      const { script, round, slowDue } = setup(offsetMs);
      for (let i = 0; i < 3; i++) await round();
      script.down.add('api');
      // Act: 15 rounds (150 s) while down
      const failedChecks = { fast: 0, slow: 0 };
      const downAtCheck: Record<string, number> = {};
      const downAtTime: Record<string, number> = {};
      const firstFailure: Record<string, number> = {};
      for (let i = 0; i < 15; i++) {
        const dueAt = (3 + i) * ROUND;
        const checks = slowDue(dueAt) ? ['fast', 'slow'] : ['fast'];
        const report = await round();
        for (const key of checks as ('fast' | 'slow')[]) {
          failedChecks[key]++;
          firstFailure[key] ??= dueAt;
        }
        for (const change of report.changes) {
          downAtCheck[change.judge.key] = failedChecks[change.judge.key as 'fast' | 'slow'];
          downAtTime[change.judge.key] = change.result.startedAt;
        }
      }
      // Assess: one request per round (shared), each judge down on its (tolerated+1)-th own check
      expect(script.calls()).toBe(18);
      expect(downAtCheck).toEqual({ fast: TOLERATED + 1, slow: TOLERATED + 1 });
      expect(downAtTime.fast! - firstFailure.fast!).toBe(TOLERATED * 10_000);
      expect(downAtTime.slow! - firstFailure.slow!).toBe(TOLERATED * 30_000);
    },
  );

  it("the probe runs with the longest due judge's timeout: 10 s in the 30 s judge's rounds, 9 s in the others", async () => {
    const { script, round, slowDue } = setup(14_000);
    const expected: number[] = [];
    for (let i = 0; i < 6; i++) {
      expected.push(slowDue(i * ROUND) ? 10_000 : 9_000);
      await round();
    }
    expect(script.timeouts).toEqual(expected);
    expect(expected.filter((t) => t === 10_000)).toHaveLength(2);
  });

  it('each judge applies its own timeout to the shared answer: 9.5 s fails the 9 s judge, passes the 10 s judge', async () => {
    // Prepare: a round where both judges are due
    const { script, round, slowDue, worker } = setup(0);
    script.durations.set('api', 9_500);
    // Act
    const reports = [];
    for (let i = 0; i < 6; i++) reports.push(await round());
    // Assess
    expect(slowDue(0)).toBe(true);
    expect(worker.ruleState('fast')).toMatchObject({ failures: TOLERATED + 1, verdict: 'down' });
    expect(worker.ruleState('slow')).toMatchObject({ failures: 0, verdict: 'up' });
    const fastDown = reports
      .flatMap((r) => r.changes)
      .find((c) => c.judge.key === 'fast' && c.verdict === 'down');
    expect(fastDown?.detail).toBe('4 consecutive failures (tolerated 3): no answer within 9000 ms');
  });

  it('the checkpoint and the verdicts are per judge', async () => {
    const { script, round, store } = setup(0);
    await round();
    script.down.add('api');
    await round();
    // The failing run started with the second round's check (what firstFailedCheckAt reports).
    expect(store.heartbeats.get(REGION)?.checkpoint).toEqual({
      fast: { kind: 'consecutiveFailures', failures: 1, runStartedAt: ROUND },
    });
    expect([...store.verdicts.keys()].sort()).toEqual([`fast\u0000${REGION}`, `slow\u0000${REGION}`]);
  });

  it('a judge with a shorter timeout is judged at its own deadline, while the probe still waits for the longer one', async () => {
    // Prepare: a probe whose answer the test releases; the 10 s judge times out (real timers) at its 9 s
    const clock = { now: () => Date.now() };
    let release: (observation: ProbeObservation) => void = () => undefined;
    const worker = createProbeWorker({
      region: REGION,
      store: new MemoryProbeStateStore(),
      clock,
      logger: quiet,
      timeScale: 0.01,
      prober: () => new Promise<ProbeObservation>((resolve) => (release = resolve)),
    });
    worker.setTargets([
      shared('api', [judge('fast', 10_000, 9_000), judge('slow', 30_000, 10_000)], { offsetMs: 0 }),
    ]);
    const dueAt = 0; // round 0: the slow judge's slot for offset 0
    // Act
    const round = worker.runRound(dueAt, 100);
    await vi.waitFor(() => expect(worker.ruleState('fast')).toMatchObject({ failures: 1 }), {
      timeout: 5_000,
    });
    // Assess: the fast judge has its timeout while the probe (and so the slow judge) still waits
    expect(worker.ruleState('slow')).toMatchObject({ failures: 0, verdict: undefined });
    release({
      answered: false,
      reason: 'timeout',
      detail: 'no answer within 100 ms, waiting for the response headers',
      startedAt: Date.now() - 100,
      durationMs: 100,
      timeoutMs: 100,
      timings: {},
      latencyMs: undefined,
    });
    const report = await round;
    expect(report).toMatchObject({ probed: 1, judged: 2, skipped: 0 });
    expect(worker.ruleState('slow')).toMatchObject({ failures: 1 });
    expect(worker.ruleState('fast')).toMatchObject({ failures: 1 });
  });
});
