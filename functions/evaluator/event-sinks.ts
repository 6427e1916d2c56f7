/** Where status-change events go: EventBridge in AWS, a log line in the local stack. */
import { PutEventsCommand, type EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { EventSink, StatusEvent } from './ports.js';

export const EVENT_SOURCE = 'traffic-manager';

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
export function callbackSink(onEvent: (event: StatusEvent) => void): EventSink {
  return {
    async emit(events) {
      for (const event of events) onEvent(event);
    },
  };
}

export function detailOf(event: StatusEvent) {
  const { change } = event;
  return {
    ...change,
    recordsChanged: event.recordsChanged.map((c) => ({
      action: c.action,
      name: c.recordSet.name,
      type: c.recordSet.type,
      setIdentifier: c.recordSet.setIdentifier,
      values: c.recordSet.values,
    })),
  };
}
