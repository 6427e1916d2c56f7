/**
 * What the evaluator hands EventBridge: entries in requests EventBridge accepts (at most 10
 * and 256 KB of entries each, sized as EventBridge counts them, in order), and a
 * PublishRejected event's detail as plain JSON naming each refused change.
 */
import { describe, expect, it } from 'vitest';
import type { PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import {
  detailOf,
  putEventsBatches,
  putEventsEntrySize,
  PUT_EVENTS_MAX_BYTES,
} from '../../functions/evaluator/event-sinks.js';
import { EventDetailType } from '../../shared/contracts/events.js';

const entry = (detailBytes: number, i = 0): PutEventsRequestEntry => ({
  Source: 'tm',
  DetailType: 'T',
  Detail: 'x'.repeat(detailBytes - 3) + String(i).padStart(3, '0'),
});

describe('PutEvents requests', () => {
  it('an entry is sized in UTF-8 bytes of Source, DetailType, Detail and Resources, plus 14 for a Time', () => {
    expect(putEventsEntrySize({ Source: 'tm', DetailType: 'Ä', Detail: '{}' })).toBe(2 + 2 + 2);
    expect(putEventsEntrySize({ Detail: '{}', Time: new Date(0), Resources: ['arn:a', 'é'] })).toBe(
      2 + 14 + 5 + 2,
    );
    expect(putEventsEntrySize({})).toBe(0);
  });

  it('no entries make no request; 25 small ones make requests of 10, 10 and 5, in order', () => {
    expect(putEventsBatches([])).toEqual([]);
    const entries = Array.from({ length: 25 }, (_, i) => entry(10, i));
    const batches = putEventsBatches(entries);
    expect(batches.map((b) => b.length)).toEqual([10, 10, 5]);
    expect(batches.flat()).toEqual(entries);
  });

  it('a request closes before an entry that would take it over 256 KB; an entry never waits alone', () => {
    const big = 100 * 1024;
    const entries = [entry(big, 1), entry(big, 2), entry(big, 3), entry(10, 4)];
    const batches = putEventsBatches(entries);
    expect(batches.map((b) => b.length)).toEqual([2, 2]);
    for (const batch of batches)
      expect(batch.reduce((sum, e) => sum + putEventsEntrySize(e), 0)).toBeLessThanOrEqual(
        PUT_EVENTS_MAX_BYTES,
      );
  });
});

describe('event detail', () => {
  it('PublishRejected names each refused change, with its alias target when it has one', () => {
    const rejected = {
      eventId: 'shop/rejected/3@1000',
      profile: 'shop',
      hostedZoneId: 'Z1',
      name: 'shop.example.com',
      reasons: ['Tried to create a record set that already exists'],
    };
    const detail = detailOf({
      kind: EventDetailType.publishRejected,
      ...rejected,
      changes: [
        {
          action: 'UPSERT',
          recordSet: {
            name: 'shop.example.com',
            type: 'A',
            ttl: 30,
            setIdentifier: 'east',
            weight: 1,
            values: ['192.0.2.1'],
          },
        },
        {
          action: 'UPSERT',
          recordSet: {
            name: 'shop.example.com',
            type: 'A',
            setIdentifier: 'nested',
            weight: 1,
            values: [],
            aliasTarget: { hostedZoneId: 'Z1', dnsName: 'child.example.com', evaluateTargetHealth: true },
          },
        },
      ],
    });
    expect(detail).toEqual({
      ...rejected,
      changes: [
        {
          action: 'UPSERT',
          name: 'shop.example.com',
          type: 'A',
          setIdentifier: 'east',
          values: ['192.0.2.1'],
        },
        {
          action: 'UPSERT',
          name: 'shop.example.com',
          type: 'A',
          setIdentifier: 'nested',
          values: [],
          aliasTarget: 'child.example.com',
        },
      ],
    });
    expect(JSON.parse(JSON.stringify(detail))).toEqual(detail);
  });
});
