/**
 * The probe worker's parts, each alone (functions/probe/worker/): the rule-state keeper, the
 * verdict writer, the heartbeat writer and the round plan. The worker's own tests drive them
 * together; these pin what each part does by itself.
 */
import { describe, expect, it } from 'vitest';
import { CheckRecords } from '../../functions/probe/worker/check-records.js';
import { HeartbeatWriter, type HeartbeatSource } from '../../functions/probe/worker/heartbeat-writer.js';
import { RoundPlan } from '../../functions/probe/worker/round-runner.js';
import { RuleStates } from '../../functions/probe/worker/rule-states.js';
import { VerdictWriter } from '../../functions/probe/worker/verdict-writer.js';
import { judgedTimeout, judgeObservation } from '../../shared/probe/judge.js';
import type { VerdictItem } from '../../shared/state/items.js';
import { MemoryProbeStateStore } from '../support/memory-probe-state-store.js';
import { answered, fakeClock, planned } from './worker.fixtures.js';

const REGION = 'us-east-1';
const quiet = { warn: () => undefined };

describe('the rule-state keeper', () => {
  it('decides on the first check, keeps quiet while tolerated, and names the first failing check as the run start of down', () => {
    // Prepare: tolerated 1
    const probe = planned('t', { toleratedNumberOfFailures: 1 });
    const judge = probe.judges[0]!;
    const rules = new RuleStates(REGION);
    // Act
    const first = rules.apply(probe, judge, judgeObservation(answered(1_000, 9_000), judge));
    const tolerated = rules.apply(probe, judge, judgedTimeout(2_000, judge.timeoutMs));
    const checkpoint = rules.checkpoint([judge], 10);
    const down = rules.apply(probe, judge, judgedTimeout(3_000, judge.timeoutMs));
    // Assess
    expect(first.change).toMatchObject({ verdict: 'up', previous: undefined });
    expect(tolerated).toEqual({});
    expect(checkpoint.t).toMatchObject({ kind: 'consecutiveFailures', runStartedAt: 2_000 });
    expect(down.change).toMatchObject({ verdict: 'down', previous: 'up', runStartedAt: 2_000 });
    expect(down.item).toMatchObject({ targetKey: 't', region: REGION, verdict: 'down', since: 3_000 });
  });

  it('a restored judge continues from its checkpoint, and a judge no longer held is forgotten', () => {
    // Prepare: stored up, one failure counted by the heartbeat's checkpoint (tolerated 1)
    const probe = planned('t', { toleratedNumberOfFailures: 1 });
    const judge = probe.judges[0]!;
    const rules = new RuleStates(REGION);
    const verdict: VerdictItem = {
      targetKey: 't',
      region: REGION,
      verdict: 'up',
      since: 1_000,
      checkedAt: 1_000,
      detail: 'ok',
    };
    rules.restore(
      judge,
      verdict,
      { at: 2_500 },
      { kind: 'consecutiveFailures', failures: 1, runStartedAt: 2_000 },
    );
    // Act: the next failure is the second in a row
    const down = rules.apply(probe, judge, judgedTimeout(3_000, judge.timeoutMs));
    rules.retain(new Map());
    // Assess
    expect(down.change).toMatchObject({ verdict: 'down', previous: 'up', runStartedAt: 2_000 });
    expect(rules.get('t')).toBeUndefined();
  });
});

describe('the verdict writer', () => {
  it('keeps the latest failed write of a judge, retries it, and drops it once written', async () => {
    // Prepare: a table that refuses writes until told otherwise
    const store = new MemoryProbeStateStore();
    let refusing = true;
    const putVerdict = store.putVerdict.bind(store);
    store.putVerdict = async (item) => {
      if (refusing) throw new Error('ProvisionedThroughputExceededException');
      return putVerdict(item);
    };
    const writer = new VerdictWriter(store, REGION, quiet);
    const item = (checkedAt: number): VerdictItem => ({
      targetKey: 't',
      region: REGION,
      verdict: checkedAt === 2_000 ? 'down' : 'up',
      since: checkedAt,
      checkedAt,
      detail: 'x',
    });
    // Act: the newer change fails, then an older one (a retry racing it) fails too
    const failed = [await writer.write(item(2_000)), await writer.write(item(1_000))];
    const pendingWhileRefused = writer.pendingCount;
    refusing = false;
    const retried = await writer.retryPending();
    // Assess
    expect(failed).toEqual([false, false]);
    expect(pendingWhileRefused).toBe(1);
    expect(retried).toEqual([true]);
    expect(writer.pendingCount).toBe(0);
    expect(store.verdicts.get(`t\u0000${REGION}`)).toMatchObject({ verdict: 'down', checkedAt: 2_000 });
  });
});

describe('the heartbeat writer', () => {
  it('writes once per period, earlier when the checkpoint changed, never while a verdict write is pending', async () => {
    // Prepare
    const store = new MemoryProbeStateStore();
    const clock = fakeClock(0);
    let checkpoint = {};
    let pendingVerdicts = 0;
    const source: HeartbeatSource = {
      shards: () => 1,
      judges: () => [],
      held: () => new Map(),
      checkpoint: () => checkpoint,
      pendingVerdicts: () => pendingVerdicts,
    };
    const heartbeat = new HeartbeatWriter({
      store,
      region: REGION,
      shard: 0,
      clock,
      periodMs: 60_000,
      maxCheckpointEntries: 10,
      logger: quiet,
      records: new CheckRecords(),
      source,
    });
    const round = (dueAt: number) => {
      clock.set(dueAt);
      return heartbeat.writeIfDue(dueAt);
    };
    // Act
    const isNew = heartbeat.isNew;
    const first = await round(0);
    const unchanged = await round(10_000);
    checkpoint = { t: { kind: 'consecutiveFailures', failures: 1 } };
    pendingVerdicts = 1;
    const heldBack = await round(20_000);
    pendingVerdicts = 0;
    const changed = await round(30_000);
    const periodLater = await round(90_000);
    // Assess
    expect([isNew, heartbeat.isNew]).toEqual([true, false]);
    expect([first, unchanged, heldBack, changed, periodLater]).toEqual([true, false, false, true, true]);
    expect(store.heartbeatWrites).toBe(3);
    expect(store.heartbeats.get(REGION)?.checkpoint).toEqual(checkpoint);
  });
});

describe('the round plan', () => {
  it('a 30 s request is due in one 10 s round of three, a 10 s one in every round', () => {
    // Prepare
    const plan = new RoundPlan([planned('fast'), planned('slow', { intervalMs: 30_000 })]);
    // Act
    const due = [0, 10_000, 20_000].map((dueAt) => plan.dueInRound(dueAt, 10_000).probes.map((p) => p.key));
    // Assess
    expect(due.filter((keys) => keys.includes('fast'))).toHaveLength(3);
    expect(due.filter((keys) => keys.includes('slow'))).toHaveLength(1);
  });
});
