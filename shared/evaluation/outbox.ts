/**
 * The transactional outbox: the events of one status write, stored in the same DynamoDB
 * transaction as the status item, so a status never changes without its notifications and
 * a notification never exists without its status. The publisher (functions/evaluator/
 * outbox-publisher.ts) writes each entry's history items, waits for its Route 53 changes to be
 * INSYNC, puts its events on the bus and only then deletes it: delivery is at least once,
 * and every event carries a stable `eventId`, so a consumer that drops repeated ids sees each
 * transition exactly once. Pure: no I/O, no clock.
 */
import { isStatusEvent, type EvaluatorEvent } from './events.js';
import { withInSync } from './timing.js';
import type { TransitionRecord } from './transitions.js';

/** One outbox item: the events of one profile's status write (or one part of them). */
export interface OutboxEntry {
  readonly profile: string;
  /** The status item's revision these events belong to. */
  readonly revision: number;
  /** 0, 1, … when the events of one write are too large for one item. */
  readonly part: number;
  /** Epoch ms of the evaluation that decided them. */
  readonly decidedAt: number;
  /** Route 53 change ids the events wait for (INSYNC) before they are published. */
  readonly changeIds: readonly string[];
  readonly events: readonly EvaluatorEvent[];
}

/**
 * A DynamoDB item is at most 400 KB and a transaction 4 MB; the events of one write are split
 * into parts of at most this many bytes of JSON, each its own item in the same transaction.
 */
export const OUTBOX_PART_BYTES = 300_000;

export interface OutboxInput {
  readonly events: readonly EvaluatorEvent[];
  readonly decidedAt: number;
  /** The revision each profile's status write carries. */
  readonly revisionOf: (profile: string) => number;
  /** The Route 53 change ids that published at a profile's name in this evaluation. */
  readonly changeIdsOf: (profile: string) => readonly string[];
  /** @default OUTBOX_PART_BYTES */
  readonly partBytes?: number;
}

/** The outbox entries of an evaluation: per profile, its events in order, in parts of bounded size. */
export function outboxEntries(input: OutboxInput): OutboxEntry[] {
  const byProfile = new Map<string, EvaluatorEvent[]>();
  for (const event of input.events) {
    const profile = profileOf(event);
    byProfile.set(profile, [...(byProfile.get(profile) ?? []), event]);
  }
  const limit = input.partBytes ?? OUTBOX_PART_BYTES;
  const entries: OutboxEntry[] = [];
  for (const [profile, events] of byProfile) {
    const changeIds = input.changeIdsOf(profile);
    const waits = events.some((e) => isStatusEvent(e) && e.record.timing.changeSubmittedAt !== null);
    let part: EvaluatorEvent[] = [];
    let bytes = 0;
    const flush = () => {
      if (part.length === 0) return;
      entries.push({
        profile,
        revision: input.revisionOf(profile),
        part: entries.filter((e) => e.profile === profile).length,
        decidedAt: input.decidedAt,
        changeIds: waits ? [...changeIds] : [],
        events: part,
      });
      part = [];
      bytes = 0;
    };
    for (const event of events) {
      const size = JSON.stringify(event).length;
      if (bytes + size > limit) flush();
      part.push(event);
      bytes += size;
    }
    flush();
  }
  return entries;
}

/** The profile an event belongs to. */
export function profileOf(event: EvaluatorEvent): string {
  return isStatusEvent(event) ? event.record.profile : event.profile;
}

/** The stable id a consumer deduplicates by (also in the event's detail as `eventId`). */
export function eventIdOf(event: EvaluatorEvent): string {
  return isStatusEvent(event) ? event.record.eventId : event.eventId;
}

/** The transition records of an entry's events (its history items). */
export function transitionsOf(entry: Pick<OutboxEntry, 'events'>): TransitionRecord[] {
  return entry.events.flatMap((e) => (isStatusEvent(e) ? [e.record] : []));
}

/** The entry's events once its Route 53 changes were reported INSYNC at `inSyncAt` (epoch ms). */
export function withInSyncAt(entry: OutboxEntry, inSyncAt: number): OutboxEntry {
  return {
    ...entry,
    events: entry.events.map((event) =>
      isStatusEvent(event) && event.record.timing.changeSubmittedAt !== null
        ? { ...event, record: { ...event.record, timing: withInSync(event.record.timing, inSyncAt) } }
        : event,
    ),
  };
}

/** How long an entry waits for INSYNC before its events go out without it (inSyncAt null). */
export const MAX_INSYNC_WAIT_MS = 15 * 60_000;

/** Whether the publisher sends an entry now: its changes are INSYNC, it waits for none, or it waited long enough. */
export function isDue(entry: OutboxEntry, inSync: boolean, now: number): boolean {
  return entry.changeIds.length === 0 || inSync || now - entry.decidedAt >= MAX_INSYNC_WAIT_MS;
}
