import { describe, expect, it, vi } from 'vitest';
import { MemoryProbeStateStore } from '../support/memory-probe-state-store.js';
import { createProbeWorker, type ProbeWorkerOptions } from '../../functions/probe/worker.js';
import { isInShard } from '../../shared/probe/shards.js';
import type { Prober } from '../../shared/probe/target.js';
import { answered, fakeClock, noSleep, planned, scriptedProber, shared } from './worker.fixtures.js';

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
    // Assess: 100 first verdicts + 1 heartbeat, then 10 heartbeats in 10 minutes; the check
    // summaries every 5 heartbeat periods (at 1 and 6 minutes), with the judge list once
    expect(afterFirst).toBe(101);
    expect(store.heartbeatWrites).toBe(11);
    expect(store.writes - afterFirst).toBe(10 + 2 + 1);
    expect(store.heartbeats.get(REGION)).toMatchObject({ targets: 100, periodMs: 60_000, checkpoint: {} });
  });

  it('certificates are written on change: no write per check, one write in the round a certificate changes', async () => {
    // Prepare: 100 HTTPS targets presenting certificates, 10 minutes of 10 s rounds
    const { worker, script, store, round } = setup();
    const certificate = (key: string, notAfter: number) => ({ notAfter, subject: key, issuer: 'R11' });
    for (let i = 0; i < 100; i++) script.certificates.set(`t${i}`, certificate(`t${i}`, 1_000));
    worker.setTargets(Array.from({ length: 100 }, (_, i) => planned(`t${i}`)));
    await round();
    const afterFirst = store.writes;
    // Act
    for (let i = 0; i < 60; i++) await round();
    // Assess: the first round wrote them all (one item, and with it the first check summaries
    // and their judge list); then as without certificates — 10 heartbeats and the check
    // summaries every 5 minutes
    expect(afterFirst).toBe(100 + 1 + 1 + 2);
    expect(store.writes - afterFirst).toBe(10 + 2);
    expect(Object.keys(store.certificates.get(REGION)?.certificates ?? {})).toHaveLength(100);
    // Act: one certificate is renewed, early in a heartbeat period
    script.certificates.set('t7', certificate('t7', 2_000));
    await round();
    const renewed = await round();
    // Assess: the round that saw it wrote the certificates (and the heartbeat); the next did not
    expect(store.certificates.get(REGION)?.certificates.t7).toEqual([2_000, 't7', 'R11']);
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

  it('without a logger, a failed write is told on the console, with the key and the error, never lost', async () => {
    const store = new MemoryProbeStateStore();
    store.putVerdict = async () => {
      throw new Error('ProvisionedThroughputExceededException');
    };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const { worker, round } = setup({ logger: undefined }, store);
      worker.setTargets([planned('t')]);
      expect(await round()).toMatchObject({ pendingWrites: 1 });
      expect(warn).toHaveBeenCalledWith('verdict write failed; retrying next round', {
        key: 't',
        region: REGION,
        error: 'Error: ProvisionedThroughputExceededException',
      });
    } finally {
      warn.mockRestore();
    }
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
        return answered(clock.now(), timeoutMs);
      },
    });
    worker.setTargets(Array.from({ length: 20 }, (_, i) => planned(`t${i}`)));
    const report = await worker.runRound(clock.now(), ROUND);
    expect(report.probed).toBe(20);
    expect(peak).toBe(3);
  });
});

describe('probe worker: how late its probes start', () => {
  it('a round reports how late its latest probe was sent against that probe’s own due time, the wait for the concurrency limit included', async () => {
    // Prepare: two probes due at the round's start, one slot: the second waits for the first's 300 ms answer
    const clock = fakeClock();
    const worker = createProbeWorker({
      region: REGION,
      store: new MemoryProbeStateStore(),
      clock,
      sleep: noSleep,
      logger: quiet,
      concurrency: 1,
      prober: async (request, timeoutMs) => {
        const startedAt = clock.now();
        await new Promise((resolve) => setImmediate(resolve));
        clock.advance(300);
        return answered(startedAt, timeoutMs, 300);
      },
    });
    worker.setTargets([planned('a', { offsetMs: 0 }), planned('b', { offsetMs: 0 })]);
    const dueAt = Math.ceil(clock.now() / ROUND) * ROUND;
    // Act: the round itself starts 40 ms late
    clock.set(dueAt + 40);
    const late = await worker.runRound(dueAt, ROUND);
    // Assess
    expect(late.latestStartMs).toBe(340);
    // Act: one probe, on time
    worker.setTargets([planned('a', { offsetMs: 0 })]);
    clock.set(dueAt + ROUND);
    const onTime = await worker.runRound(dueAt + ROUND, ROUND);
    // Assess
    expect(onTime.latestStartMs).toBe(0);
  });
});

