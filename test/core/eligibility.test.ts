import { describe, expect, it } from 'vitest';
import { servesAllDegraded } from '../../shared/routing/eligibility.js';
import type { EndpointMonitorStatus } from '../../shared/status/vocabulary.js';

describe('servesAllDegraded (the all-degraded rule is what DNS serves)', () => {
  it.each<{ name: string; statuses: EndpointMonitorStatus[]; expected: boolean }>([
    { name: 'every endpoint Degraded', statuses: ['Degraded', 'Degraded'], expected: true },
    {
      name: 'every eligible endpoint Degraded; Disabled and Stopped are not eligible',
      statuses: ['Degraded', 'Disabled', 'Stopped'],
      expected: true,
    },
    { name: 'one endpoint Online', statuses: ['Degraded', 'Online'], expected: false },
    {
      name: 'one endpoint still CheckingEndpoint',
      statuses: ['Degraded', 'CheckingEndpoint'],
      expected: false,
    },
    {
      name: 'one endpoint Unmonitored (always served)',
      statuses: ['Degraded', 'Unmonitored'],
      expected: false,
    },
    { name: 'no eligible endpoint at all', statuses: ['Disabled', 'Inactive'], expected: false },
    { name: 'no endpoints', statuses: [], expected: false },
  ])('$name → $expected', ({ statuses, expected }) => {
    expect(servesAllDegraded(statuses)).toBe(expected);
  });
});
