import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseRoundMessage, roundMessageEntries } from '../../shared/probe/round-message.js';
import {
  COMPACT_SPREAD,
  isDueInRound,
  spreadWindowMs,
  startDelayMs,
} from '../../shared/probe/round-schedule.js';
import { startRoundScheduler } from '../../infra/local/round-scheduler.js';
import { tickMessages } from '../support/tick-messages.js';
import { external, monitor, profile } from './worker.fixtures.js';

const MINUTE = Date.UTC(2025, 0, 1, 12, 0, 0);

describe('the tick: the next minute’s rounds as delayed SQS messages', () => {
  it.each([
    {
      name: '10 s targets: six rounds of the next minute, each delayed to its due time',
      interval: 10 as const,
      at: MINUTE,
      enqueuedUntil: MINUTE + 60_000,
      delays: [60, 70, 80, 90, 100, 110],
    },
    {
      name: '30 s targets only: two rounds',
      interval: 30 as const,
      at: MINUTE,
      enqueuedUntil: MINUTE + 60_000,
      delays: [60, 90],
    },
    {
      name: 'a tick sending 7 s into its minute still aligns rounds to the wall-clock grid',
      interval: 10 as const,
      at: MINUTE + 7_000,
      enqueuedUntil: MINUTE + 60_000,
      delays: [53, 63, 73, 83, 93, 103],
    },
    {
      name: 'a first tick 25 s into its minute also sends the rest of it, leaving out rounds a whole period late',
      interval: 10 as const,
      at: MINUTE + 25_000,
      enqueuedUntil: undefined,
      delays: [0, 5, 15, 25, 35, 45, 55, 65, 75, 85],
    },
  ])('$name', ({ interval, at, enqueuedUntil, delays }) => {
    // Prepare
    const shop = profile('shop', {
      monitorConfig: monitor({ intervalInSeconds: interval, timeoutInSeconds: 9 }),
      endpoints: [external('a', 'a.example.net')],
    });
    // Act
    const { enqueued, roundPeriodMs } = tickMessages(
      [shop],
      'us-east-1',
      ['us-east-1'],
      at,
      1,
      undefined,
      enqueuedUntil,
    );
    // Assess
    expect(roundPeriodMs).toBe(interval * 1000);
    expect(enqueued.map((e) => e.DelaySeconds)).toEqual(delays);
    for (const entry of enqueued)
      expect(parseRoundMessage(entry.MessageBody)).toMatchObject({ roundPeriodMs: interval * 1000 });
  });

  it('a region without targets enqueues nothing (an idle region costs one short invocation a minute)', () => {
    const shop = profile('shop', { endpoints: [external('a', 'a.example.net')] });
    expect(tickMessages([shop], 'ap-south-1', ['us-east-1'], MINUTE).enqueued).toEqual([]);
  });

  it('a round message round-trips, and a broken one names its problem', () => {
    const [entry] = roundMessageEntries([{ dueAt: MINUTE, delaySeconds: 0 }], 10_000);
    expect(parseRoundMessage(entry!.MessageBody)).toEqual({
      dueAt: MINUTE,
      roundPeriodMs: 10_000,
      shards: 1,
    });
    expect(parseRoundMessage('{"dueAt":"soon"}')).toEqual({
      problem: 'dueAt must be epoch milliseconds, got "soon"',
    });
    expect(parseRoundMessage('nope')).toEqual({ problem: 'body is not JSON' });
  });
});

