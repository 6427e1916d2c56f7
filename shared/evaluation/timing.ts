/**
 * How long a transition took, and how long operators expect it to take.
 *
 * Measured, per transition: `firstFailedCheckAt` (start of the first check of the run that
 * led to it — a failing run, or for a recovery the passing run: `tm history` names it
 * `firstPassingCheckAt` then, see history/view.ts) → `decidedAt` (the evaluation that changed the status) → `changeSubmittedAt`
 * (Route 53 accepted the change) → `inSyncAt` (GetChange reported INSYNC);
 * `detectToPublishMs` = inSyncAt − firstFailedCheckAt.
 *
 * Expected: the operators' formula — failing over `(tolerated+1) × interval + timeout + TTL`,
 * coming back `N × interval + timeout + TTL` (N = `requiredSuccessesToRecover`, 1 by default) — a worst case that also counts the wait for
 * the first check after the outage and the resolvers' TTL, so a measured detect → publish
 * normally stays below it.
 */
import { decidingVote, Health, type RegionVote } from '../monitor/aggregate.js';
import { checksToDecide } from '../monitor/failover-time.js';
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
  /** The operators' formula for this kind of transition (null when it has none). */
  readonly expectedDetectToPublishMs: number | null;
  /** e.g. "(3+1) × 30 s + 10 s timeout + 30 s TTL = 160 s". */
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
 * The formula for a profile's monitor settings (the checks as `checksToDecide` counts them).
 * `timeScale` is the local stack's `--time-scale` (1 in AWS): it multiplies the interval and the
 * timeout, not the records' TTL.
 */
export function expectedDuration(
  monitor: MonitorConfig,
  ttlSeconds: number,
  direction: Exclude<Direction, undefined>,
  timeScale = 1,
): Expected {
  const { intervalInSeconds: interval, timeoutInSeconds: timeout } = monitor;
  const { checks, written: count } = checksToDecide(monitor, direction);
  const ms = Math.round(((checks * interval + timeout) * timeScale + ttlSeconds) * 1000);
  const detection = `${count} × ${interval} s + ${timeout} s timeout`;
  const scaled = timeScale === 1 ? detection : `(${detection}) × time scale ${timeScale}`;
  return { ms, formula: `${scaled} + ${ttlSeconds} s TTL = ${round(ms / 1000)} s` };
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

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
