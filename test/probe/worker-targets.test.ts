/**
 * The worker's plan changes: a shard number outside the region's shards is refused, and a
 * target dropped from the plan takes its rule state and its unwritten verdict with it (a
 * verdict for a target no longer probed is not retried forever).
 */
import { describe, expect, it } from 'vitest';
import { MemoryProbeStateStore } from '../support/memory-probe-state-store.js';
import { createProbeWorker } from '../../functions/probe/worker.js';
import type { VerdictItem } from '../../shared/state/items.js';
import { fakeClock, noSleep, planned, scriptedProber } from './worker.fixtures.js';

const REGION = 'eu-west-1';
const quiet = { warn: () => undefined };

/** A store whose verdict writes fail (heartbeats succeed). */
class FailingVerdicts extends MemoryProbeStateStore {
  override async putVerdict(_item: VerdictItem): Promise<never> {
    throw new Error('ProvisionedThroughputExceededException');
  }
}

describe('the probe worker when its plan changes', () => {
  it('refuses a shard that is not one of the region’s shards', () => {
    const clock = fakeClock();
    const worker = createProbeWorker({
      region: REGION,
      shard: 2,
      store: new MemoryProbeStateStore(),
      prober: scriptedProber(clock).prober,
      clock,
      logger: quiet,
    });
    expect(() => worker.setTargets([], 2)).toThrow(
      new RangeError('shard 2 is not one of 2 shards of eu-west-1'),
    );
    expect(() => worker.setTargets([], 3)).not.toThrow();
  });

  it('a dropped target’s state and unwritten verdict go with it; the others keep theirs', async () => {
    const clock = fakeClock();
    const worker = createProbeWorker({
      region: REGION,
      store: new FailingVerdicts(),
      prober: scriptedProber(clock).prober,
      clock,
      sleep: noSleep,
      logger: quiet,
    });
    worker.setTargets([planned('keep'), planned('drop')]);
    const report = await worker.runRound(clock.now(), 10_000);
    expect(report.changes.map((c) => c.judge.key).sort()).toEqual(['drop', 'keep']);
    expect(worker.pendingWrites()).toBe(2);

    worker.setTargets([planned('keep')]);

    expect(worker.ruleState('drop')).toBeUndefined();
    expect(worker.ruleState('keep')).toBeDefined();
    expect(worker.pendingWrites()).toBe(1);
    expect(worker.targets().map((t) => t.key)).toEqual(['keep']);
  });
});
