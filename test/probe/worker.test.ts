import { describe, expect, it } from 'vitest';
import { MemoryProbeStateStore } from '../../functions/probe/memory-state-store.js';
import { createProbeWorker, type ProbeWorkerOptions } from '../../functions/probe/worker.js';
import { fakeClock, noSleep, planned, scriptedProber } from './worker.fixtures.js';

const REGION = 'us-east-1';
const ROUND = 10_000;
const quiet = { warn: () => undefined };

function setup(overrides: Partial<ProbeWorkerOptions> = {}, store = new MemoryProbeStateStore()) {
  const clock = fakeClock();
  const script = scriptedProber(clock);
  const worker = createProbeWorker({
    region: REGION,
    store,
    prober: script.prober,
    clock,
    sleep: noSleep,
    logger: quiet,
    ...overrides,
  });
  let dueAt = Math.ceil(clock.now() / ROUND) * ROUND;
  const round = async () => {
    clock.set(dueAt);
    const report = await worker.runRound(dueAt, ROUND);
    dueAt += ROUND;
    return report;
  };
  return { clock, script, worker, store, round };
}

describe('probe worker: from checks to the region verdict (SPEC §3)', () => {
  it('tolerated 3: the fourth consecutive failure turns the region down, written in that round; one success turns it up', async () => {
    // Prepare
    const { worker, script, store, round } = setup();
    worker.setTargets([planned('t', { toleratedNumberOfFailures: 3 })]);
    await round();
    script.down.add('t');
    // Act
    const verdicts = [];
    for (let i = 0; i < 4; i++) verdicts.push((await round()).changes.map((c) => c.verdict));
    // Assess
    expect(verdicts).toEqual([[], [], [], ['down']]);
    expect(store.verdicts.get(`t\u0000${REGION}`)).toMatchObject({ verdict: 'down', reason: 'timeout' });
    expect(store.verdicts.get(`t\u0000${REGION}`)?.detail).toMatch(/^4 consecutive failures \(tolerated 3\)/);
    // Act: the service comes back
    script.down.delete('t');
    const back = await round();
    // Assess
    expect(back.changes.map((c) => c.verdict)).toEqual(['up']);
    expect(store.verdicts.get(`t\u0000${REGION}`)?.verdict).toBe('up');
  });

  it('the verdict carries when its run began: the first of the failing checks for down, the first success for up', async () => {
    // Prepare
    const { worker, script, store, clock, round } = setup();
    worker.setTargets([planned('t', { toleratedNumberOfFailures: 2 })]);
    await round();
    script.down.add('t');
    await round(); // a failure, then a success resets the run
    script.down.delete('t');
    await round();
    script.down.add('t');
    // Act
    const firstFailure = (await round()).dueAt;
    await round();
    const decided = await round();
    // Assess
    expect(decided.changes.map((c) => c.verdict)).toEqual(['down']);
    expect(store.verdicts.get(`t\u0000${REGION}`)).toMatchObject({
      verdict: 'down',
      runStartedAt: firstFailure,
      checkedAt: clock.now(),
    });
    // Act: recovery is decided by its first success
    script.down.delete('t');
    const back = await round();
    // Assess
    expect(store.verdicts.get(`t\u0000${REGION}`)).toMatchObject({ verdict: 'up', runStartedAt: back.dueAt });
  });

  it('a success in between resets the count', async () => {
    const { worker, script, round } = setup();
    worker.setTargets([planned('t', { toleratedNumberOfFailures: 1 })]);
    script.down.add('t');
    await round();
    script.down.delete('t');
    await round();
    script.down.add('t');
    const report = await round();
    expect(report.changes).toEqual([]);
    expect(worker.ruleState('t')).toMatchObject({ failures: 1, verdict: 'up' });
  });

  it('the first decision is written: a first success writes "up" at once', async () => {
    const { worker, store, round } = setup();
    worker.setTargets([planned('t')]);
    const report = await round();
    expect(report.verdictWrites).toBe(1);
    expect(store.verdicts.get(`t\u0000${REGION}`)).toMatchObject({
      verdict: 'up',
      detail: 'check succeeded',
      latencyMs: 3,
    });
  });

  it('an undecided failing count is kept in the heartbeat checkpoint, not in a verdict', async () => {
    const { worker, script, store, round } = setup();
    worker.setTargets([planned('t', { toleratedNumberOfFailures: 2 })]);
    script.down.add('t');
    const first = await round();
    const second = await round();
    expect(first.verdictWrites + second.verdictWrites).toBe(0);
    expect(second.heartbeatWritten).toBe(true);
    expect(store.heartbeats.get(REGION)?.checkpoint).toEqual({
      t: { kind: 'consecutiveFailures', failures: 2, runStartedAt: first.dueAt },
    });
  });
});

