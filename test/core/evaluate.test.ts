import { describe, expect, it } from 'vitest';
import { UnknownEndpointError } from '../../shared/status/errors.js';
import {
  endpointStatusLookup,
  evaluateProfiles,
  statusChanges,
  type EvaluationInput,
  type ProfileStatusReport,
} from '../../shared/status/evaluate.js';
import { external, heartbeats, profile, REGIONS, targetKey, verdict } from './evaluate-fixtures.js';

const [A, B, C] = REGIONS;
const shop = profile('shop', [external('east'), external('west')]);

function run(fields: Partial<EvaluationInput>): ProfileStatusReport[] {
  const now = fields.now ?? 1_000_000;
  return evaluateProfiles({
    profiles: [shop],
    verdicts: [],
    heartbeats: heartbeats(now),
    previous: new Map(),
    defaultProbeRegions: [],
    now,
    ...fields,
  });
}

const byName = (reports: readonly ProfileStatusReport[]) => new Map(reports.map((r) => [r.profile, r]));

describe('evaluateProfiles', () => {
  it('reports each external endpoint with its probe target and one vote per probe region', () => {
    // Act
    const [report] = run({ verdicts: [verdict(shop, 'east', A, 'up', 10)] });
    // Assess
    expect(report?.endpoints[0]).toMatchObject({
      endpoint: 'east',
      status: 'Online',
      targetKey: targetKey(shop, 'east'),
      votes: [
        { region: A, vote: 'up', since: 10 },
        { region: B, vote: 'undecided' },
        { region: C, vote: 'undecided' },
      ],
    });
  });

  it("uses the deployment's default probe regions for a profile without probeRegions", () => {
    // Prepare
    const p = profile('p', [external('e')], { probeRegions: undefined });
    // Act
    const [report] = run({
      profiles: [p],
      defaultProbeRegions: ['us-west-2'],
      heartbeats: heartbeats(1_000_000, ['us-west-2']),
    });
    // Assess
    expect(report?.endpoints[0]?.votes).toEqual([{ region: 'us-west-2', vote: 'undecided' }]);
  });

  it('endpoints of two profiles sharing a probe target share its verdicts (SPEC §7)', () => {
    // Prepare
    const other = profile('other', [external('east')]);
    // Act
    const reports = run({
      profiles: [shop, other],
      verdicts: REGIONS.map((r) => verdict(shop, 'east', r, 'down', 5)),
    });
    // Assess
    expect(reports.map((r) => r.endpoints[0]?.status)).toEqual(['Degraded', 'Degraded']);
  });

  describe('since', () => {
    it('first report of an undecided endpoint: now', () => {
      const [report] = run({ now: 500 });
      expect(report).toMatchObject({ since: 500, endpoints: [{ since: 500 }, { since: 500 }] });
    });

    it('a changed status begins with the verdict that decided it', () => {
      // Prepare
      const previous = byName(run({ now: 100 }));
      // Act
      const [report] = run({
        now: 900,
        previous,
        verdicts: REGIONS.map((r, i) => verdict(shop, 'east', r, 'down', 300 + i)),
      });
      // Assess: 2 of 3 down tipped it at 301
      expect(report?.endpoints[0]).toMatchObject({ status: 'Degraded', since: 301 });
      expect(report).toMatchObject({ status: 'Degraded', since: 301 });
    });

    it('never before the status it replaces began, never after now', () => {
      // Prepare
      const previous = byName(run({ now: 400 }));
      // Act
      const [early] = run({ now: 900, previous, verdicts: [verdict(shop, 'east', A, 'up', 50)] });
      const [future] = run({ now: 900, previous, verdicts: [verdict(shop, 'east', A, 'up', 5_000)] });
      // Assess
      expect(early?.endpoints[0]?.since).toBe(400);
      expect(future?.endpoints[0]?.since).toBe(900);
    });

    it('is kept while the status holds, so evaluating again yields identical reports (idempotence)', () => {
      // Prepare
      const verdicts = [verdict(shop, 'east', A, 'up', 10), verdict(shop, 'east', B, 'down', 20)];
      const first = run({ now: 1_000, verdicts });
      // Act
      const again = run({ now: 1_000, verdicts, previous: byName(first) });
      const later = run({ now: 61_000, verdicts, previous: byName(first) });
      // Assess
      expect(again).toEqual(first);
      expect(later).toEqual(first);
    });
  });

  it('an enabled profile without endpoints is Inactive since now', () => {
    const [report] = run({ profiles: [profile('empty', [])], now: 77 });
    expect(report).toEqual({ profile: 'empty', status: 'Inactive', since: 77, stale: false, endpoints: [] });
  });

  it('a profile is stale when any endpoint is', () => {
    // Prepare: east decided, then every region went silent
    const previous = byName(run({ verdicts: [verdict(shop, 'east', A, 'up', 10)], now: 1_000 }));
    // Act
    const [report] = run({
      previous,
      verdicts: [verdict(shop, 'east', A, 'up', 10)],
      now: 1_000_000,
      heartbeats: heartbeats(1_000),
    });
    // Assess
    expect(report).toMatchObject({
      stale: true,
      status: 'Online',
      endpoints: [
        { stale: true, status: 'Online' },
        { stale: false, status: 'CheckingEndpoint' },
      ],
    });
  });
});