describe('rounds and spreading', () => {
  it('a 30 s target is probed in exactly one of the three 10 s rounds of its interval, the same one each time', () => {
    const target = { intervalMs: 30_000, offsetMs: 17_000 };
    const due = [0, 1, 2, 3, 4, 5].map((k) => isDueInRound(target, MINUTE + k * 10_000, 10_000));
    expect(due).toEqual([false, true, false, false, true, false]);
  });

  it('a 10 s target is probed in every 10 s round', () => {
    expect(
      [0, 1, 2].every((k) =>
        isDueInRound({ intervalMs: 10_000, offsetMs: 4_321 }, MINUTE + k * 10_000, 10_000),
      ),
    ).toBe(true);
  });

  it.each([
    {
      name: 'interval spread: the whole round period',
      policy: { kind: 'interval' } as const,
      targets: 5,
      timeout: 9_000,
      window: 10_000,
    },
    {
      name: 'compact spread: 0.25 ms per target for a few targets',
      policy: COMPACT_SPREAD,
      targets: 8,
      timeout: 5_000,
      window: 2,
    },
    {
      name: 'compact spread: a 30 s round of a full shard (2,000 requests) starts them within 500 ms, the pace of a full 10 s round, not over 4 s of billed spreading',
      policy: COMPACT_SPREAD,
      period: 30_000,
      targets: 2_000,
      timeout: 10_000,
      window: 500,
    },
    {
      name: 'compact spread: never shorter than the time the shard expects to need to start the probes (its CPU), within the room',
      policy: COMPACT_SPREAD,
      period: 30_000,
      targets: 2_000,
      timeout: 10_000,
      startSpan: 4_000,
      window: 4_000,
    },
    {
      name: 'compact spread: the time to start the probes does not stretch a round past its room',
      policy: COMPACT_SPREAD,
      targets: 2_000,
      timeout: 9_000,
      startSpan: 4_000,
      window: 500,
    },
    {
      name: 'compact spread: never past the point where the slowest probe would overrun the round',
      policy: COMPACT_SPREAD,
      targets: 10_000,
      timeout: 9_000,
      window: 500,
    },
    {
      name: 'compact spread: no room left → all start at once',
      policy: COMPACT_SPREAD,
      targets: 100,
      timeout: 9_800,
      window: 0,
    },
  ])('$name', ({ policy, period = 10_000, targets, timeout, startSpan = 0, window }) => {
    expect(spreadWindowMs(policy, period, targets, timeout, startSpan)).toBe(window);
  });

  it('a start delay is the offset’s position in the round, scaled to the window', () => {
    expect(startDelayMs({ offsetMs: 25_000 }, 10_000, 1_000)).toBe(500);
    expect(startDelayMs({ offsetMs: 0 }, 10_000, 1_000)).toBe(0);
  });
});

describe('the local round timer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires each round at its due time on the grid, and records the lateness', async () => {
    // Prepare
    vi.useFakeTimers({ now: MINUTE + 3_000 });
    const fired: number[] = [];
    const lateness: number[] = [];
    const scheduler = startRoundScheduler({
      roundPeriodMs: () => 10_000,
      runRound: async (dueAt) => {
        fired.push(dueAt);
        lateness.push(Date.now() - dueAt);
      },
    });
    // Act
    await vi.advanceTimersByTimeAsync(30_000);
    await scheduler.stop();
    // Assess
    expect(fired).toEqual([MINUTE + 10_000, MINUTE + 20_000, MINUTE + 30_000]);
    expect(lateness).toEqual([0, 0, 0]);
  });

  it('a round that outlasts the period does not delay the next one', async () => {
    vi.useFakeTimers({ now: MINUTE });
    const fired: number[] = [];
    const lateness: number[] = [];
    const scheduler = startRoundScheduler({
      roundPeriodMs: () => 1_000,
      runRound: (dueAt) => {
        lateness.push(Date.now() - dueAt);
        return new Promise((resolve) => setTimeout(() => resolve(fired.push(dueAt)), 2_500));
      },
    });
    await vi.advanceTimersByTimeAsync(3_000);
    const stopping = scheduler.stop();
    await vi.advanceTimersByTimeAsync(3_000);
    await stopping;
    expect(lateness).toEqual([0, 0, 0]);
    expect(fired).toEqual([MINUTE + 1_000, MINUTE + 2_000, MINUTE + 3_000]);
  });
});
