/**
 * How long a transition took, and how long operators expect it to take.
 *
 * Measured, per transition: `firstFailedCheckAt` (start of the first check of the run that
 * led to it — a failing run, or for a recovery the passing run: `tm history` names it
 * `firstPassingCheckAt` then, see history/view.ts) → `decidedAt` (the evaluation that changed the status) → `changeSubmittedAt`
 * (Route 53 accepted the change) → `inSyncAt` (GetChange reported INSYNC);
 * `detectToPublishMs` = inSyncAt − firstFailedCheckAt.
 *
 * Expected: the formula `tm validate` prints for the profile (`failoverTime`), the same parts —
 * `(tolerated+1) × interval + timeout + publish + TTL` failing over, `N × interval + timeout +
 * publish + TTL` coming back (N = `requiredSuccessesToRecover`, 1 by default). The measured time
 * starts at the first check of the deciding run and ends at INSYNC, so it is compared with the
 * formula less the wait for that first check (one interval) and the TTL:
 * `expectedDetectToPublishMs`.
 */
import { decidingVote, Health, type RegionVote } from '../monitor/aggregate.js';
import { failoverTime, type FigureSettings } from '../monitor/failover-time.js';
import type { MonitorConfig, Profile, RegionQuorum } from '../profile/types.js';
import { EndpointMonitorStatus } from '../status/vocabulary.js';

export interface TransitionTiming {
  /** ISO 8601; null when no check led to the transition (configuration, first report, staleness). */
  readonly firstFailedCheckAt: string | null;
  readonly decidedAt: string;
  /** null when the transition changed no record. */
  readonly changeSubmittedAt: string | null;
  /** null while Route 53 reports the change PENDING, and when no record changed. */
  readonly inSyncAt: string | null;
  /** inSyncAt − firstFailedCheckAt, when both are known. */
  readonly detectToPublishMs: number | null;
  /** The worst case of the measured span: the formula less one interval and the TTL (null when it has none). */
  readonly expectedDetectToPublishMs: number | null;
  /** The formula of `tm validate`, e.g. "(3+1) × 30 s interval + 10 s timeout + 62 s publish + 30 s TTL = 222 s". */
  readonly expectedFormula: string | null;
}

/** Which way a transition went, for the formula: failing over, coming back, or neither. */
export type Direction = 'failing' | 'recovering' | undefined;

/**
 * Failing: into Degraded; recovering: into Online from another status (out of Degraded, or
 * the first decision after CheckingEndpoint). A change of the stale flag alone and the first
 * report (no status before) are neither. Endpoints and profiles share both names.
 */
export function directionOf(before: string | null | undefined, after: string): Direction {
  if (before === after) return undefined;
  if (after === EndpointMonitorStatus.Degraded) return 'failing';
  if (after === EndpointMonitorStatus.Online && before !== undefined && before !== null) return 'recovering';
  return undefined;
}

/**
 * Start of the run of checks that decided an external endpoint's new health: the deciding
 * region's run (the region whose vote tipped the endpoint; see `decidingVote`).
 */
export function runStartOf(
  votes: readonly RegionVote[],
  direction: Direction,
  quorum?: RegionQuorum,
): number | undefined {
  if (direction === undefined) return undefined;
  return decidingVote(votes, direction === 'failing' ? Health.Down : Health.Up, quorum)?.runStartedAt;
}

export interface Expected {
  readonly ms: number;
  readonly formula: string;
}

/**
 * The formula for a profile's monitor settings (`failoverTime`, as `tm validate` prints it) and
 * the worst case of the span a transition measures. `settings.timeScale` is the local stack's
 * `--time-scale` (1 in AWS): it multiplies the interval and the timeout, not publish or TTL.
 */
export function expectedDuration(
  monitor: MonitorConfig,
  ttlSeconds: number,
  direction: Exclude<Direction, undefined>,
  settings: FigureSettings,
): Expected {
  const time = failoverTime(monitor, ttlSeconds, direction, settings);
  return { ms: Math.round(time.detectToPublishSeconds * 1000), formula: time.formula };
}

/** The timing of a transition as it is decided; `inSyncAt` follows from `withInSync`. */
export function decidedTiming(input: {
  readonly firstFailedCheckAt: number | undefined;
  readonly decidedAt: number;
  readonly changeSubmittedAt: number | undefined;
  readonly expected: Expected | undefined;
}): TransitionTiming {
  return {
    firstFailedCheckAt: isoOrNull(input.firstFailedCheckAt),
    decidedAt: new Date(input.decidedAt).toISOString(),
    changeSubmittedAt: isoOrNull(input.changeSubmittedAt),
    inSyncAt: null,
    detectToPublishMs: null,
    expectedDetectToPublishMs: input.expected?.ms ?? null,
    expectedFormula: input.expected?.formula ?? null,
  };
}

/** The timing once Route 53 reported the change INSYNC at `inSyncAt` (epoch ms). */
export function withInSync(timing: TransitionTiming, inSyncAt: number): TransitionTiming {
  const first = timing.firstFailedCheckAt === null ? undefined : Date.parse(timing.firstFailedCheckAt);
  return {
    ...timing,
    inSyncAt: new Date(inSyncAt).toISOString(),
    detectToPublishMs: first === undefined ? null : inSyncAt - first,
  };
}

/** The profile whose monitor settings decide an endpoint: the child for a nested endpoint. */
export function monitorOf(profile: Profile, endpoint: string | undefined, profiles: readonly Profile[]) {
  const found = profile.endpoints.find((e) => e.name === endpoint);
  if (found?.type !== 'nested') return profile.monitorConfig;
  return profiles.find((p) => p.name === found.targetProfile)?.monitorConfig ?? profile.monitorConfig;
}

function isoOrNull(ms: number | undefined): string | null {
  return ms === undefined ? null : new Date(ms).toISOString();
}
