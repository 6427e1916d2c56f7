/**
 * Nothing holds a round's first probe back: the round handler re-reads the definitions after
 * a round, not before its probes; the worker retries last round's failed writes beside the
 * probes, not before them; and a round delivered far ahead of its due time (not the tick's:
 * its delays are exact) is skipped instead of holding the shard while it waits.
 */
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { MemoryProbeStateStore } from '../support/memory-probe-state-store.js';
import { CONFIG_REFRESH_MS, createRoundHandler } from '../../functions/probe/round-handler.js';
import { createProbeWorker } from '../../functions/probe/worker.js';
import type { Prober } from '../../shared/probe/target.js';
import type { VerdictItem } from '../../shared/state/items.js';
import { external, fakeClock, monitor, noSleep, profile, scriptedProber } from './worker.fixtures.js';

const REGION = 'eu-west-1';
const PERIOD = 10_000;
const shop = profile('shop', {
  probeRegions: [REGION],
  monitorConfig: monitor({ intervalInSeconds: 10, timeoutInSeconds: 5, toleratedNumberOfFailures: 0 }),
  endpoints: [external('a', 'a.example.net'), external('b', 'b.example.net')],
});
const roundEvent = (dueAt: number): SQSEvent =>
  ({
    Records: [{ messageId: `m-${dueAt}`, body: JSON.stringify({ dueAt, roundPeriodMs: PERIOD }) }],
  }) as unknown as SQSEvent;

function shard(options: { prober?: (base: Prober) => Prober; store?: MemoryProbeStateStore } = {}) {
  const clock = fakeClock(1_800_000_000_000);
  const script = scriptedProber(clock);
  const events: string[] = [];
  const warnings: string[] = [];
  const base: Prober = (request, timeoutMs) => {
    events.push('probe');
    return script.prober(request, timeoutMs);
  };
  const worker = createProbeWorker({
    region: REGION,
    store: options.store ?? new MemoryProbeStateStore(),
    prober: options.prober?.(base) ?? base,
    clock,
    sleep: noSleep,
    logger: { warn: (message) => void warnings.push(message) },
  });
  const handler = createRoundHandler({
    worker,
    clock,
    loadConfig: async () => {
      events.push('config read');
      return { profiles: [shop], defaultProbeRegions: [REGION] };
    },
    fallbackProbeRegions: [REGION],
    logger: { warn: (message) => void warnings.push(message), info: () => undefined },
  });
  const dueAt0 = Math.ceil(clock.now() / PERIOD) * PERIOD;
  return { clock, script, events, warnings, handler, dueAt0 };
}

describe('a round’s start path', () => {
  it('a re-read of the definitions comes after the round’s probes, not before them (the first round reads first)', async () => {
    // Prepare
    const { clock, events, handler, dueAt0 } = shard();
    const rounds = CONFIG_REFRESH_MS / PERIOD + 1;
    // Act: a minute of rounds and one more, each delivered on time
    const perRound: string[][] = [];
    for (let i = 0; i < rounds; i++) {
      const dueAt = dueAt0 + i * PERIOD;
      clock.set(dueAt);
      events.length = 0;
      await handler(roundEvent(dueAt));
      perRound.push([...events]);
    }
    // Assess
    expect(perRound[0]).toEqual(['config read', 'probe', 'probe']);
    // The re-read due a minute after the first falls after that round's probes
    expect(perRound[CONFIG_REFRESH_MS / PERIOD]).toEqual(['probe', 'probe', 'config read']);
    expect(perRound.flat().filter((e) => e === 'config read')).toHaveLength(2);
  });

  it('a verdict write that failed last round is retried beside this round’s probes: a slow retry does not hold them back', async () => {
    // Prepare: the first decision's write fails; its retry hangs until released
    const store = new MemoryProbeStateStore();
    const put = store.putVerdict.bind(store);
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let writes = 0;
    store.putVerdict = async (item: VerdictItem) => {
      writes++;
      if (writes <= 2) throw new Error('ProvisionedThroughputExceededException');
      if (writes <= 4) await released;
      return put(item);
    };
    const { clock, events, handler, dueAt0 } = shard({ store });
    clock.set(dueAt0);
    await handler(roundEvent(dueAt0));
    expect(store.verdicts.size).toBe(0);
    // Act: the next round, while the retries hang
    clock.set(dueAt0 + PERIOD);
    events.length = 0;
    const second = handler(roundEvent(dueAt0 + PERIOD));
    for (let i = 0; i < 20 && events.length < 2; i++) await new Promise((resolve) => setImmediate(resolve));
    const startedWhileRetrying = [...events];
    release();
    await second;
    // Assess: both probes started before the retried writes ended, and the verdicts are stored
    expect(startedWhileRetrying).toEqual(['probe', 'probe']);
    expect(store.verdicts.size).toBe(2);
  });

  it('a round delivered more than 2 s before its due time is skipped, not waited for', async () => {
    // Prepare
    const { clock, events, warnings, handler, dueAt0 } = shard();
    clock.set(dueAt0);
    await handler(roundEvent(dueAt0));
    events.length = 0;
    // Act: the next round arrives 5 s early; the one after, 1 s early
    clock.set(dueAt0 + PERIOD - 5_000);
    await handler(roundEvent(dueAt0 + PERIOD));
    const early = [...events];
    clock.set(dueAt0 + 2 * PERIOD - 1_000);
    await handler(roundEvent(dueAt0 + 2 * PERIOD));
    // Assess
    expect(early).toEqual([]);
    expect(warnings).toContain('skipping a round due in the future');
    expect(events).toEqual(['probe', 'probe']);
  });
});