describe('probe worker: writes scale with change, not with targets', () => {
  it('a healthy quiet fleet writes one heartbeat per heartbeat period after its first decisions', async () => {
    // Prepare: 100 targets, 10 minutes of 10 s rounds
    const { worker, store, round } = setup();
    worker.setTargets(Array.from({ length: 100 }, (_, i) => planned(`t${i}`)));
    await round();
    const afterFirst = store.writes;
    // Act
    for (let i = 0; i < 60; i++) await round();
    // Assess: 100 first verdicts + 1 heartbeat, then 10 heartbeats in 10 minutes
    expect(afterFirst).toBe(101);
    expect(store.writes - afterFirst).toBe(10);
    expect(store.heartbeats.get(REGION)).toMatchObject({ targets: 100, periodMs: 60_000, checkpoint: {} });
  });

  it('certificates ride on the heartbeat: no write per check, one early heartbeat in the round a certificate changes', async () => {
    // Prepare: 100 HTTPS targets presenting certificates, 10 minutes of 10 s rounds
    const { worker, script, store, round } = setup();
    const certificate = (key: string, notAfter: number) => ({ notAfter, subject: key, issuer: 'R11' });
    for (let i = 0; i < 100; i++) script.certificates.set(`t${i}`, certificate(`t${i}`, 1_000));
    worker.setTargets(Array.from({ length: 100 }, (_, i) => planned(`t${i}`)));
    await round();
    const afterFirst = store.writes;
    // Act
    for (let i = 0; i < 60; i++) await round();
    // Assess: as without certificates — 10 heartbeats in 10 minutes, each carrying all of them
    expect(afterFirst).toBe(101);
    expect(store.writes - afterFirst).toBe(10);
    expect(Object.keys(store.heartbeats.get(REGION)?.certificates ?? {})).toHaveLength(100);
    // Act: one certificate is renewed, early in a heartbeat period
    script.certificates.set('t7', certificate('t7', 2_000));
    await round();
    const renewed = await round();
    // Assess: the round that saw it wrote the heartbeat, with it; the next did not
    expect(store.heartbeats.get(REGION)?.certificates?.t7).toEqual([2_000, 't7', 'R11']);
    expect(renewed.heartbeatWritten).toBe(false);
  });

  it('a target that stays down stops changing the checkpoint (the count is capped at tolerated+1)', async () => {
    const { worker, script, store, round } = setup();
    worker.setTargets([planned('t', { toleratedNumberOfFailures: 2 })]);
    await round();
    script.down.add('t');
    for (let i = 0; i < 3; i++) await round();
    const writesWhenDown = store.writes;
    for (let i = 0; i < 5; i++) await round(); // 50 s: inside one heartbeat period
    expect(store.writes).toBe(writesWhenDown);
    expect(worker.ruleState('t')).toMatchObject({ failures: 3, verdict: 'down' });
  });

  it('a 30 s target is checked once every three 10 s rounds', async () => {
    const { worker, script, round } = setup();
    worker.setTargets([planned('slow', { intervalMs: 30_000, offsetMs: 12_000 })]);
    for (let i = 0; i < 9; i++) await round();
    expect(script.calls()).toBe(3);
  });
});

