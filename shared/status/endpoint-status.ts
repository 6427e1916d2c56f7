/**
 * The endpoint monitor status table (SPEC §4). Configuration decides first (profile
 * disabled, endpoint disabled, always serve); otherwise the endpoint is monitored and its
 * status comes from the probe regions (external) or from its child profile (nested, §6).
 */
import { type AggregateHealth, Health } from '../monitor/aggregate.js';
import type { Endpoint, Profile } from '../profile/types.js';
import { describeAuthor } from '../control/describe.js';
import { EndpointMonitorStatus } from './vocabulary.js';

export interface EndpointStatusDecision {
  readonly status: EndpointMonitorStatus;
  readonly reason: string;
  /** The status rests on stale data (kept from before). */
  readonly stale: boolean;
}

/** Statuses a monitored endpoint may keep while its probe data is stale. */
const HEALTH_STATUSES: ReadonlySet<EndpointMonitorStatus> = new Set([
  EndpointMonitorStatus.Online,
  EndpointMonitorStatus.Degraded,
  EndpointMonitorStatus.CheckingEndpoint,
]);

/**
 * The table's rows that need no monitoring; `undefined` for a monitored endpoint. An
 * endpoint Disabled is Disabled under any profile status; Inactive is the enabled
 * endpoints of a disabled profile.
 */
export function configuredEndpointStatus(
  profile: Profile,
  endpoint: Endpoint,
): EndpointStatusDecision | undefined {
  if (endpoint.endpointStatus === 'Disabled')
    return disabled(EndpointMonitorStatus.Disabled, 'endpoint', endpoint.runtime?.status);
  if (profile.profileStatus === 'Disabled')
    return disabled(EndpointMonitorStatus.Inactive, 'profile', profile.runtime?.status);
  if (endpoint.type === 'external' && endpoint.alwaysServe) {
    return {
      status: EndpointMonitorStatus.Unmonitored,
      reason: 'always serve: health checks off',
      stale: false,
    };
  }
  return undefined;
}

/** Disabled in the definitions, or at runtime by someone (named): either way not monitored. */
function disabled(
  status: EndpointStatusDecision['status'],
  what: 'endpoint' | 'profile',
  runtime: { readonly set: Parameters<typeof describeAuthor>[0] } | undefined,
): EndpointStatusDecision {
  const by = runtime === undefined ? '' : ` at runtime ${describeAuthor(runtime.set)}`;
  return { status, reason: `${what} disabled${by}: not monitored`, stale: false };
}

/**
 * A monitored external endpoint: up → Online, down → Degraded, checking →
 * CheckingEndpoint; stale → the previous monitored status is kept and flagged (fail static),
 * CheckingEndpoint when there is none.
 */
export function statusFromHealth(
  aggregate: Pick<AggregateHealth, 'health' | 'reason'>,
  previous: EndpointMonitorStatus | undefined,
): EndpointStatusDecision {
  const { reason } = aggregate;
  switch (aggregate.health) {
    case Health.Up:
      return { status: EndpointMonitorStatus.Online, reason, stale: false };
    case Health.Down:
      return { status: EndpointMonitorStatus.Degraded, reason, stale: false };
    case Health.Checking:
      return { status: EndpointMonitorStatus.CheckingEndpoint, reason, stale: false };
    case Health.Stale: {
      const kept =
        previous !== undefined && HEALTH_STATUSES.has(previous)
          ? previous
          : EndpointMonitorStatus.CheckingEndpoint;
      return { status: kept, reason: `${reason}; keeping ${kept}`, stale: true };
    }
  }
}
