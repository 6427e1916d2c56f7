/**
 * The probe side of "re-enabled means CheckingEndpoint": a target whose endpoints were
 * (re-)enabled after this region's stored verdict (`freshAfter`) gets a verdict of its own
 * from checks after that moment — written even when it says the same as the old one, which
 * the evaluator ignores — and nothing counted before it carries over.
 */
import { describe, expect, it } from 'vitest';
import { MemoryProbeStateStore } from '../support/memory-probe-state-store.js';
import { createProbeWorker } from '../../functions/probe/worker.js';
import { fakeClock, noSleep, planned, scriptedProber } from './worker.fixtures.js';

const REGION = 'us-east-1';
const ROUND = 10_000;

function setup(store = new MemoryProbeStateStore(), clock = fakeClock()) {
  const script = scriptedProber(clock);
  const worker = createProbeWorker({
    region: REGION,
    store,
    prober: script.prober,
    clock,
    sleep: noSleep,
    logger: { warn: () => undefined },
  });
  const round = async () => {
    const dueAt = Math.ceil((clock.now() + 1) / ROUND) * ROUND;
    clock.set(dueAt);
    return worker.runRound(dueAt, ROUND);
  };
  return { clock, script, worker, store, round };
}
const stored = (store: MemoryProbeStateStore) => store.verdicts.get(`t\u0000${REGION}`);

describe('probe worker: verdicts after a (re-)enable', () => {
  it('a warm worker writes the unchanged "up" again after the enable moment (a shared target kept probing)', async () => {
    const { worker, store, round, clock } = setup();
    worker.setTargets([planned('t')]);
    await round();
    const first = stored(store)?.checkedAt ?? 0;
    await round();
    expect(stored(store)?.checkedAt).toBe(first); // unchanged verdicts are not rewritten

    const enabledAt = clock.now() + 1;
    worker.setTargets([planned('t', { freshAfter: enabledAt })]);
    const report = await round();
    expect(report.changes.map((c) => c.verdict)).toEqual(['up']);
    expect(stored(store)?.checkedAt).toBeGreaterThanOrEqual(enabledAt);
    expect((await round()).verdictWrites).toBe(0); // once is enough
  });

  it('a restored worker ignores a verdict and counts from before the enable: a target "down" 30 days ago needs tolerated+1 fresh failures', async () => {
    const store = new MemoryProbeStateStore();
    const old = setup(store);
    old.worker.setTargets([planned('t', { toleratedNumberOfFailures: 2 })]);
    old.script.down.add('t');
    for (let i = 0; i < 3; i++) await old.round();
    expect(stored(store)?.verdict).toBe('down');

    const clock = fakeClock(old.clock.now() + 30 * 86_400_000);
    const fresh = setup(store, clock);
    fresh.script.down.add('t');
    fresh.worker.setTargets([planned('t', { toleratedNumberOfFailures: 2, freshAfter: clock.now() })]);
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push((await fresh.round()).changes.map((c) => c.verdict));
    expect(decisions).toEqual([[], [], ['down']]);
    expect(stored(store)?.checkedAt).toBeGreaterThanOrEqual(clock.now() - ROUND);
  });

  it('without an enable after the stored verdict, a restored worker does not rewrite it', async () => {
    const store = new MemoryProbeStateStore();
    const old = setup(store);
    old.worker.setTargets([planned('t')]);
    await old.round();
    const fresh = setup(store, fakeClock(old.clock.now() + 60_000));
    fresh.worker.setTargets([planned('t', { freshAfter: old.clock.now() - 1 })]);
    expect((await fresh.round()).verdictWrites).toBe(0);
  });
});
