/** Small builders of normalized profiles (after defaults) for the planner and zone tests. */
import type {
  ExternalEndpoint,
  NestedEndpoint,
  Profile,
  RoutingMethod,
  SubnetRange,
} from '../../shared/profile/types.js';
import type { EndpointMonitorStatus } from '../../shared/status/vocabulary.js';

export const ZONE_ID = 'Z0EXAMPLE';
const UNSET_PRIORITY = 0;

type EndpointOptions = Partial<Omit<ExternalEndpoint, 'type' | 'subnets'>> & { subnets?: readonly string[] };

function kindOf(target: string): ExternalEndpoint['targetKind'] {
  if (target.includes(':')) return 'ipv6';
  return /^\d+\.\d+\.\d+\.\d+$/.test(target) ? 'ipv4' : 'hostname';
}

function rangesOf(subnets: readonly string[] | undefined): SubnetRange[] {
  return (subnets ?? []).map((source) => ({ source, cidrs: [source] }));
}

export function external(name: string, target: string, options: EndpointOptions = {}): ExternalEndpoint {
  return {
    type: 'external',
    name,
    target,
    targetKind: kindOf(target),
    alwaysServe: false,
    endpointStatus: 'Enabled',
    priority: UNSET_PRIORITY,
    weight: 1,
    endpointLocation: undefined,
    geoMapping: [],
    customHeaders: [],
    ...options,
    subnets: rangesOf(options.subnets),
  };
}

export function nested(
  name: string,
  targetProfile: string,
  options: Partial<Omit<NestedEndpoint, 'type' | 'subnets'>> & { subnets?: readonly string[] } = {},
): NestedEndpoint {
  return {
    type: 'nested',
    name,
    targetProfile,
    minChildEndpoints: 1,
    minChildEndpointsIPv4: undefined,
    minChildEndpointsIPv6: undefined,
    endpointStatus: 'Enabled',
    priority: UNSET_PRIORITY,
    weight: 1,
    endpointLocation: undefined,
    geoMapping: [],
    customHeaders: [],
    ...options,
    subnets: rangesOf(options.subnets),
  };
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
  return {
    name,
    profileStatus: options.status ?? 'Enabled',
    trafficRoutingMethod: method,
    dnsConfig: {
      zoneName: 'example.com',
      hostedZoneId: 'hostedZoneId' in options ? options.hostedZoneId : ZONE_ID,
      relativeName: name,
      ttl: options.ttl ?? 30,
      fqdn: `${name}.example.com`,
    },
    maxReturn: method === 'MultiValue' ? (options.maxReturn ?? 2) : undefined,
    monitorConfig: {
      protocol: 'HTTP',
      port: 80,
      path: '/',
      method: 'GET',
      intervalInSeconds: 30,
      timeoutInSeconds: 10,
      toleratedNumberOfFailures: 3,
      customHeaders: [],
      expectedStatusCodeRanges: [{ min: 200, max: 200 }],
      healthRule: { kind: 'consecutiveFailures' },
    },
    probeRegions: undefined,
    endpoints: endpoints.map((e, i) => (e.priority === UNSET_PRIORITY ? { ...e, priority: i + 1 } : e)),
  };
}

/** A status lookup from `{ 'profile/endpoint': status }`; everything else is Online. */
export function statuses(
  table: Readonly<Record<string, EndpointMonitorStatus>> = {},
  otherwise: EndpointMonitorStatus = 'Online',
): (profile: string, endpoint: string) => EndpointMonitorStatus {
  return (p, e) => table[`${p}/${e}`] ?? otherwise;
}
