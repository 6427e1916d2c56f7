/** The outbox's pure rules: entries per status write, bounded parts, INSYNC stamping, when an entry is due. */
import { describe, expect, it } from 'vitest';
import { EventDetailType } from '../../shared/contracts/events.js';
import { isStatusEvent, type EvaluatorEvent, type StatusEvent } from '../../shared/evaluation/events.js';
import {
  MAX_INSYNC_WAIT_MS,
  isDue,
  outboxEntries,
  repairOutboxEntries,
  transitionsOf,
  withInSyncAt,
} from '../../shared/evaluation/outbox.js';
import type { TransitionRecord } from '../../shared/evaluation/transitions.js';

const T = Date.UTC(2026, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();
/** The id a consumer deduplicates by (the event detail's `eventId`). */
const eventIdOf = (event: EvaluatorEvent) => (isStatusEvent(event) ? event.record.eventId : event.eventId);

function statusEvent(profile: string, endpoint: string | undefined, submitted: boolean): StatusEvent {
  const record: TransitionRecord = {
    eventId: `${profile}/${endpoint ?? '*'}/3@${T}`,
    profile,
    ...(endpoint === undefined ? {} : { endpoint }),
    from: 'Online',
    to: 'Degraded',
    at: iso(T),
    reason: '4 consecutive failures (tolerated 3) in 3/3 regions',
    stale: false,
    staleBefore: false,
    votes: [],
    recordsChanged: [],
    timing: {
      firstFailedCheckAt: iso(T - 100_000),
      decidedAt: iso(T),
      changeSubmittedAt: submitted ? iso(T + 50) : null,
      inSyncAt: null,
      detectToPublishMs: null,
      expectedDetectToPublishMs: 162_000,
      expectedFormula: '(3+1) × 30 s interval + 10 s timeout + 62 s publish + 30 s TTL = 222 s',
    },
  };
  return { kind: endpoint === undefined ? 'ProfileStatusChanged' : 'EndpointStatusChanged', record };
}

const rejected: EvaluatorEvent = {
  kind: EventDetailType.publishRejected,
  eventId: `shop/rejected/3@${T}`,
  profile: 'shop',
  hostedZoneId: 'Z1',
  name: 'shop.example.com',
  reasons: ['bad'],
  changes: [],
};

describe('outbox entries', () => {
  it('one entry per profile with its events in order, its revision and the change ids it waits for', () => {
    // Act
    const entries = outboxEntries({
      events: [
        statusEvent('shop', 'east', true),
        statusEvent('blog', 'a', false),
        statusEvent('shop', undefined, true),
        rejected,
      ],
      decidedAt: T,
      revisionOf: (p) => (p === 'shop' ? 3 : 7),
      changeIdsOf: (p) => (p === 'shop' ? ['/change/C1'] : ['/change/C2']),
    });

    // Assert
    expect(entries.map((e) => [e.profile, e.revision, e.part, e.changeIds, e.events.map(eventIdOf)])).toEqual(
      [
        ['shop', 3, 0, ['/change/C1'], [`shop/east/3@${T}`, `shop/*/3@${T}`, `shop/rejected/3@${T}`]],
        // blog's change published no record: it waits for no change
        ['blog', 7, 0, [], [`blog/a/3@${T}`]],
      ],
    );
    expect(transitionsOf(entries[0]!).map((r) => r.eventId)).toEqual([`shop/east/3@${T}`, `shop/*/3@${T}`]);
  });

  it('splits a large write into parts of bounded size, in order', () => {
    // Act
    const events = ['a', 'b', 'c', 'd', 'e'].map((e) => statusEvent('shop', e, false));
    const size = JSON.stringify(events[0]).length;
    const entries = outboxEntries({
      events,
      decidedAt: T,
      revisionOf: () => 1,
      changeIdsOf: () => [],
      partBytes: size * 2,
    });

    // Assert
    expect(entries.map((e) => [e.part, e.events.length])).toEqual([
      [0, 2],
      [1, 2],
      [2, 1],
    ]);
    expect(entries.flatMap((e) => e.events.map(eventIdOf))).toEqual(events.map(eventIdOf));
  });

  it('INSYNC stamps inSyncAt and detectToPublishMs on the transitions that changed records only', () => {
    // Prepare
    const [entry] = outboxEntries({
      events: [statusEvent('shop', 'east', true), statusEvent('shop', 'west', false)],
      decidedAt: T,
      revisionOf: () => 3,
      changeIdsOf: () => ['/change/C1'],
    });

    // Act
    const synced = transitionsOf(withInSyncAt(entry!, T + 20_000));

    // Assert
    expect(synced[0]?.timing).toMatchObject({ inSyncAt: iso(T + 20_000), detectToPublishMs: 120_000 });
    expect(synced[1]?.timing).toMatchObject({ inSyncAt: null, detectToPublishMs: null });
  });

  it('an entry is due once INSYNC, at once when it waits for no change, and after the INSYNC wait in any case', () => {
    // Prepare
    const base = { profile: 'shop', revision: 1, part: 0, decidedAt: T, events: [] };
    const waiting = { ...base, changeIds: ['/change/C1'] };

    // Act + Assert
    expect(isDue(waiting, false, T + 1_000)).toBe(false);
    expect(isDue(waiting, true, T + 1_000)).toBe(true);
    expect(isDue({ ...base, changeIds: [] }, false, T)).toBe(true);
    expect(isDue(waiting, false, T + MAX_INSYNC_WAIT_MS)).toBe(true);
  });
});

describe("a reconcile's outbox entries", () => {
  const drift = (name: string): EvaluatorEvent => ({
    kind: EventDetailType.driftRepaired,
    eventId: `shop/drift/A ${name}@${T}`,
    profile: 'shop',
    hostedZoneId: 'Z1',
    name,
    type: 'A',
    found: null,
    written: { name, type: 'A', ttl: 30, values: ['192.0.2.1'] },
    reconciledAt: T,
    changeId: '/change/C9',
    changeSubmittedAt: T + 50,
    inSyncAt: null,
  });

  it('keyed by the zone and the reconcile time, waiting for the changes of the repair, in bounded parts', () => {
    // Prepare
    const events = [drift('a.example.com'), drift('b.example.com'), rejected];

    // Act
    const [one, ...none] = repairOutboxEntries({
      hostedZoneId: 'Z1',
      reconciledAt: T,
      changeIds: ['/change/C9'],
      events,
    });
    const split = repairOutboxEntries({
      hostedZoneId: 'Z1',
      reconciledAt: T,
      changeIds: [],
      events,
      partBytes: JSON.stringify(events[0]).length,
    });

    // Assert
    expect(none).toEqual([]);
    expect(one).toEqual({
      profile: '',
      revision: 0,
      part: 0,
      decidedAt: T,
      changeIds: ['/change/C9'],
      hostedZoneId: 'Z1',
      events,
    });
    expect(split.map((e) => [e.part, e.events.map(eventIdOf)])).toEqual(
      events.map((e, i) => [i, [eventIdOf(e)]]),
    );
    expect(repairOutboxEntries({ hostedZoneId: 'Z1', reconciledAt: T, changeIds: [], events: [] })).toEqual(
      [],
    );
  });

  it('INSYNC stamps inSyncAt on the drift repairs; a refusal stays as it is', () => {
    // Prepare
    const [entry] = repairOutboxEntries({
      hostedZoneId: 'Z1',
      reconciledAt: T,
      changeIds: ['/change/C9'],
      events: [drift('a.example.com'), rejected],
    });

    // Act
    const synced = withInSyncAt(entry!, T + 20_000);

    // Assert
    expect(synced.events).toEqual([{ ...drift('a.example.com'), inSyncAt: T + 20_000 }, rejected]);
  });
});