describe('statusChanges', () => {
  it('first reports are changes from nothing, endpoints before their profile', () => {
    // Prepare
    const next = run({ now: 7 });
    // Act
    const changes = statusChanges(new Map(), next);
    // Assess
    expect(changes).toEqual([
      {
        profile: 'shop',
        endpoint: 'east',
        before: undefined,
        after: 'CheckingEndpoint',
        since: 7,
        reason: expect.any(String),
        staleBefore: undefined,
        stale: false,
        votes: expect.any(Array),
      },
      {
        profile: 'shop',
        endpoint: 'west',
        before: undefined,
        after: 'CheckingEndpoint',
        since: 7,
        reason: expect.any(String),
        staleBefore: undefined,
        stale: false,
        votes: expect.any(Array),
      },
      {
        profile: 'shop',
        endpoint: undefined,
        before: undefined,
        after: 'CheckingEndpoints',
        since: 7,
        reason: '2 CheckingEndpoint',
        staleBefore: undefined,
        stale: false,
        votes: [],
      },
    ]);
  });

  it('nothing changed → no changes', () => {
    const first = run({});
    expect(statusChanges(byName(first), run({ previous: byName(first) }))).toEqual([]);
  });

  it('lists an endpoint going Degraded with its reason and votes, and the profile change', () => {
    // Prepare
    const before = byName(run({ verdicts: REGIONS.map((r) => verdict(shop, 'east', r, 'up', 1)) }));
    const verdicts = REGIONS.map((r) => verdict(shop, 'east', r, 'down', 2));
    // Act
    const changes = statusChanges(before, run({ verdicts, previous: before }));
    // Assess
    expect(changes).toMatchObject([
      {
        endpoint: 'east',
        before: 'Online',
        after: 'Degraded',
        reason: '4 consecutive failures (tolerated 3) in 3/3 regions',
        votes: [{ vote: 'down' }, { vote: 'down' }, { vote: 'down' }],
      },
      { endpoint: undefined, before: 'Online', after: 'Degraded', reason: '1 Degraded, 1 CheckingEndpoint' },
    ]);
  });

  it('lists a change of the stale flag alone (fail static raises an event)', () => {
    // Prepare
    const verdicts = [verdict(shop, 'east', A, 'up', 1)];
    const before = byName(run({ verdicts, now: 1_000 }));
    // Act
    const changes = statusChanges(
      before,
      run({ verdicts, previous: before, now: 1_000_000, heartbeats: heartbeats(1_000) }),
    );
    // Assess
    expect(changes).toMatchObject([
      { endpoint: 'east', before: 'Online', after: 'Online', staleBefore: false, stale: true },
      { endpoint: undefined, before: 'Online', after: 'Online', staleBefore: false, stale: true },
    ]);
  });

  it('an endpoint or profile no longer reported yields nothing', () => {
    // Prepare
    const before = byName(run({}));
    const slimmer = profile('shop', [external('east')]);
    // Act / Assess
    expect(statusChanges(before, run({ profiles: [slimmer], previous: before }))).toEqual([]);
    expect(statusChanges(before, [])).toEqual([]);
  });
});

describe('endpointStatusLookup', () => {
  it('answers the status of profile/endpoint for the routing planner', () => {
    // Prepare
    const lookup = endpointStatusLookup(run({ verdicts: [verdict(shop, 'west', A, 'down', 1)] }));
    // Act / Assess
    expect(lookup('shop', 'west')).toBe('Degraded');
    expect(lookup('shop', 'east')).toBe('CheckingEndpoint');
  });

  it('refuses an endpoint the reports do not cover', () => {
    const lookup = endpointStatusLookup(run({}));
    expect(() => lookup('shop', 'north')).toThrow(UnknownEndpointError);
    expect(() => lookup('other', 'east')).toThrow('no status for endpoint "other/east"');
  });
});
