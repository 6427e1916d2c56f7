/** Where status-change events go: EventBridge in AWS, a log line in the local stack. */
import { PutEventsCommand, type EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { EVENT_SOURCE, EventDetailType } from '../../shared/contracts/events.js';
import type { Change } from '../../shared/zone/record-set.js';
import type { EvaluatorEvent, EventSink } from './ports.js';

export function eventBridgeSink(client: EventBridgeClient, eventBusName: string): EventSink {
  return {
    async emit(events) {
      for (let i = 0; i < events.length; i += 10) {
        const entries = events.slice(i, i + 10).map((event) => ({
          EventBusName: eventBusName,
          Source: EVENT_SOURCE,
          DetailType: event.kind,
          Detail: JSON.stringify(detailOf(event)),
        }));
        const result = await client.send(new PutEventsCommand({ Entries: entries }));
        if ((result.FailedEntryCount ?? 0) > 0) {
          throw new Error(
            `EventBridge rejected ${result.FailedEntryCount} of ${entries.length} status events`,
          );
        }
      }
    },
  };
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
