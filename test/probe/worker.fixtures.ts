/** Builders shared by the probe planning, worker and handler tests. */
import type { ProbeResult } from '../../shared/probe/result.js';
import type { PlannedTarget, ProbeTarget } from '../../shared/probe/target.js';
import type { ExternalEndpoint, MonitorConfig, NestedEndpoint, Profile } from '../../shared/profile/types.js';
import {
  externalEndpoint,
  monitorConfig,
  nestedEndpoint,
  profile as buildProfile,
} from '../support/profiles.js';

export function monitor(overrides: Partial<MonitorConfig> = {}): MonitorConfig {
  return monitorConfig({ path: '/health', ...overrides });
}

export function external(
  name: string,
  target: string,
  overrides: Partial<ExternalEndpoint> = {},
): ExternalEndpoint {
  return externalEndpoint({ name, target, targetKind: 'hostname', ...overrides });
}

export function nested(name: string, targetProfile: string): NestedEndpoint {
  return nestedEndpoint({ name, targetProfile });
}

export function profile(name: string, overrides: Partial<Profile> = {}): Profile {
  return buildProfile({ name, monitorConfig: monitor(), ...overrides });
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
