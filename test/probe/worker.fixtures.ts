/** Builders shared by the probe planning, worker and handler tests. */
import type { PeerCertificate } from '../../shared/probe/certificate.js';
import type { ProbeObservation } from '../../shared/probe/result.js';
import type { PlannedJudge, PlannedProbe, Prober } from '../../shared/probe/target.js';
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

/** The settings of a one-judge probe: what is sent and how it is judged, flattened. */
export type PlannedFields = Partial<Omit<PlannedProbe, 'judges'> & Omit<PlannedJudge, 'key'>>;

/**
 * A planned probe with one judge (whose verdict key is `key` too), probed every round
 * (interval = round period) at offset 0 unless told otherwise.
 */
export function planned(key: string, overrides: PlannedFields = {}): PlannedProbe {
  const judge: PlannedJudge = {
    key,
    timeoutMs: overrides.timeoutMs ?? 9_000,
    expectedStatusCodeRanges: overrides.expectedStatusCodeRanges ?? [{ min: 200, max: 200 }],
    healthRule: overrides.healthRule ?? { kind: 'consecutiveFailures' },
    toleratedNumberOfFailures: overrides.toleratedNumberOfFailures ?? 2,
    intervalMs: overrides.intervalMs ?? 10_000,
    servedEndpoints: overrides.servedEndpoints ?? [{ profile: 'p', endpoint: key }],
    ...(overrides.freshAfter === undefined ? {} : { freshAfter: overrides.freshAfter }),
  };
  return shared(key, [judge], overrides);
}

/** A planned probe judged by several judges (e.g. a 10 s and a 30 s profile sharing the endpoint). */
export function shared(
  key: string,
  judges: readonly PlannedJudge[],
  overrides: Partial<Omit<PlannedProbe, 'judges'>> = {},
): PlannedProbe {
  return {
    key,
    protocol: overrides.protocol ?? 'HTTP',
    host: overrides.host ?? `${key}.example.net`,
    port: overrides.port ?? 80,
    path: overrides.path ?? '/',
    method: overrides.method ?? 'GET',
    headers: overrides.headers ?? [],
    intervalMs: overrides.intervalMs ?? Math.min(...judges.map((j) => j.intervalMs)),
    offsetMs: overrides.offsetMs ?? 0,
    judges,
  };
}

/** A clock the test moves by hand. */
export function fakeClock(start = 1_700_000_000_000) {
  let now = start;
  return { now: () => now, set: (t: number) => (now = t), advance: (ms: number) => (now += ms) };
}

/**
 * A prober whose answer per request key the test sets: `down` keys time out (after the
 * probe's timeout), `durations` keys answer 200 after that many ms; others answer 200 in
 * 3 ms. Counts calls and records the timeout each probe ran with.
 */
export function scriptedProber(clock: { now(): number }) {
  const down = new Set<string>();
  const durations = new Map<string, number>();
  /** HTTPS: the certificate a request's endpoint presents. */
  const certificates = new Map<string, PeerCertificate>();
  /** The body each request key answers (default `ok`), seen by requests that keep it. */
  const bodies = new Map<string, string>();
  const timeouts: number[] = [];
  let calls = 0;
  const prober: Prober = async (request, timeoutMs) => {
    calls++;
    timeouts.push(timeoutMs);
    const startedAt = clock.now();
    if (down.has(request.key)) {
      return {
        answered: false,
        reason: 'timeout',
        detail: 'no answer',
        startedAt,
        durationMs: timeoutMs,
        timeoutMs,
        timings: {},
        latencyMs: undefined,
      };
    }
    const durationMs = durations.get(request.key) ?? 3;
    return {
      answered: true,
      startedAt,
      durationMs,
      timeoutMs,
      timings: { lastByte: durationMs },
      latencyMs: durationMs,
      statusCode: 200,
      ...(certificates.has(request.key) ? { certificate: certificates.get(request.key)! } : {}),
      ...(request.keepsBody === true ? { body: textBody(bodies.get(request.key) ?? 'ok') } : {}),
    };
  };
  return { prober, down, durations, certificates, bodies, timeouts, calls: () => calls };
}

function textBody(text: string) {
  return { text, bytes: Buffer.byteLength(text), capped: false };
}

/** A 200 answer to a probe started at `startedAt`, `durationMs` long. */
export function answered(startedAt: number, timeoutMs: number, durationMs = 1): ProbeObservation {
  return {
    answered: true,
    startedAt,
    durationMs,
    timeoutMs,
    timings: {},
    latencyMs: durationMs,
    statusCode: 200,
  };
}

/** A sleep that returns at once (rounds run instantly under a fake clock). */
export const noSleep = async (): Promise<void> => undefined;
