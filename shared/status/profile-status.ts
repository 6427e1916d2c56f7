/**
 * The profile monitor status table (SPEC §4). Unmonitored (always-serve) endpoints count
 * as Online: they are served and nothing says they are unhealthy, so a profile of
 * Unmonitored endpoints only is Online (docs/adr/0003-statuses-and-staleness.md).
 */
import type { ConfiguredStatus } from '../profile/types.js';
import { EndpointMonitorStatus, ProfileMonitorStatus } from './vocabulary.js';

export function profileMonitorStatus(
  profileStatus: ConfiguredStatus,
  endpointStatuses: readonly EndpointMonitorStatus[],
): ProfileMonitorStatus {
  if (profileStatus === 'Disabled') return ProfileMonitorStatus.Disabled;
  const has = (status: EndpointMonitorStatus) => endpointStatuses.includes(status);
  if (has(EndpointMonitorStatus.Degraded)) return ProfileMonitorStatus.Degraded;
  if (has(EndpointMonitorStatus.Online) || has(EndpointMonitorStatus.Unmonitored))
    return ProfileMonitorStatus.Online;
  if (has(EndpointMonitorStatus.CheckingEndpoint)) return ProfileMonitorStatus.CheckingEndpoints;
  // All Disabled / Stopped (or no endpoints): nothing is served.
  return ProfileMonitorStatus.Inactive;
}

/** "1 Degraded, 2 Online" — the endpoint statuses behind a profile status, for history and events. */
export function describeEndpointStatuses(endpointStatuses: readonly EndpointMonitorStatus[]): string {
  if (endpointStatuses.length === 0) return 'no endpoints';
  const counts = new Map<EndpointMonitorStatus, number>();
  for (const status of endpointStatuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count} ${status}`).join(', ');
}
