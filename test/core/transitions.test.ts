import { describe, expect, it } from 'vitest';
import { expectedDuration, withInSync } from '../../shared/evaluation/timing.js';
import {
  detailTypeOf,
  publishedAtProfiles,
  transitionRecords,
  type TransitionInput,
} from '../../shared/evaluation/transitions.js';
import type { RegionVote } from '../../shared/monitor/aggregate.js';
import type { StatusChange } from '../../shared/status/report.js';
import { EventDetailType } from '../../shared/contracts/events.js';
import type { Change } from '../../shared/zone/record-set.js';
import { externalEndpoint, monitorConfig, nestedEndpoint, profile } from '../support/profiles.js';

const T = Date.parse('2026-01-01T00:10:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe('expected duration: the operators’ formula', () => {
  it.each([
    {
      name: 'failing over, tolerated 3, interval 30, timeout 10, TTL 30: (3+1) × 30 + 10 + 62 + 30 = 222 s, of which 162 s measurable',
      monitor: monitorConfig({ intervalInSeconds: 30, timeoutInSeconds: 10, toleratedNumberOfFailures: 3 }),
      direction: 'failing' as const,
      scale: 1,
      ms: 162_000,
      formula: '(3+1) × 30 s interval + 10 s timeout + 62 s publish + 30 s TTL = 222 s',
    },
    {
      name: 'coming back: one successful check, 1 × 30 + 10 + 62 + 30 = 132 s, of which 72 s measurable',
      monitor: monitorConfig({ intervalInSeconds: 30, timeoutInSeconds: 10, toleratedNumberOfFailures: 3 }),
      direction: 'recovering' as const,
      scale: 1,
      ms: 72_000,
      formula: '1 × 30 s interval + 10 s timeout + 62 s publish + 30 s TTL = 132 s',
    },
    {
      name: 'a sample window of 4 needing 2 fails after 3 failed checks',
      monitor: monitorConfig({
        intervalInSeconds: 10,
        timeoutInSeconds: 5,
        healthRule: { kind: 'sampleWindow', sampleSize: 4, successfulSamplesRequired: 2 },
      }),
      direction: 'failing' as const,
      scale: 1,
      ms: 87_000,
      formula: '3 × 10 s interval + 5 s timeout + 62 s publish + 30 s TTL = 127 s',
    },
    {
      name: 'the local time scale multiplies interval and timeout, not publish or the TTL',
      monitor: monitorConfig({ intervalInSeconds: 30, timeoutInSeconds: 10, toleratedNumberOfFailures: 3 }),
      direction: 'failing' as const,
      scale: 0.2,
      ms: 82_000,
      formula: '((3+1) × 30 s interval + 10 s timeout) × time scale 0.2 + 62 s publish + 30 s TTL = 118 s',
    },
  ])('$name', ({ monitor, direction, scale, ms, formula }) => {
    expect(expectedDuration(monitor, 30, direction, { batchingWindowSeconds: 2, timeScale: scale })).toEqual({
      ms,
      formula,
    });
  });
});

const vote = (region: string, v: 'up' | 'down', since: number, runStartedAt: number): RegionVote => ({
  region,
  vote: v,
  since,
  checkedAt: since,
  runStartedAt,
  detail: v === 'up' ? 'check succeeded' : '4 consecutive failures (tolerated 3)',
});

function endpointChange(
  p: string,
  endpoint: string,
  before: string | undefined,
  after: string,
  votes: RegionVote[] = [],
): StatusChange {
  return {
    profile: p,
    endpoint,
    before: before as never,
    after: after as never,
    since: T,
    reason: 'r',
    staleBefore: before === undefined ? undefined : false,
    stale: false,
    votes,
  };
}

function profileChange(p: string, before: string | undefined, after: string): StatusChange {
  return {
    profile: p,
    endpoint: undefined,
    before: before as never,
    after: after as never,
    since: T,
    reason: 'r',
    staleBefore: false,
    stale: false,
    votes: [],
  };
}

const child = profile({
  name: 'child',
  endpoints: [externalEndpoint({ name: 'a', target: '192.0.2.1' })],
});
const parent = profile({
  name: 'parent',
  endpoints: [
    nestedEndpoint({ name: 'eu', targetProfile: 'child' }),
    externalEndpoint({ name: 'b', target: '192.0.2.2' }),
  ],
});
const upsert: Change = {
  action: 'UPSERT',
  recordSet: { name: 'parent.example.com', type: 'A', ttl: 30, values: ['192.0.2.2'] },
};

