/**
 * When the tick's rounds arrive: the tick (`createTickHandler`, fake clock) enqueues each
 * minute's rounds a minute ahead with exact whole-second delays, so neither the scheduler's
 * lateness, nor the tick's planning, nor SQS's whole-second DelaySeconds makes a round late
 * or early; a new container (or one after a missed minute) also fills the current minute.
 */
import { describe, expect, it } from 'vitest';
import { createTickHandler } from '../../functions/probe/tick.js';
import type { RoundQueue } from '../../functions/probe/sqs-round-queue.js';
import { parseRoundMessage, type RoundMessageEntry } from '../../shared/probe/round-message.js';
import { MINUTE_MS, roundsToEnqueue, sendMomentOf } from '../../shared/probe/round-schedule.js';
import type { Profile } from '../../shared/profile/types.js';
import { external, fakeClock, monitor, profile } from './worker.fixtures.js';

const MINUTE = Date.UTC(2025, 0, 1, 12, 0, 0);
const REGION = 'us-east-1';

const shop = (intervalInSeconds: 10 | 30): Profile =>
  profile('shop', {
    monitorConfig: monitor({ intervalInSeconds, timeoutInSeconds: 5 }),
    endpoints: [external('a', 'a.example.net')],
  });

/** A tick over a fake clock whose queues record when each round becomes visible (send + DelaySeconds). */
function tickOnFakeClock(profiles: readonly Profile[]) {
  const clock = fakeClock(MINUTE);
  const delivered: { shard: number; dueAt: number; visibleAt: number; sentAt: number }[] = [];
  const batches: RoundMessageEntry[][] = [];
  const queues = [0].map((shard): RoundQueue => ({
    sendRounds: async (entries) => {
      expect(entries.length).toBeLessThanOrEqual(10);
      batches.push([...entries]);
      for (const entry of entries) {
        const round = parseRoundMessage(entry.MessageBody);
        if ('problem' in round) throw new Error(round.problem);
        const sentAt = clock.now();
        delivered.push({ shard, dueAt: round.dueAt, sentAt, visibleAt: sentAt + entry.DelaySeconds * 1000 });
      }
    },
  }));
  const tick = createTickHandler({
    region: REGION,
    clock,
    queues,
    loadConfig: async () => ({ profiles, defaultProbeRegions: [REGION] }),
    fallbackProbeRegions: [REGION],
    sleep: async (ms) => void clock.advance(ms),
  });
  return { clock, tick, delivered, batches };
}

describe('the tick enqueues a minute ahead, with exact delays', () => {
  it('every round of the following minutes becomes visible exactly at its due time, whenever in its minute the tick runs', async () => {
    // Prepare
    const { clock, tick, delivered } = tickOnFakeClock([shop(10)]);
    // Act: a first tick 400 ms late, then ticks 900 ms and 31.7 s late (a slow, late scheduler)
    for (const at of [MINUTE + 400, MINUTE + MINUTE_MS + 900, MINUTE + 2 * MINUTE_MS + 31_700]) {
      clock.set(at);
      await tick();
    }
    // Assess: sent on whole seconds
    expect(delivered.every((d) => d.sentAt % 1000 === 0)).toBe(true);
    // Assess: every 10 s round of minutes 0–3 once (minute 0's first one, already due, at once)
    const dueTimes = delivered.map((d) => d.dueAt);
    expect(dueTimes).toEqual(Array.from({ length: 24 }, (_, k) => MINUTE + k * 10_000));
    expect(delivered[0]).toMatchObject({ dueAt: MINUTE, visibleAt: MINUTE + 1000 });
    // Assess: every later round neither early nor late, including those of the late ticks' minutes
    for (const round of delivered.slice(1)) expect(round.visibleAt - round.dueAt).toBe(0);
  });

  it('a missed minute is filled by the next tick (its current minute, then the next)', async () => {
    // Prepare
    const { clock, tick, delivered } = tickOnFakeClock([shop(30)]);
    clock.set(MINUTE + 200);
    await tick();
    // Act: no tick in minute 1 (its rounds came from the first tick); minute 2's tick runs 5 s late
    clock.set(MINUTE + 2 * MINUTE_MS + 5_000);
    await tick();
    // Assess: minute 2's rounds are not lost; every 30 s round of minutes 0–3 once
    expect(delivered.map((d) => (d.dueAt - MINUTE) / 1000)).toEqual([0, 30, 60, 90, 120, 150, 180, 210]);
    const minute2 = delivered.find((d) => d.dueAt === MINUTE + 2 * MINUTE_MS);
    expect(minute2?.visibleAt).toBe(MINUTE + 2 * MINUTE_MS + 5_000);
    for (const round of delivered.filter((d) => d.dueAt > minute2!.visibleAt))
      expect(round.visibleAt).toBe(round.dueAt);
  });

  it('a second run in the same minute (a retried invocation) sends nothing more; a first run sends up to 12 rounds in batches of ≤ 10', async () => {
    const { clock, tick, batches } = tickOnFakeClock([shop(10)]);
    clock.set(MINUTE + 100);
    const first = await tick();
    clock.set(MINUTE + 20_000);
    const again = await tick();
    expect(first.enqueued).toHaveLength(12);
    // SQS takes ≤ 10 entries per batch: one of 10 and one of 2
    expect(batches.map((b) => b.length)).toEqual([10, 2]);
    expect(again.enqueued).toEqual([]);
  });
});

describe('roundsToEnqueue', () => {
  it('from a whole second, each delay is exact; from any other moment a round is never delivered early', () => {
    for (const now of [MINUTE + 1, MINUTE + 499, MINUTE + 500, MINUTE + 999, MINUTE + 59_999]) {
      const sendAt = sendMomentOf(now);
      expect(sendAt % 1000).toBe(0);
      expect(sendAt - now).toBeLessThan(1000);
      for (const round of roundsToEnqueue(sendAt, 10_000, MINUTE + MINUTE_MS).rounds)
        expect(sendAt + round.delaySeconds * 1000).toBe(round.dueAt);
      for (const round of roundsToEnqueue(now, 10_000, MINUTE + MINUTE_MS).rounds)
        expect(now + round.delaySeconds * 1000).toBeGreaterThanOrEqual(round.dueAt);
    }
  });

  it('covers through the end of the next minute; delays stay within SQS’s 900 s', () => {
    const { rounds, enqueuedUntil } = roundsToEnqueue(MINUTE + 59_000, 30_000, undefined);
    expect(rounds).toEqual([
      { dueAt: MINUTE + 30_000, delaySeconds: 0 },
      { dueAt: MINUTE + 60_000, delaySeconds: 1 },
      { dueAt: MINUTE + 90_000, delaySeconds: 31 },
    ]);
    expect(enqueuedUntil).toBe(MINUTE + 2 * MINUTE_MS);
    expect(Math.max(...rounds.map((r) => r.delaySeconds))).toBeLessThanOrEqual(900);
  });
});
