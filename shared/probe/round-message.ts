/**
 * The message the once-a-minute tick puts on the region's round queue for each round of
 * the minute (docs/adr/0001-probe-cadence.md), and how the round handler reads it back.
 */
import type { ScheduledRound } from './round-schedule.js';

export interface RoundMessage {
  /** Epoch ms the round is due (on the round grid). */
  readonly dueAt: number;
  /** The round period the tick chose (the shortest interval among the region's targets). */
  readonly roundPeriodMs: number;
  /** How many shards the region's requests are split into this round (absent in older messages: 1). */
  readonly shards: number;
}

/** One entry of an SQS SendMessageBatch (≤ 10 per batch; a minute has at most 6 rounds). */
export interface RoundMessageEntry {
  readonly Id: string;
  readonly MessageBody: string;
  readonly DelaySeconds: number;
}

export function roundMessageEntries(
  rounds: readonly ScheduledRound[],
  roundPeriodMs: number,
  shards = 1,
): RoundMessageEntry[] {
  return rounds.map((round, index) => ({
    Id: `round-${index}`,
    MessageBody: JSON.stringify({ dueAt: round.dueAt, roundPeriodMs, shards } satisfies RoundMessage),
    DelaySeconds: Math.min(900, round.delaySeconds),
  }));
}

/** The round a message body names, or the reason it does not name one. */
export function parseRoundMessage(body: string): RoundMessage | { readonly problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { problem: 'body is not JSON' };
  }
  if (typeof value !== 'object' || value === null) return { problem: 'body is not an object' };
  const { dueAt, roundPeriodMs, shards = 1 } = value as Record<string, unknown>;
  if (typeof dueAt !== 'number' || !Number.isSafeInteger(dueAt) || dueAt < 0) {
    return { problem: `dueAt must be epoch milliseconds, got ${JSON.stringify(dueAt)}` };
  }
  if (typeof roundPeriodMs !== 'number' || !Number.isSafeInteger(roundPeriodMs) || roundPeriodMs < 1) {
    return { problem: `roundPeriodMs must be a positive integer, got ${JSON.stringify(roundPeriodMs)}` };
  }
  if (typeof shards !== 'number' || !Number.isSafeInteger(shards) || shards < 1) {
    return { problem: `shards must be a positive integer, got ${JSON.stringify(shards)}` };
  }
  return { dueAt, roundPeriodMs, shards };
}