function input(changes: StatusChange[], overrides: Partial<TransitionInput> = {}): TransitionInput {
  return {
    changes,
    profiles: [parent, child],
    decidedAt: T,
    revisionOf: (name) => (name === 'parent' ? 7 : 3),
    publishedAt: (name) => (name === 'parent' ? { changes: [upsert], submittedAt: T + 40 } : { changes: [] }),
    figureSettings: { batchingWindowSeconds: 2 },
    ...overrides,
  };
}

describe('transition records', () => {
  it('a failing endpoint: the deciding region’s run start, the decision, the submission, the formula; ids carry profile, endpoint and revision', () => {
    const votes = [
      vote('r1', 'down', T - 9_000, T - 99_000),
      vote('r2', 'down', T - 5_000, T - 95_000),
      vote('r3', 'up', T - 500_000, T - 500_000),
    ];
    const [record] = transitionRecords(input([endpointChange('parent', 'b', 'Online', 'Degraded', votes)]));
    expect(record).toMatchObject({
      eventId: `parent/b/7@${T}`,
      profile: 'parent',
      endpoint: 'b',
      from: 'Online',
      to: 'Degraded',
      at: iso(T),
      recordsChanged: [{ action: 'UPSERT', name: 'parent.example.com', type: 'A', values: ['192.0.2.2'] }],
      timing: {
        firstFailedCheckAt: iso(T - 95_000),
        decidedAt: iso(T),
        changeSubmittedAt: iso(T + 40),
        inSyncAt: null,
        detectToPublishMs: null,
        expectedDetectToPublishMs: 162_000,
      },
    });
  });

  it('a nested endpoint and the profiles take the run start of the change that led to theirs', () => {
    const votes = [vote('r1', 'down', T - 1_000, T - 80_000), vote('r2', 'down', T - 2_000, T - 70_000)];
    const records = transitionRecords(
      input([
        endpointChange('parent', 'eu', 'Online', 'Degraded'),
        profileChange('parent', 'Online', 'Degraded'),
        endpointChange('child', 'a', 'Online', 'Degraded', votes),
        profileChange('child', 'Online', 'Degraded'),
      ]),
    );
    expect(records.map((r) => [r.eventId, r.timing.firstFailedCheckAt])).toEqual([
      [`parent/eu/7@${T}`, iso(T - 80_000)],
      [`parent/*/7@${T}`, iso(T - 80_000)],
      [`child/a/3@${T}`, iso(T - 80_000)],
      [`child/*/3@${T}`, iso(T - 80_000)],
    ]);
  });

  it('a first report, a configuration change and a stale flag have no run start and no formula', () => {
    const stale: StatusChange = {
      ...endpointChange('child', 'a', 'Online', 'Online'),
      staleBefore: false,
      stale: true,
    };
    const records = transitionRecords(
      input([
        endpointChange('child', 'a', undefined, 'CheckingEndpoint'),
        endpointChange('parent', 'b', 'Online', 'Disabled'),
        stale,
      ]),
    );
    for (const record of records) {
      expect(record.timing).toMatchObject({
        firstFailedCheckAt: null,
        expectedDetectToPublishMs: null,
        expectedFormula: null,
      });
    }
    expect(records[0]).toMatchObject({ from: null, timing: { changeSubmittedAt: null } });
  });

  it('once INSYNC: detect → publish is inSyncAt − firstFailedCheckAt', () => {
    const votes = [vote('r1', 'down', T - 1_000, T - 100_000)];
    const [record] = transitionRecords(input([endpointChange('child', 'a', 'Online', 'Degraded', votes)]));
    const timing = withInSync(record!.timing, T + 30_000);
    expect(timing).toMatchObject({ inSyncAt: iso(T + 30_000), detectToPublishMs: 130_000 });
  });
});