describe('probe worker: failures of the store and restarts', () => {
  it('a verdict write that fails is kept and lands in the next round; the heartbeat waits for it', async () => {
    // Prepare
    const store = new MemoryProbeStateStore();
    const put = store.putVerdict.bind(store);
    let failures = 1;
    store.putVerdict = async (item) => {
      if (failures-- > 0) throw new Error('ProvisionedThroughputExceededException');
      return put(item);
    };
    const { worker, round } = setup({}, store);
    const pendingAtHeartbeat: number[] = [];
    const putHeartbeat = store.putHeartbeat.bind(store);
    store.putHeartbeat = async (item) => {
      pendingAtHeartbeat.push(worker.pendingWrites());
      return putHeartbeat(item);
    };
    worker.setTargets([planned('t')]);
    // Act
    const first = await round();
    const second = await round();
    // Assess
    expect(first).toMatchObject({ verdictWrites: 0, pendingWrites: 1 });
    expect(second).toMatchObject({ verdictWrites: 1, pendingWrites: 0 });
    // The worker announced itself before its first verdict; no heartbeat went out while one was pending.
    expect(pendingAtHeartbeat.length).toBeGreaterThan(0);
    expect(pendingAtHeartbeat.every((pending) => pending === 0)).toBe(true);
    expect(store.verdicts.get(`t\u0000${REGION}`)?.verdict).toBe('up');
  });

  it('a replaced worker continues the counts: 2 failures in A, the 1st in B makes 3 → down (tolerated 2)', async () => {
    // Prepare
    const store = new MemoryProbeStateStore();
    const a = setup({}, store);
    a.worker.setTargets([planned('t', { toleratedNumberOfFailures: 2 })]);
    await a.round();
    a.script.down.add('t');
    await a.round();
    await a.round();
    // Act
    const b = setup({}, store);
    b.worker.setTargets([planned('t', { toleratedNumberOfFailures: 2 })]);
    b.script.down.add('t');
    const report = await b.round();
    // Assess
    expect(report.changes.map((c) => c.verdict)).toEqual(['down']);
    expect(report.changes[0]?.detail).toMatch(/^3 consecutive failures/);
  });

  it('a replaced worker reports the run start it continues from (kept in the checkpoint)', async () => {
    // Prepare
    const store = new MemoryProbeStateStore();
    const a = setup({}, store);
    a.worker.setTargets([planned('t', { toleratedNumberOfFailures: 2 })]);
    await a.round();
    a.script.down.add('t');
    const firstFailure = (await a.round()).dueAt;
    await a.round();
    // Act
    const b = setup({}, store);
    b.worker.setTargets([planned('t', { toleratedNumberOfFailures: 2 })]);
    b.script.down.add('t');
    const report = await b.round();
    // Assess
    expect(report.changes).toMatchObject([{ verdict: 'down', runStartedAt: firstFailure }]);
  });

  it('a replaced worker of a target already down does not rewrite the verdict', async () => {
    const store = new MemoryProbeStateStore();
    const a = setup({}, store);
    a.worker.setTargets([planned('t', { toleratedNumberOfFailures: 0 })]);
    a.script.down.add('t');
    await a.round();
    const b = setup({}, store);
    b.worker.setTargets([planned('t', { toleratedNumberOfFailures: 0 })]);
    b.script.down.add('t');
    expect((await b.round()).changes).toEqual([]);
  });

  it('when the restore read fails the round is skipped and the next round restores', async () => {
    const store = new MemoryProbeStateStore();
    const load = store.loadHeartbeats.bind(store);
    let failures = 1;
    store.loadHeartbeats = async (region: string) => {
      if (failures-- > 0) throw new Error('network');
      return load(region);
    };
    const { worker, script, round } = setup({}, store);
    worker.setTargets([planned('t')]);
    expect(await round()).toMatchObject({ restoreFailed: true, probed: 0 });
    expect(await round()).toMatchObject({ restoreFailed: false, probed: 1 });
    expect(script.calls()).toBe(1);
  });
});

