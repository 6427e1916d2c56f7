/**
 * Builders of normalized profiles (what `parseDefinitions` produces after defaults) for tests
 * and benchmarks, and `profileDefinition` for the definitions format (shared with the local demo). Every field the definition format defaults comes from `DEFAULTS`; the rest
 * (names, zone, hosted zone id, priority 1) are plain test values the caller can override.
 */
import { DEFAULTS } from '../../shared/profile/defaults.js';
import { EXAMPLE_ZONE } from '../../shared/profile/profile-definition.js';
import type {
  DnsConfig,
  ExternalEndpoint,
  MonitorConfig,
  NestedEndpoint,
  ProbeProtocol,
  Profile,
} from '../../shared/profile/types.js';

export {
  EXAMPLE_ZONE,
  profileDefinition,
  type ProfileDefinitionFields,
} from '../../shared/profile/profile-definition.js';

export const TEST_HOSTED_ZONE_ID = 'Z1';

function defaultPortOf(protocol: ProbeProtocol): number {
  if (protocol === 'TCP') throw new Error('a TCP monitor has no default port: pass one');
  return DEFAULTS.port[protocol];
}

/** The default monitor, with the protocol- and interval-dependent defaults following the overrides. */
export function monitorConfig(overrides: Partial<MonitorConfig> = {}): MonitorConfig {
  const protocol = overrides.protocol ?? DEFAULTS.protocol;
  const intervalInSeconds = overrides.intervalInSeconds ?? DEFAULTS.intervalInSeconds;
  const http = protocol !== 'TCP';
  return {
    protocol,
    port: overrides.port ?? defaultPortOf(protocol),
    path: http ? DEFAULTS.path : undefined,
    method: DEFAULTS.method,
    intervalInSeconds,
    timeoutInSeconds: DEFAULTS.timeoutInSeconds[intervalInSeconds],
    toleratedNumberOfFailures: DEFAULTS.toleratedNumberOfFailures,
    customHeaders: [],
    expectedStatusCodeRanges: http ? DEFAULTS.expectedStatusCodeRanges : [],
    healthRule: DEFAULTS.healthRule,
    ...overrides,
  };
}

/** What a target literal is, as the schema decides it. */
export function targetKindOf(target: string): ExternalEndpoint['targetKind'] {
  if (target.includes(':')) return 'ipv6';
  return /^\d+\.\d+\.\d+\.\d+$/.test(target) ? 'ipv4' : 'hostname';
}

const endpointDefaults = {
  endpointStatus: DEFAULTS.endpointStatus,
  priority: 1,
  weight: DEFAULTS.weight,
  endpointLocation: undefined,
  geoMapping: [],
  subnets: [],
  customHeaders: [],
} as const;

export type ExternalEndpointOverrides = Partial<ExternalEndpoint> & Pick<ExternalEndpoint, 'name' | 'target'>;

/** An external endpoint; `targetKind` follows `target` unless given. */
export function externalEndpoint(overrides: ExternalEndpointOverrides): ExternalEndpoint {
  return {
    ...endpointDefaults,
    type: 'external',
    targetKind: targetKindOf(overrides.target),
    alwaysServe: DEFAULTS.alwaysServe,
    ...overrides,
  };
}

export type NestedEndpointOverrides = Partial<NestedEndpoint> &
  Pick<NestedEndpoint, 'name' | 'targetProfile'>;

export function nestedEndpoint(overrides: NestedEndpointOverrides): NestedEndpoint {
  return {
    ...endpointDefaults,
    type: 'nested',
    minChildEndpoints: DEFAULTS.minChildEndpoints,
    minChildEndpointsIPv4: undefined,
    minChildEndpointsIPv6: undefined,
    ...overrides,
  };
}

export type ProfileOverrides = Partial<Omit<Profile, 'dnsConfig'>> &
  Pick<Profile, 'name'> & { readonly dnsConfig?: Partial<DnsConfig> };

/**
 * A Priority profile named `name` at `<name>.example.com` (hosted zone `Z1`) with the default
 * monitor and no endpoints; `dnsConfig` overrides merge into that (the FQDN follows them).
 */
export function profile(overrides: ProfileOverrides): Profile {
  const { dnsConfig: dns = {}, ...fields } = overrides;
  const method = fields.trafficRoutingMethod ?? 'Priority';
  const zoneName = dns.zoneName ?? EXAMPLE_ZONE;
  const relativeName = dns.relativeName ?? fields.name;
  return {
    profileStatus: DEFAULTS.profileStatus,
    trafficRoutingMethod: method,
    maxReturn: method === 'MultiValue' ? DEFAULTS.maxReturn : undefined,
    monitorConfig: monitorConfig(),
    probeRegions: undefined,
    staticFailover: DEFAULTS.staticFailover,
    endpoints: [],
    ...fields,
    dnsConfig: {
      zoneName,
      hostedZoneId: TEST_HOSTED_ZONE_ID,
      relativeName,
      ttl: DEFAULTS.ttl,
      fqdn: `${relativeName}.${zoneName}`,
      ...dns,
    },
  };
}