describe('transition records: the other directions and places', () => {
  it('an endpoint back Online: the run of successes of the region that made enough, the formula of coming back', () => {
    const votes = [
      vote('r1', 'up', T - 9_000, T - 39_000),
      vote('r2', 'up', T - 5_000, T - 35_000),
      vote('r3', 'down', T - 500_000, T - 500_000),
    ];
    const [record] = transitionRecords(input([endpointChange('child', 'a', 'Degraded', 'Online', votes)]));
    expect(record?.timing).toMatchObject({
      firstFailedCheckAt: iso(T - 35_000), // r2's: the second of the two up votes 3 regions need
      changeSubmittedAt: null,
      expectedDetectToPublishMs: 72_000,
      expectedFormula: '1 × 30 s interval + 10 s timeout + 62 s publish + 30 s TTL = 132 s',
    });
  });

  it('a change of a profile no longer defined: its run start from the votes, no formula', () => {
    const votes = [vote('r1', 'down', T - 1_000, T - 90_000)];
    const records = transitionRecords(
      input(
        [
          endpointChange('gone', 'x', 'Online', 'Degraded', votes),
          profileChange('gone', 'Online', 'Degraded'),
        ],
        {
          revisionOf: () => 2,
          publishedAt: () => ({ changes: [] }),
        },
      ),
    );
    expect(records.map((r) => [r.eventId, r.timing.firstFailedCheckAt, r.timing.expectedFormula])).toEqual([
      [`gone/x/2@${T}`, iso(T - 90_000), null],
      [`gone/*/2@${T}`, iso(T - 90_000), null],
    ]);
  });

  it('a nested endpoint disabled, and the profile it took down with no run start among its endpoints: none', () => {
    const records = transitionRecords(
      input([
        endpointChange('parent', 'eu', 'Online', 'Disabled'),
        profileChange('parent', 'Online', 'Degraded'),
      ]),
    );
    expect(records.map((r) => r.timing.firstFailedCheckAt)).toEqual([null, null]);
    expect(records[1]?.timing.expectedDetectToPublishMs).toBe(162_000);
  });

  it('the records changed: set identifiers and alias targets as they are published', () => {
    const changes: Change[] = [
      {
        action: 'DELETE',
        recordSet: {
          name: 'parent.example.com',
          type: 'A',
          ttl: 30,
          setIdentifier: 'b',
          values: ['192.0.2.2'],
        },
      },
      {
        action: 'CREATE',
        recordSet: {
          name: 'parent.example.com',
          type: 'A',
          setIdentifier: 'eu',
          aliasTarget: { hostedZoneId: 'Z1', dnsName: 'child.example.com', evaluateTargetHealth: false },
          values: [],
        },
      },
    ];
    const [record] = transitionRecords(
      input([endpointChange('parent', 'b', 'Online', 'Degraded')], {
        publishedAt: () => ({ changes, submittedAt: T + 40 }),
      }),
    );
    expect(record?.recordsChanged).toEqual([
      { action: 'DELETE', name: 'parent.example.com', type: 'A', setIdentifier: 'b', values: ['192.0.2.2'] },
      {
        action: 'CREATE',
        name: 'parent.example.com',
        type: 'A',
        setIdentifier: 'eu',
        values: ['ALIAS child.example.com'],
      },
    ]);
  });

  it('the event detail-type: an endpoint’s change or the profile’s', () => {
    expect(detailTypeOf({ endpoint: 'a' })).toBe(EventDetailType.endpointStatusChanged);
    expect(detailTypeOf({ endpoint: undefined })).toBe(EventDetailType.profileStatusChanged);
  });
});

describe('what each profile’s change published', () => {
  const changeAt = (name: string): Change => ({
    action: 'UPSERT',
    recordSet: { name, type: 'A', ttl: 30, values: ['192.0.2.1'] },
  });
  const changes = [
    changeAt('parent.example.com'),
    changeAt('old.example.com'),
    changeAt('child.example.com'),
  ];
  const submittedAt = new Map([
    ['parent.example.com', T + 40],
    ['old.example.com', T + 50],
  ]);

  it('the changes at its name, when Route 53 accepted them and their ids; a removed profile’s at the name it owned', () => {
    const of = publishedAtProfiles(
      [parent, child],
      new Map([['removed', { ownedName: 'old.example.com' }]]),
      changes,
      submittedAt,
      new Map([['parent.example.com', ['/change/C1']]]),
    );
    expect(of('parent')).toEqual({ changes: [changes[0]], changeIds: ['/change/C1'], submittedAt: T + 40 });
    expect(of('removed')).toEqual({ changes: [changes[1]], changeIds: [], submittedAt: T + 50 });
    expect(of('child')).toEqual({ changes: [changes[2]], changeIds: [] });
    expect(of('unknown')).toEqual({ changes: [], changeIds: [] });
  });

  it('without change ids given: none', () => {
    expect(publishedAtProfiles([parent], new Map(), changes, submittedAt)('parent').changeIds).toEqual([]);
  });
});

describe('transition timing once INSYNC', () => {
  it('without a run start, no detect → publish span', () => {
    const [record] = transitionRecords(input([endpointChange('parent', 'b', 'Online', 'Disabled')]));
    expect(withInSync(record!.timing, T + 30_000)).toMatchObject({
      inSyncAt: iso(T + 30_000),
      detectToPublishMs: null,
    });
  });
});
