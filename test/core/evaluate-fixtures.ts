/** Builders of normalized profiles, verdicts and heartbeats for the status-core tests. */
import { probeTargetOf } from '../../shared/probe/target.js';
import type { ExternalEndpoint, MonitorConfig, NestedEndpoint, Profile } from '../../shared/profile/types.js';
import type { HeartbeatItem, VerdictItem } from '../../shared/state/items.js';
import type { RegionVerdict } from '../../shared/status/vocabulary.js';

export const REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-1'] as const;
export const PERIOD_MS = 60_000;

export const monitor: MonitorConfig = {
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
};

export function external(name: string, fields: Partial<ExternalEndpoint> = {}): ExternalEndpoint {
  return {
    type: 'external',
    name,
    endpointStatus: 'Enabled',
    priority: 1,
    weight: 1,
    endpointLocation: undefined,
    geoMapping: [],
    subnets: [],
    customHeaders: [],
    target: `${name}.example.net`,
    targetKind: 'hostname',
    alwaysServe: false,
    ...fields,
  };
}

export function nested(
  name: string,
  targetProfile: string,
  fields: Partial<NestedEndpoint> = {},
): NestedEndpoint {
  return {
    type: 'nested',
    name,
    endpointStatus: 'Enabled',
    priority: 1,
    weight: 1,
    endpointLocation: undefined,
    geoMapping: [],
    subnets: [],
    customHeaders: [],
    targetProfile,
    minChildEndpoints: 1,
    minChildEndpointsIPv4: undefined,
    minChildEndpointsIPv6: undefined,
    ...fields,
  };
}

export function profile(
  name: string,
  endpoints: Profile['endpoints'],
  fields: Partial<Profile> = {},
): Profile {
  return {
    name,
    profileStatus: 'Enabled',
    trafficRoutingMethod: 'Priority',
    dnsConfig: {
      zoneName: 'example.com',
      hostedZoneId: 'Z1',
      relativeName: name,
      ttl: 30,
      fqdn: `${name}.example.com`,
    },
    maxReturn: undefined,
    monitorConfig: monitor,
    probeRegions: [...REGIONS],
    endpoints,
    ...fields,
  };
}

export function targetKey(p: Profile, endpointName: string): string {
  const endpoint = p.endpoints.find((e) => e.name === endpointName);
  if (endpoint?.type !== 'external') throw new Error(`no external endpoint ${endpointName}`);
  return probeTargetOf(p, endpoint).key;
}

export function verdict(
  p: Profile,
  endpointName: string,
  region: string,
  value: RegionVerdict,
  since: number,
  detail = value === 'up' ? 'check succeeded' : '4 consecutive failures (tolerated 3)',
): VerdictItem {
  return { targetKey: targetKey(p, endpointName), region, verdict: value, since, checkedAt: since, detail };
}

export function heartbeat(region: string, at: number, periodMs = PERIOD_MS): HeartbeatItem {
  return { region, at, targets: 1, periodMs, checkpoint: {} };
}

/** Fresh heartbeats of every region at `at`. */
export function heartbeats(at: number, regions: readonly string[] = REGIONS): HeartbeatItem[] {
  return regions.map((r) => heartbeat(r, at));
}