describe('probe worker: time scale, spreading and concurrency', () => {
  it('interval spread: a target that hangs to its timeout is still checked every round (its check ends before its next start)', async () => {
    // Prepare: real timers at 1/50 scale: 200 ms rounds, 100 ms timeout, the target at 60 % of the
    // round, so its check runs past the next round's start (but ends 100 ms before its own next check)
    const scale = 0.02;
    const clock = { now: () => Date.now() };
    const worker = createProbeWorker({
      region: REGION,
      store: new MemoryProbeStateStore(),
      clock,
      logger: quiet,
      timeScale: scale,
      prober: (request, timeoutMs) =>
        new Promise((resolve) =>
          setTimeout(
            () =>
              resolve({
                answered: false,
                reason: 'timeout',
                detail: 'no answer',
                startedAt: Date.now() - timeoutMs,
                durationMs: timeoutMs,
                timeoutMs,
                timings: {},
                latencyMs: undefined,
              }),
            timeoutMs,
          ),
        ),
    });
    worker.setTargets([
      planned('hangs', { timeoutMs: 5_000, offsetMs: 6_000, toleratedNumberOfFailures: 9 }),
    ]);
    const period = worker.roundPeriodMs();
    const first = Math.ceil(Date.now() / period) * period + period;
    // Act: 8 rounds, each started at its due time as the round timer does (rounds overlap)
    const rounds = [];
    for (let i = 0; i < 8; i++) {
      const dueAt = first + i * period;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, dueAt - Date.now())));
      rounds.push(worker.runRound(dueAt, period));
    }
    const reports = await Promise.all(rounds);
    // Assess
    expect(reports.map((r) => r.skipped)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(reports.map((r) => r.probed)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('the time scale multiplies the timeout the prober gets and the heartbeat period', async () => {
    const clock = fakeClock();
    const script = scriptedProber(clock);
    const store = new MemoryProbeStateStore();
    const worker = createProbeWorker({
      region: REGION,
      store,
      clock,
      sleep: noSleep,
      logger: quiet,
      timeScale: 0.1,
      prober: script.prober,
    });
    worker.setTargets([planned('t', { timeoutMs: 9_000, intervalMs: 10_000 })]);
    await worker.runRound(clock.now());
    expect(script.timeouts).toEqual([900]);
    expect(worker.roundPeriodMs()).toBe(1_000);
    expect(store.heartbeats.get(REGION)?.periodMs).toBe(6_000);
  });

  it('probes start at their offset inside the round, not all at its start', async () => {
    const delays: number[] = [];
    const { worker, round } = setup({ sleep: async (ms) => void delays.push(ms) });
    worker.setTargets([0, 2_500, 5_000, 7_500].map((offsetMs, i) => planned(`t${i}`, { offsetMs })));
    await round();
    expect(delays.sort((x, y) => x - y)).toEqual([2_500, 5_000, 7_500]);
  });

  it('no more probes are in flight than the concurrency limit', async () => {
    const clock = fakeClock();
    let active = 0;
    let peak = 0;
    const worker = createProbeWorker({
      region: REGION,
      store: new MemoryProbeStateStore(),
      clock,
      sleep: noSleep,
      logger: quiet,
      concurrency: 3,
      prober: async (request, timeoutMs) => {
        peak = Math.max(peak, ++active);
        await new Promise((resolve) => setImmediate(resolve));
        active--;
        return {
          answered: true,
          startedAt: clock.now(),
          durationMs: 1,
          timeoutMs,
          timings: {},
          latencyMs: 1,
        };
      },
    });
    worker.setTargets(Array.from({ length: 20 }, (_, i) => planned(`t${i}`)));
    const report = await worker.runRound(clock.now(), ROUND);
    expect(report.probed).toBe(20);
    expect(peak).toBe(3);
  });
});
