import { describe, expect, it } from 'vitest';
import type { ConfiguredStatus } from '../../shared/profile/types.js';
import { describeEndpointStatuses, profileMonitorStatus } from '../../shared/status/profile-status.js';
import type { EndpointMonitorStatus, ProfileMonitorStatus } from '../../shared/status/vocabulary.js';

describe('profile monitor status table (SPEC §4)', () => {
  it.each([
    {
      name: 'Disabled profile, any endpoint statuses → Disabled',
      profileStatus: 'Disabled',
      endpoints: ['Inactive', 'Disabled'],
      expected: 'Disabled',
    },
    {
      name: 'Disabled profile, no endpoints → Disabled',
      profileStatus: 'Disabled',
      endpoints: [],
      expected: 'Disabled',
    },
    {
      name: 'Enabled, at least one Degraded → Degraded',
      profileStatus: 'Enabled',
      endpoints: ['Online', 'Degraded', 'CheckingEndpoint'],
      expected: 'Degraded',
    },
    {
      name: 'Enabled, all Degraded → Degraded (visible to the operator even when served best effort)',
      profileStatus: 'Enabled',
      endpoints: ['Degraded', 'Degraded'],
      expected: 'Degraded',
    },
    {
      name: 'Enabled, at least one Online, none Degraded → Online',
      profileStatus: 'Enabled',
      endpoints: ['Online', 'CheckingEndpoint', 'Disabled', 'Stopped'],
      expected: 'Online',
    },
    {
      name: 'Enabled, at least one CheckingEndpoint, none Online or Degraded → CheckingEndpoints',
      profileStatus: 'Enabled',
      endpoints: ['CheckingEndpoint', 'Disabled', 'Stopped'],
      expected: 'CheckingEndpoints',
    },
    {
      name: 'Enabled, all Disabled or Stopped → Inactive',
      profileStatus: 'Enabled',
      endpoints: ['Disabled', 'Stopped'],
      expected: 'Inactive',
    },
    {
      name: 'Enabled, no endpoints → Inactive',
      profileStatus: 'Enabled',
      endpoints: [],
      expected: 'Inactive',
    },
    {
      name: 'decision: Enabled, Unmonitored only → Online',
      profileStatus: 'Enabled',
      endpoints: ['Unmonitored', 'Unmonitored'],
      expected: 'Online',
    },
    {
      name: 'decision: Unmonitored counts as Online, so Unmonitored + CheckingEndpoint → Online',
      profileStatus: 'Enabled',
      endpoints: ['Unmonitored', 'CheckingEndpoint'],
      expected: 'Online',
    },
    {
      name: 'decision: Unmonitored + Degraded → Degraded',
      profileStatus: 'Enabled',
      endpoints: ['Unmonitored', 'Degraded'],
      expected: 'Degraded',
    },
  ] as {
    name: string;
    profileStatus: ConfiguredStatus;
    endpoints: EndpointMonitorStatus[];
    expected: ProfileMonitorStatus;
  }[])('$name', ({ profileStatus, endpoints, expected }) => {
    expect(profileMonitorStatus(profileStatus, endpoints)).toBe(expected);
  });

  it.each([
    {
      name: 'counts each status in order of first appearance',
      statuses: ['Online', 'Degraded', 'Online'],
      text: '2 Online, 1 Degraded',
    },
    { name: 'says when there are no endpoints', statuses: [], text: 'no endpoints' },
  ] as { name: string; statuses: EndpointMonitorStatus[]; text: string }[])(
    'describeEndpointStatuses $name',
    ({ statuses, text }) => {
      expect(describeEndpointStatuses(statuses)).toBe(text);
    },
  );
});
