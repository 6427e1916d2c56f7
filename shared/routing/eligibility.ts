/**
 * Which endpoints may answer (SPEC §4/§5): eligible = not Disabled / Stopped / Inactive;
 * available = Online, CheckingEndpoint, Unmonitored; when no eligible endpoint is
 * available the eligible (all Degraded) ones are served "best effort".
 */
import type { Endpoint } from '../profile/types.js';
import { AVAILABLE_STATUSES, EndpointMonitorStatus } from '../status/vocabulary.js';

export interface RankedEndpoint {
  readonly endpoint: Endpoint;
  readonly status: EndpointMonitorStatus;
}

const NOT_ELIGIBLE: ReadonlySet<EndpointMonitorStatus> = new Set([
  EndpointMonitorStatus.Disabled,
  EndpointMonitorStatus.Stopped,
  EndpointMonitorStatus.Inactive,
]);

/** A configured-Disabled endpoint is never eligible, whatever status it was given. */
function isEligible(ranked: RankedEndpoint): boolean {
  return ranked.endpoint.endpointStatus === 'Enabled' && !NOT_ELIGIBLE.has(ranked.status);
}

export function eligibleEndpoints(ranked: readonly RankedEndpoint[]): RankedEndpoint[] {
  return ranked.filter(isEligible);
}

/** The endpoints a failover method (Priority, Weighted, Performance, MultiValue) serves. */
export function servedWithFailover(ranked: readonly RankedEndpoint[]): RankedEndpoint[] {
  const eligible = eligibleEndpoints(ranked);
  const available = eligible.filter((r) => AVAILABLE_STATUSES.has(r.status));
  return available.length > 0 ? available : eligible;
}

/**
 * True when the "all degraded" rule is what DNS serves: at least one endpoint is eligible and
 * every eligible one is Degraded, so all of them are answered best effort.
 */
export function servesAllDegraded(statuses: readonly EndpointMonitorStatus[]): boolean {
  const eligible = statuses.filter((status) => !NOT_ELIGIBLE.has(status));
  return eligible.length > 0 && eligible.every((status) => status === EndpointMonitorStatus.Degraded);
}

/** Endpoints in priority order (ties, which validation forbids, keep list order: the sort is stable). */
export function byPriority(endpoints: readonly Endpoint[]): Endpoint[] {
  return endpoints.toSorted((a, b) => a.priority - b.priority);
}