describe('probe worker: what the heartbeat carries', () => {
  it('a heartbeat write that fails is a pending write until the next round writes it', async () => {
    // Prepare: the first heartbeat lands; the next one (the checkpoint moved: one failure) fails once
    const store = new MemoryProbeStateStore();
    const putHeartbeat = store.putHeartbeat.bind(store);
    let failures = 0;
    store.putHeartbeat = async (item) => {
      if (failures-- > 0) throw new Error('ProvisionedThroughputExceededException');
      return putHeartbeat(item);
    };
    const { worker, script, round } = setup({}, store);
    worker.setTargets([planned('t', { toleratedNumberOfFailures: 2 })]);
    await round();
    script.down.add('t');
    failures = 1;
    // Act
    const failed = await round();
    const next = await round();
    // Assess
    expect(failed).toMatchObject({ heartbeatWritten: false, pendingWrites: 1 });
    expect(next).toMatchObject({ heartbeatWritten: true, pendingWrites: 0 });
    expect(store.heartbeats.get(REGION)?.checkpoint).toMatchObject({ t: { failures: 2 } });
  });

  it('a replaced worker carries on the certificates stored before it, before its own checks see one', async () => {
    // Prepare: A saw t's certificate; B's checks of t time out (no certificate seen)
    const store = new MemoryProbeStateStore();
    const a = setup({}, store);
    const https = (key: string) =>
      planned(key, { protocol: 'HTTPS', port: 443, toleratedNumberOfFailures: 5 });
    a.worker.setTargets([https('t'), https('u')]);
    await a.round();
    a.script.certificates.set('t', { notAfter: 5_000, subject: 'shop.example.com', issuer: 'R11' });
    const { dueAt } = await a.round();
    expect(store.certificates.get(REGION)?.certificates).toEqual({ t: [5_000, 'shop.example.com', 'R11'] });
    // Act: B's first round, the next one, in which u presents a certificate
    const b = setup({}, store);
    b.script.down.add('t');
    b.script.certificates.set('u', { notAfter: 7_000, subject: 'u.example.com', issuer: 'R11' });
    b.worker.setTargets([https('t'), https('u')]);
    b.clock.set(dueAt + ROUND);
    const report = await b.worker.runRound(dueAt + ROUND, ROUND);
    // Assess: B announced itself, and its certificates are A's and its own
    expect(report.heartbeatWritten).toBe(true);
    expect(store.certificates.get(REGION)?.certificates).toEqual({
      t: [5_000, 'shop.example.com', 'R11'],
      u: [7_000, 'u.example.com', 'R11'],
    });
  });

  it('a target dropped from the plan takes its certificate out of the certificates written next', async () => {
    // Prepare
    const { worker, script, store, round } = setup();
    worker.setTargets([planned('kept'), planned('dropped')]);
    await round();
    for (const key of ['kept', 'dropped'])
      script.certificates.set(key, { notAfter: 5_000, subject: key, issuer: 'R11' });
    await round();
    expect(Object.keys(store.certificates.get(REGION)?.certificates ?? {}).sort()).toEqual([
      'dropped',
      'kept',
    ]);
    // Act
    worker.setTargets([planned('kept')]);
    await round();
    // Assess
    expect(store.certificates.get(REGION)?.certificates).toEqual({ kept: [5_000, 'kept', 'R11'] });
  });

  it('the checkpoint holds at most maxCheckpointEntries targets; the rest restore from their verdict alone', async () => {
    // Prepare: three targets each one failure short of down, a cap of two
    const store = new MemoryProbeStateStore();
    const a = setup({ maxCheckpointEntries: 2 }, store);
    const plan = ['t0', 't1', 't2'].map((key) => planned(key, { toleratedNumberOfFailures: 1 }));
    a.worker.setTargets(plan);
    await a.round();
    for (const key of ['t0', 't1', 't2']) a.script.down.add(key);
    await a.round();
    // Act: a replaced worker sees one more failure of each
    const b = setup({}, store);
    for (const key of ['t0', 't1', 't2']) b.script.down.add(key);
    b.worker.setTargets(plan);
    const report = await b.round();
    // Assess: the two checkpointed targets go down on their 2nd failure; the third starts counting again
    expect(Object.keys(store.heartbeats.get(REGION)?.checkpoint ?? {})).toHaveLength(2);
    const checkpointed = Object.keys(store.heartbeats.get(REGION)?.checkpoint ?? {});
    expect(report.changes.map((c) => c.judge.key).sort()).toEqual(checkpointed.sort());
    expect(report.changes.map((c) => c.verdict)).toEqual(['down', 'down']);
  });
});

describe('probe worker: the time scale on the rest of the settings', () => {
  it('maxLatencyMs is scaled too: at 1/10, a 50 ms answer is slow against a 500 ms limit', async () => {
    const clock = fakeClock();
    const slow = scriptedProber(clock);
    const worker = createProbeWorker({
      region: REGION,
      store: new MemoryProbeStateStore(),
      clock,
      sleep: noSleep,
      logger: quiet,
      timeScale: 0.1,
      prober: slow.prober,
    });
    const base = planned('t', { toleratedNumberOfFailures: 0 });
    worker.setTargets([shared('t', [{ ...base.judges[0]!, maxLatencyMs: 500 }])]);
    slow.durations.set('t', 60);
    const report = await worker.runRound(clock.now());
    expect(report.changes).toMatchObject([
      { verdict: 'down', result: { ok: false, reason: 'slow', detail: 'slow: 60 ms > 50 ms' } },
    ]);
  });

  it('without targets the round period is the fast interval (10 s) times the scale', () => {
    const { worker } = setup({ timeScale: 0.5 });
    worker.setTargets([]);
    expect(worker.roundPeriodMs()).toBe(5_000);
  });
});

