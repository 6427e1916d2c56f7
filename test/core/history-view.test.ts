import { describe, expect, it } from 'vitest';
import type { TransitionRecord } from '../../shared/evaluation/transitions.js';
import { formatTiming, formatTransition, historyView } from '../../shared/history/view.js';

const timing = {
  firstFailedCheckAt: '2026-05-01T10:00:01.000Z',
  decidedAt: '2026-05-01T10:00:41.300Z',
  changeSubmittedAt: '2026-05-01T10:00:41.500Z',
  inSyncAt: '2026-05-01T10:00:42.000Z',
  detectToPublishMs: 41_000,
  expectedDetectToPublishMs: 162_000,
  expectedFormula: '(3+1) × 30 s interval + 10 s timeout + 62 s publish + 30 s TTL = 222 s',
};

function record(
  over: Partial<TransitionRecord> & Pick<TransitionRecord, 'at' | 'eventId'>,
): TransitionRecord {
  return {
    profile: 'shop',
    endpoint: 'east',
    from: 'Online',
    to: 'Degraded',
    reason: '4 consecutive failures (tolerated 3) in 2/3 regions',
    stale: false,
    staleBefore: false,
    votes: [
      { region: 'us-east-1', vote: 'down', latencyMs: 12, checkedAt: 1 },
      { region: 'eu-west-1', vote: 'down' },
      { region: 'ap-southeast-1', vote: 'up' },
    ],
    recordsChanged: [{ action: 'UPSERT', name: 'shop.example.com', type: 'A', values: ['192.0.2.20'] }],
    timing,
    ...over,
  };
}

describe('historyView', () => {
  const older = record({ at: '2026-05-01T09:00:00.000Z', eventId: 'shop/east/1@1' });
  const profileLevel = record({
    at: '2026-05-01T10:00:41.300Z',
    eventId: 'shop/*/2@2',
    endpoint: undefined,
    from: 'Online',
    to: 'Degraded',
    votes: [],
  });
  const newer = record({ at: '2026-05-01T10:00:41.300Z', eventId: 'shop/east/2@2' });

  it('newest first; votes as {region, vote}; endpoint absent for a profile-level change', () => {
    const view = historyView([older, newer, profileLevel]);
    expect(view.map((t) => t.eventId)).toEqual(['shop/east/2@2', 'shop/*/2@2', 'shop/east/1@1']);
    expect(view[0]?.votes).toEqual([
      { region: 'us-east-1', vote: 'down' },
      { region: 'eu-west-1', vote: 'down' },
      { region: 'ap-southeast-1', vote: 'up' },
    ]);
    expect(Object.keys(view[0] ?? {})).toEqual([
      'eventId',
      'profile',
      'endpoint',
      'from',
      'to',
      'at',
      'reason',
      'votes',
      'recordsChanged',
      'timing',
    ]);
    expect('endpoint' in (view[1] ?? {})).toBe(false);
  });

  it('--endpoint leaves out other endpoints and profile-level changes; --since leaves out older ones', () => {
    expect(historyView([older, newer, profileLevel], { endpoint: 'east' }).map((t) => t.eventId)).toEqual([
      'shop/east/2@2',
      'shop/east/1@1',
    ]);
    expect(
      historyView([older, newer, profileLevel], { since: Date.parse('2026-05-01T10:00:00.000Z') }).map(
        (t) => t.eventId,
      ),
    ).toEqual(['shop/east/2@2', 'shop/*/2@2']);
  });
});

describe('formatTransition', () => {
  it('one line for the transition, its DNS changes, then the timing against the formula', () => {
    const [view] = historyView([record({ at: '2026-05-01T10:00:41.300Z', eventId: 'e' })]);
    expect(formatTransition(view!)).toEqual([
      '2026-05-01T10:00:41.300Z  shop/east  Online → Degraded  4 consecutive failures (tolerated 3) in 2/3 regions  [us-east-1 down, eu-west-1 down, ap-southeast-1 up]',
      '  dns UPSERT shop.example.com A 192.0.2.20',
      '  timing first failed check 2026-05-01T10:00:01.000Z → decided +40.3 s → submitted +0.2 s → in sync +0.5 s; detect → publish 41.0 s of at most 162 s (formula: (3+1) × 30 s interval + 10 s timeout + 62 s publish + 30 s TTL = 222 s, less 1 interval and the TTL)',
    ]);
  });

  it.each([
    { name: 'Degraded → Online (a recovery)', from: 'Degraded', to: 'Online', endpoint: 'east' },
    {
      name: 'CheckingEndpoint → Online (the first passing decision)',
      from: 'CheckingEndpoint',
      to: 'Online',
      endpoint: 'east',
    },
    { name: 'a profile Degraded → Online', from: 'Degraded', to: 'Online', endpoint: undefined },
  ] as const)(
    '$name: the timing starts at the first passing check, in the text and in --json',
    ({ from, to, endpoint }) => {
      const [view] = historyView([
        record({ at: '2026-05-01T10:00:41.300Z', eventId: 'e', from, to, endpoint }),
      ]);
      expect(view?.timing).toEqual({
        firstPassingCheckAt: '2026-05-01T10:00:01.000Z',
        decidedAt: timing.decidedAt,
        changeSubmittedAt: timing.changeSubmittedAt,
        inSyncAt: timing.inSyncAt,
        detectToPublishMs: timing.detectToPublishMs,
        expectedDetectToPublishMs: timing.expectedDetectToPublishMs,
        expectedFormula: timing.expectedFormula,
      });
      expect(Object.keys(view?.timing ?? {})[0]).toBe('firstPassingCheckAt');
      expect(formatTransition(view!).at(-1)).toBe(
        '  timing first passing check 2026-05-01T10:00:01.000Z → decided +40.3 s → submitted +0.2 s → in sync +0.5 s; detect → publish 41.0 s of at most 162 s (formula: (3+1) × 30 s interval + 10 s timeout + 62 s publish + 30 s TTL = 222 s, less 1 interval and the TTL)',
      );
    },
  );

  it.each([
    { name: 'Online → Degraded (failing over)', from: 'Online', to: 'Degraded' },
    { name: 'CheckingEndpoint → Degraded', from: 'CheckingEndpoint', to: 'Degraded' },
  ] as const)('$name: the timing keeps firstFailedCheckAt', ({ from, to }) => {
    const [view] = historyView([record({ at: '2026-05-01T10:00:41.300Z', eventId: 'e', from, to })]);
    expect(view?.timing).toEqual(timing);
    expect(view?.timing).not.toHaveProperty('firstPassingCheckAt');
  });

  it('a runtime change: no check led to it, so the timing starts at the decision', () => {
    expect(
      formatTiming({
        ...timing,
        firstFailedCheckAt: null,
        inSyncAt: null,
        detectToPublishMs: null,
        expectedDetectToPublishMs: null,
        expectedFormula: null,
      }),
    ).toBe('decided 2026-05-01T10:00:41.300Z → submitted +0.2 s');
  });
});
