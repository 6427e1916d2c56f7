/** Builders shared by the probe planning, worker and handler tests. */
import type { ProbeResult } from '../../shared/probe/result.js';
import type { PlannedTarget, ProbeTarget } from '../../shared/probe/target.js';
import type { ExternalEndpoint, MonitorConfig, NestedEndpoint, Profile } from '../../shared/profile/types.js';

export function monitor(overrides: Partial<MonitorConfig> = {}): MonitorConfig {
  return {
    protocol: 'HTTP',
    port: 80,
    path: '/health',
    method: 'GET',
    intervalInSeconds: 30,
    timeoutInSeconds: 10,
    toleratedNumberOfFailures: 3,
    customHeaders: [],
    expectedStatusCodeRanges: [{ min: 200, max: 200 }],
    healthRule: { kind: 'consecutiveFailures' },
    ...overrides,
  };
}

export function external(
  name: string,
  target: string,
  overrides: Partial<ExternalEndpoint> = {},
): ExternalEndpoint {
  return {
    type: 'external',
    name,
    target,
    targetKind: 'hostname',
    alwaysServe: false,
    endpointStatus: 'Enabled',
    priority: 1,
    weight: 1,
    endpointLocation: undefined,
    geoMapping: [],
    subnets: [],
    customHeaders: [],
    ...overrides,
  };
}

export function nested(name: string, targetProfile: string): NestedEndpoint {
  return {
    type: 'nested',
    name,
    targetProfile,
    minChildEndpoints: 1,
    minChildEndpointsIPv4: undefined,
    minChildEndpointsIPv6: undefined,
    endpointStatus: 'Enabled',
    priority: 1,
    weight: 1,
    endpointLocation: undefined,
    geoMapping: [],
    subnets: [],
    customHeaders: [],
  };
}

export function profile(name: string, overrides: Partial<Profile> = {}): Profile {
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
    monitorConfig: monitor(),
    probeRegions: undefined,
    endpoints: [],
    ...overrides,
  };
}

/** A planned target probed every round (interval = round period) at offset 0. */
export function planned(key: string, overrides: Partial<PlannedTarget> = {}): PlannedTarget {
  return {
    key,
    protocol: 'HTTP',
    host: `${key}.example.net`,
    port: 80,
    path: '/',
    method: 'GET',
    headers: [],
    expectedStatusCodeRanges: [{ min: 200, max: 200 }],
    timeoutMs: 9_000,
    healthRule: { kind: 'consecutiveFailures' },
    toleratedNumberOfFailures: 2,
    intervalMs: 10_000,
    offsetMs: 0,
    servedEndpoints: [{ profile: 'p', endpoint: key }],
    ...overrides,
  };
}

/** A clock the test moves by hand. */
export function fakeClock(start = 1_700_000_000_000) {
  let now = start;
  return { now: () => now, set: (t: number) => (now = t), advance: (ms: number) => (now += ms) };
}

/** A prober whose answer per target key the test sets; unknown keys succeed. Counts calls. */
export function scriptedProber(clock: { now(): number }) {
  const down = new Set<string>();
  let calls = 0;
  const prober = async (target: ProbeTarget): Promise<ProbeResult> => {
    calls++;
    const startedAt = clock.now();
    return down.has(target.key)
      ? { ok: false, reason: 'timeout', detail: 'no answer', startedAt, timings: {}, latencyMs: undefined }
      : { ok: true, startedAt, timings: { lastByte: 3 }, latencyMs: 3, statusCode: 200 };
  };
  return { prober, down, calls: () => calls };
}

/** A sleep that returns at once (rounds run instantly under a fake clock). */
export const noSleep = async (): Promise<void> => undefined;