/** A prober whose answers wait until the test releases them (200 in 3 ms, as the script's). */
function heldProber(clock: { now(): number }) {
  const held: (() => void)[] = [];
  let arrived: () => void = () => undefined;
  const prober: Prober = (request, timeoutMs) =>
    new Promise((resolve) => {
      const startedAt = clock.now();
      held.push(() =>
        resolve({
          answered: true,
          startedAt,
          durationMs: 3,
          timeoutMs,
          timings: {},
          latencyMs: 3,
          statusCode: 200,
        }),
      );
      arrived();
    });
  return {
    prober,
    /** Resolves once `count` probes are being held. */
    holding: (count: number) =>
      new Promise<void>((resolve) => {
        arrived = () => held.length >= count && resolve();
        arrived();
      }),
    release: () => held.splice(0).forEach((answer) => answer()),
  };
}

describe('probe worker: rounds that overlap (the local round timer does not wait for a round)', () => {
  it('a check still in flight when its next round starts is skipped there, not sent twice', async () => {
    // Prepare
    const clock = fakeClock();
    const held = heldProber(clock);
    const { worker } = setup({ prober: held.prober, clock });
    worker.setTargets([planned('t')]);
    const dueAt = Math.ceil(clock.now() / ROUND) * ROUND;
    // Act
    const first = worker.runRound(dueAt, ROUND);
    await held.holding(1);
    const second = await worker.runRound(dueAt + ROUND, ROUND);
    held.release();
    // Assess
    expect(second).toMatchObject({ probed: 0, judged: 0, skipped: 1 });
    expect(await first).toMatchObject({ probed: 1, judged: 1, skipped: 0 });
  });

  it('a check that ends after its request moved to another shard is not counted or written here', async () => {
    // Prepare: shard 0 of a region whose request `t` goes to shard 1 when it splits in two
    const clock = fakeClock();
    const held = heldProber(clock);
    const { worker, store } = setup({ prober: held.prober, clock });
    const key = ['a', 'b', 'c', 'd', 'e', 'f'].find((k) => isInShard(k, 1, 2))!;
    worker.setTargets([planned(key)]);
    const dueAt = Math.ceil(clock.now() / ROUND) * ROUND;
    const first = worker.runRound(dueAt, ROUND);
    await held.holding(1);
    // Act
    worker.setTargets([planned(key)], 2);
    held.release();
    const report = await first;
    // Assess: the new holder (shard 1) counts it from the checkpoint; this shard writes nothing for it
    expect(report.changes).toEqual([]);
    expect(store.verdicts.size).toBe(0);
    expect(worker.ruleState(key)).toBeUndefined();
  });

  it('an older verdict whose write fails after a newer one failed does not replace it: the next round writes the newer', async () => {
    // Prepare: round 1 decides up, its write hangs and then fails; round 2 decides down (tolerated 0),
    // its write fails at once
    const store = new MemoryProbeStateStore();
    const put = store.putVerdict.bind(store);
    let failUp: () => void = () => undefined;
    let upWriting: () => void = () => undefined;
    const upStarted = new Promise<void>((resolve) => (upWriting = resolve));
    let failDown = 1;
    store.putVerdict = async (item) => {
      if (item.verdict === 'up' && item.checkedAt === firstDueAt) {
        upWriting();
        await new Promise<void>((resolve) => (failUp = resolve));
        throw new Error('RequestTimeout');
      }
      if (item.verdict === 'down' && failDown-- > 0)
        throw new Error('ProvisionedThroughputExceededException');
      return put(item);
    };
    const { worker, script, clock } = setup({}, store);
    worker.setTargets([planned('t', { toleratedNumberOfFailures: 0 })]);
    const firstDueAt = Math.ceil(clock.now() / ROUND) * ROUND;
    clock.set(firstDueAt);
    const first = worker.runRound(firstDueAt, ROUND);
    await upStarted;
    script.down.add('t');
    clock.set(firstDueAt + ROUND);
    const second = await worker.runRound(firstDueAt + ROUND, ROUND);
    // Act
    failUp();
    await first;
    clock.set(firstDueAt + 2 * ROUND);
    const third = await worker.runRound(firstDueAt + 2 * ROUND, ROUND);
    // Assess
    expect(second.pendingWrites).toBe(1);
    expect(third).toMatchObject({ verdictWrites: 1, pendingWrites: 0 });
    expect(store.verdicts.get(`t\u0000${REGION}`)).toMatchObject({
      verdict: 'down',
      checkedAt: firstDueAt + ROUND,
    });
  });
});
