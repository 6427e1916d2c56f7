/**
 * The transactional outbox: the events of one status write, stored in the same DynamoDB
 * transaction as the status item, so a status never changes without its notifications and
 * a notification never exists without its status. The publisher (functions/evaluator/
 * outbox-publisher.ts) writes each entry's history items, waits for its Route 53 changes to be
 * INSYNC, puts its events on the bus and only then deletes it: delivery is at least once,
 * and every event carries a stable `eventId`, so a consumer that drops repeated ids sees each
 * transition exactly once. A reconcile's repairs (`DriftRepaired` events) take the same way:
 * no status changes, so their entries are keyed by zone and written on their own, right after
 * the repair. Pure: no I/O, no clock.
 */
import { greedyBatches } from '../batches.js';
import { groupBy } from '../group-by.js';
import { EventDetailType } from '../contracts/events.js';
import { isStatusEvent, type EvaluatorEvent } from './events.js';
import { withInSync } from './timing.js';
import type { TransitionRecord } from './transitions.js';

/** One outbox item: the events of one profile's status write, or of one zone's repairs (or one part of them). */
export interface OutboxEntry {
  /** The profile whose status write these events belong to ('' for a zone's repairs). */
  readonly profile: string;
  /** The status item's revision these events belong to. */
  readonly revision: number;
  /** 0, 1, … when the events of one write are too large for one item. */
  readonly part: number;
  /** Epoch ms of the evaluation that decided them. */
  readonly decidedAt: number;
  /** Route 53 change ids the events wait for (INSYNC) before they are published. */
  readonly changeIds: readonly string[];
  /** Set on a reconcile's repairs (`DriftRepaired` events): the zone reconciled. */
  readonly hostedZoneId?: string;
  /** Set on a certificate warning (one `CertificateExpiring` event): the endpoint and the certificate's notAfter. */
  readonly certificate?: { readonly endpoint: string; readonly notAfter: number };
  readonly events: readonly EvaluatorEvent[];
}

/**
 * A DynamoDB item is at most 400 KB and a transaction 4 MB; the events of one write are split
 * into parts of at most this many bytes of JSON, each its own item in the same transaction.
 */
const OUTBOX_PART_BYTES = 300_000;

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
  const limit = input.partBytes ?? OUTBOX_PART_BYTES;
  return [...groupBy(input.events, profileOf)].flatMap(([profile, events]) => {
    const changeIds = input.changeIdsOf(profile);
    const waits = events.some((e) => isStatusEvent(e) && e.record.timing.changeSubmittedAt !== null);
    return inParts(events, limit).map((part, index) => ({
      profile,
      revision: input.revisionOf(profile),
      part: index,
      decidedAt: input.decidedAt,
      changeIds: waits ? [...changeIds] : [],
      events: part,
    }));
  });
}

export interface RepairOutboxInput {
  readonly hostedZoneId: string;
  /** Epoch ms the zone was read. */
  readonly reconciledAt: number;
  /** The Route 53 changes that carried the repairs: the events wait for them to be INSYNC. */
  readonly changeIds: readonly string[];
  /** The zone's `DriftRepaired` events (and `PublishRejected` for a repair Route 53 refused). */
  readonly events: readonly EvaluatorEvent[];
  /** @default OUTBOX_PART_BYTES */
  readonly partBytes?: number;
}

/** The outbox entries of one zone's repairs (keyed by zone and reconcile time, not by a status write). */
export function repairOutboxEntries(input: RepairOutboxInput): OutboxEntry[] {
  return inParts(input.events, input.partBytes ?? OUTBOX_PART_BYTES).map((events, part) => ({
    profile: '',
    revision: 0,
    part,
    decidedAt: input.reconciledAt,
    changeIds: [...input.changeIds],
    hostedZoneId: input.hostedZoneId,
    events,
  }));
}

/** The events in order, in parts of at most `limit` bytes of JSON (an event larger than that is a part of its own). */
function inParts<T extends EvaluatorEvent>(events: readonly T[], limit: number): T[][] {
  return greedyBatches(events, { maxBytes: limit, bytesOf: (event) => JSON.stringify(event).length });
}

/** The profile an event belongs to. */
function profileOf(event: EvaluatorEvent): string {
  return isStatusEvent(event) ? event.record.profile : event.profile;
}

/** The transition records of an entry's events (its history items). */
export function transitionsOf(entry: Pick<OutboxEntry, 'events'>): TransitionRecord[] {
  return entry.events.flatMap((e) => (isStatusEvent(e) ? [e.record] : []));
}

/** The entry's events once its Route 53 changes were reported INSYNC at `inSyncAt` (epoch ms). */
export function withInSyncAt(entry: OutboxEntry, inSyncAt: number): OutboxEntry {
  return {
    ...entry,
    events: entry.events.map((event): EvaluatorEvent => {
      if (event.kind === EventDetailType.driftRepaired) return { ...event, inSyncAt };
      return isStatusEvent(event) && event.record.timing.changeSubmittedAt !== null
        ? { ...event, record: { ...event.record, timing: withInSync(event.record.timing, inSyncAt) } }
        : event;
    }),
  };
}

/** How long an entry waits for INSYNC before its events go out without it (inSyncAt null). */
export const MAX_INSYNC_WAIT_MS = 15 * 60_000;

/** Whether the publisher sends an entry now: its changes are INSYNC, it waits for none, or it waited long enough. */
export function isDue(entry: OutboxEntry, inSync: boolean, now: number): boolean {
  return entry.changeIds.length === 0 || inSync || now - entry.decidedAt >= MAX_INSYNC_WAIT_MS;
}
