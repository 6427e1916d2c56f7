import { describe, expect, it } from 'vitest';
import type { Profile } from '../../shared/profile/types.js';
import { statusFromHealth } from '../../shared/status/endpoint-status.js';
import { evaluateProfiles, type ProfileStatusReport } from '../../shared/status/evaluate.js';
import type { EndpointMonitorStatus } from '../../shared/status/vocabulary.js';
import type { HeartbeatItem, VerdictItem } from '../../shared/state/items.js';
import { external, heartbeats, nested, profile, REGIONS, verdict } from './evaluate-fixtures.js';

const NOW = 10_000_000;
const [A, B, C] = REGIONS;

function statusOf(
  profiles: Profile[],
  verdicts: VerdictItem[] = [],
  previous: ReadonlyMap<string, ProfileStatusReport> = new Map(),
  beats: HeartbeatItem[] = heartbeats(NOW),
) {
  const [first] = evaluateProfiles({
    profiles,
    verdicts,
    heartbeats: beats,
    previous,
    defaultProbeRegions: [],
    now: NOW,
  });
  return first?.endpoints[0];
}

const shop = (fields: Partial<Profile> = {}, endpoint = external('east')) =>
  profile('shop', [endpoint], fields);

describe('endpoint monitor status table (SPEC §4)', () => {
  it('profile Disabled, endpoint Enabled → Inactive (not monitored)', () => {
    // Prepare: even with probe data saying up
    const p = shop({ profileStatus: 'Disabled' });
    // Act
    const report = statusOf([p], [verdict(p, 'east', A, 'up', 1)]);
    // Assess
    expect(report).toMatchObject({ status: 'Inactive', votes: [] });
  });

  it.each([
    { name: 'profile Enabled', profileStatus: 'Enabled' },
    { name: 'profile Disabled', profileStatus: 'Disabled' },
  ] as const)('any profile status ($name), endpoint Disabled → Disabled', ({ profileStatus }) => {
    // Prepare
    const p = shop({ profileStatus }, external('east', { endpointStatus: 'Disabled' }));
    // Act / Assess
    expect(statusOf([p], [verdict(p, 'east', A, 'up', 1)])).toMatchObject({ status: 'Disabled', votes: [] });
  });

  it('Enabled/Enabled, monitored and healthy → Online', () => {
    // Prepare
    const p = shop();
    // Act
    const report = statusOf(
      [p],
      REGIONS.map((r) => verdict(p, 'east', r, 'up', 1)),
    );
    // Assess
    expect(report).toMatchObject({ status: 'Online', stale: false });
  });

  it('Enabled/Enabled, health checks fail → Degraded', () => {
    // Prepare
    const p = shop();
    // Act
    const report = statusOf(
      [p],
      [verdict(p, 'east', A, 'down', 1), verdict(p, 'east', B, 'down', 2), verdict(p, 'east', C, 'up', 0)],
    );
    // Assess
    expect(report).toMatchObject({
      status: 'Degraded',
      reason: '4 consecutive failures (tolerated 3) in 2/3 regions',
    });
  });

  it('Enabled/Enabled, first results not yet in → CheckingEndpoint', () => {
    // Act
    const report = statusOf([shop()]);
    // Assess
    expect(report).toMatchObject({ status: 'CheckingEndpoint', stale: false });
  });

  it('Enabled/Enabled, nested child profile disabled → Stopped (not monitored)', () => {
    // Prepare
    const child = profile('child', [external('a')], { profileStatus: 'Disabled' });
    const parent = profile('shop', [nested('eu', 'child')]);
    // Act
    const report = statusOf([parent, child]);
    // Assess
    expect(report).toMatchObject({ status: 'Stopped', reason: 'child profile "child" is Disabled' });
  });

  it('Enabled/Enabled, always serve → Unmonitored (health checks off)', () => {
    // Prepare: probe data is ignored
    const p = shop({}, external('east', { alwaysServe: true }));
    // Act
    const report = statusOf([p], [verdict(p, 'east', A, 'down', 1)]);
    // Assess
    expect(report).toMatchObject({ status: 'Unmonitored', votes: [] });
  });

  it('always serve in a disabled profile → Inactive', () => {
    const p = shop({ profileStatus: 'Disabled' }, external('east', { alwaysServe: true }));
    expect(statusOf([p])?.status).toBe('Inactive');
  });
});

describe('fail static: stale probe data keeps the last status, flagged stale', () => {
  const silent = (at: number) => heartbeats(at - 3 * 60_000 - 1);

  it.each([
    { name: 'Online is kept', before: 'Online', kept: 'Online' },
    { name: 'Degraded is kept', before: 'Degraded', kept: 'Degraded' },
    { name: 'CheckingEndpoint is kept', before: 'CheckingEndpoint', kept: 'CheckingEndpoint' },
    {
      name: 'a status monitoring did not set (Disabled) is not kept: CheckingEndpoint',
      before: 'Disabled',
      kept: 'CheckingEndpoint',
    },
  ] as { name: string; before: EndpointMonitorStatus; kept: EndpointMonitorStatus }[])(
    '$name',
    ({ before, kept }) => {
      // Prepare: every region had decided down, and every region went silent
      const p = shop();
      const previous = new Map<string, ProfileStatusReport>([
        [
          'shop',
          {
            profile: 'shop',
            status: 'Online',
            since: 5,
            stale: false,
            endpoints: [{ endpoint: 'east', status: before, since: 5, reason: '', stale: false, votes: [] }],
          },
        ],
      ]);
      // Act
      const report = statusOf(
        [p],
        REGIONS.map((r) => verdict(p, 'east', r, 'down', 1)),
        previous,
        silent(NOW),
      );
      // Assess
      expect(report).toMatchObject({ status: kept, stale: true });
      expect(report?.reason).toMatch(/^no fresh probe data.*; keeping /);
    },
  );

  it('no previous status → CheckingEndpoint, flagged stale', () => {
    // Prepare
    const p = shop();
    // Act
    const report = statusOf([p], [verdict(p, 'east', C, 'up', 1)], new Map(), silent(NOW));
    // Assess
    expect(report).toMatchObject({ status: 'CheckingEndpoint', stale: true });
  });
});

describe('statusFromHealth', () => {
  it.each([
    { name: 'up → Online', health: 'up', status: 'Online', stale: false },
    { name: 'down → Degraded', health: 'down', status: 'Degraded', stale: false },
    { name: 'checking → CheckingEndpoint', health: 'checking', status: 'CheckingEndpoint', stale: false },
    { name: 'stale → previous kept', health: 'stale', status: 'Degraded', stale: true },
  ] as const)('$name', ({ health, status, stale }) => {
    expect(statusFromHealth({ health, reason: 'r' }, 'Degraded')).toMatchObject({ status, stale });
  });
});
