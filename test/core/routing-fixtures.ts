/** Small builders of normalized profiles (after defaults) for the planner and zone tests. */
import type {
  ExternalEndpoint,
  NestedEndpoint,
  Profile,
  RoutingMethod,
  SubnetRange,
} from '../../shared/profile/types.js';
import type { EndpointMonitorStatus } from '../../shared/status/vocabulary.js';
import { externalEndpoint, nestedEndpoint, profile as buildProfile } from '../support/profiles.js';

export const ZONE_ID = 'Z0EXAMPLE';
const UNSET_PRIORITY = 0;

type EndpointOptions = Partial<Omit<ExternalEndpoint, 'type' | 'subnets'>> & { subnets?: readonly string[] };

function rangesOf(subnets: readonly string[] | undefined): SubnetRange[] {
  return (subnets ?? []).map((source) => ({ source, cidrs: [source] }));
}

export function external(name: string, target: string, options: EndpointOptions = {}): ExternalEndpoint {
  return externalEndpoint({
    name,
    target,
    priority: UNSET_PRIORITY,
    ...options,
    subnets: rangesOf(options.subnets),
  });
}

export function nested(
  name: string,
  targetProfile: string,
  options: Partial<Omit<NestedEndpoint, 'type' | 'subnets'>> & { subnets?: readonly string[] } = {},
): NestedEndpoint {
  return nestedEndpoint({
    name,
    targetProfile,
    priority: UNSET_PRIORITY,
    ...options,
    subnets: rangesOf(options.subnets),
  });
}

export interface ProfileOptions {
  readonly method?: RoutingMethod;
  readonly status?: 'Enabled' | 'Disabled';
  readonly ttl?: number;
  readonly maxReturn?: number;
  readonly hostedZoneId?: string | undefined;
}

/** Endpoints get priorities 1, 2, 3… in list order unless they set one. */
export function profile(
  name: string,
  endpoints: readonly (ExternalEndpoint | NestedEndpoint)[],
  options: ProfileOptions = {},
): Profile {
  const method = options.method ?? 'Priority';
  return buildProfile({
    name,
    profileStatus: options.status ?? 'Enabled',
    trafficRoutingMethod: method,
    dnsConfig: {
      hostedZoneId: 'hostedZoneId' in options ? options.hostedZoneId : ZONE_ID,
      ...(options.ttl === undefined ? {} : { ttl: options.ttl }),
    },
    maxReturn: method === 'MultiValue' ? (options.maxReturn ?? 2) : undefined,
    endpoints: endpoints.map((e, i) => (e.priority === UNSET_PRIORITY ? { ...e, priority: i + 1 } : e)),
  });
}

/** A status lookup from `{ 'profile/endpoint': status }`; everything else is Online. */
export function statuses(
  table: Readonly<Record<string, EndpointMonitorStatus>> = {},
  otherwise: EndpointMonitorStatus = 'Online',
): (profile: string, endpoint: string) => EndpointMonitorStatus {
  return (p, e) => table[`${p}/${e}`] ?? otherwise;
}
