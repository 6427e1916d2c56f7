/**
 * Where events go: EventBridge in AWS, a callback (the local stack prints them) elsewhere.
 * The outbox publisher calls the sink; a sink either delivers every event or throws.
 */
import {
  PutEventsCommand,
  type EventBridgeClient,
  type PutEventsRequestEntry,
} from '@aws-sdk/client-eventbridge';
import { greedyBatches } from '../../shared/batches.js';
import { EVENT_SOURCE, EventDetailType } from '../../shared/contracts/events.js';
import type { Change } from '../../shared/zone/record-set.js';
import { isTransientAwsError, retrying, type RetryPolicy } from '../shared/retry.js';
import { PartialPutEventsError } from './errors.js';
import type { EvaluatorEvent, EventSink } from './ports.js';

/** EventBridge's limits on one PutEvents request: 10 entries, 256 KB of entries. */
export const PUT_EVENTS_MAX_ENTRIES = 10;
export const PUT_EVENTS_MAX_BYTES = 256 * 1024;

/**
 * PutEvents retried with exponential backoff and jitter (0.2 s, 0.4 s, … capped at 5 s; about
 * 15 s in all): the client has no SDK retries, so this is the one retry layer. Only the entries
 * that failed are sent again.
 */
const PUT_EVENTS_RETRY: RetryPolicy = { retries: 5, baseDelayMs: 200, maxDelayMs: 5_000 };

/** Some entries of a PutEvents failed (EventBridge answers 200 with per-entry error codes). */
export function eventBridgeSink(client: EventBridgeClient, eventBusName: string): EventSink {
  return {
    async emit(events) {
      const entries: PutEventsRequestEntry[] = events.map((event) => ({
        EventBusName: eventBusName,
        Source: EVENT_SOURCE,
        DetailType: event.kind,
        Detail: JSON.stringify(detailOf(event)),
      }));
      for (const batch of putEventsBatches(entries)) {
        let unsent = batch;
        await retrying(
          PUT_EVENTS_RETRY,
          { isRetryable: (e) => e instanceof PartialPutEventsError || isTransientAwsError(e) },
          async () => {
            const result = await client.send(new PutEventsCommand({ Entries: unsent }));
            const failed = unsent.filter((_, i) => result.Entries?.[i]?.ErrorCode !== undefined);
            if (failed.length === 0) return;
            const codes = [...new Set(result.Entries?.flatMap((e) => (e.ErrorCode ? [e.ErrorCode] : [])))];
            unsent = failed;
            throw new PartialPutEventsError(
              `EventBridge refused ${failed.length} of ${batch.length} events (${codes.join(', ')})`,
            );
          },
        );
      }
    },
  };
}

/** The entry's size as EventBridge counts it (UTF-8 bytes of Source, DetailType, Detail, Resources; Time 14). */
export function putEventsEntrySize(entry: PutEventsRequestEntry): number {
  const bytes = (s: string | undefined) => (s === undefined ? 0 : Buffer.byteLength(s, 'utf8'));
  return (
    (entry.Time === undefined ? 0 : 14) +
    bytes(entry.Source) +
    bytes(entry.DetailType) +
    bytes(entry.Detail) +
    (entry.Resources ?? []).reduce((sum, r) => sum + bytes(r), 0)
  );
}

/** Entries in request-sized batches: at most 10 and 256 KB each, in order. */
export function putEventsBatches(entries: readonly PutEventsRequestEntry[]): PutEventsRequestEntry[][] {
  return greedyBatches(entries, {
    maxBytes: PUT_EVENTS_MAX_BYTES,
    bytesOf: putEventsEntrySize,
    maxCount: PUT_EVENTS_MAX_ENTRIES,
  });
}

/** Collects events in memory and hands each to `onEvent` (the local stack prints them). */
export function callbackSink(onEvent: (event: EvaluatorEvent) => void): EventSink {
  return {
    async emit(events) {
      for (const event of events) onEvent(event);
    },
  };
}

/** The EventBridge `detail` of an event: plain JSON, record changes as `{ action, name, type, setIdentifier, values }`. */
export function detailOf(event: EvaluatorEvent): Record<string, unknown> {
  switch (event.kind) {
    case EventDetailType.publishRejected: {
      const { kind: _kind, changes, ...rest } = event;
      return { ...rest, changes: changes.map(changeDetail) };
    }
    case EventDetailType.certificateExpiring:
    case EventDetailType.driftRepaired: {
      const { kind: _kind, ...rest } = event;
      return { ...rest };
    }
    default:
      return { ...event.record };
  }
}

function changeDetail(c: Change) {
  return {
    action: c.action,
    name: c.recordSet.name,
    type: c.recordSet.type,
    setIdentifier: c.recordSet.setIdentifier,
    values: c.recordSet.values,
    ...(c.recordSet.aliasTarget === undefined ? {} : { aliasTarget: c.recordSet.aliasTarget.dnsName }),
  };
}
