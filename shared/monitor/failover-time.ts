/**
 * The figures operators ask for, from a profile's settings: how long until users are moved
 * away from a failed endpoint, how long until they come back, and how many checks each
 * endpoint receives. Worst cases, counted part by part:
 *
 *   away = (tolerated + 1) × interval + timeout + publish + TTL
 *   back =  successes     × interval + timeout + publish + TTL   (successes: 1 by default)
 *
 * - checks × interval: the endpoint breaks just after a check passed, so the first failing
 *   check starts up to one interval later and the deciding (tolerated+1)-th check starts
 *   (tolerated+1) intervals after the break. With a sample window the checks needed are
 *   those that make the window fail (`sampleSize − required + 1`) or pass (`required`).
 * - timeout: the deciding check may take that long before it counts as failed.
 * - publish: the evaluator's stream batching window plus Route 53's propagation of the
 *   change to all its name servers (INSYNC).
 * - TTL: resolvers may keep answering with the old records that long.
 *
 * The same formula, with the same parts, is what `tm history` and the status page show beside
 * a transition's measured detect → publish time (`shared/evaluation/timing.ts`). That time runs
 * from the start of the first check of the deciding run to Route 53 reporting INSYNC, so it
 * covers every part but two — the wait for that first check (up to one interval) and the TTL —
 * and is compared with `detectToPublishSeconds`, the formula less those two.
 */
import type { MonitorConfig, Profile } from '../profile/types.js';
import { failsOver } from '../routing/failover-methods.js';

/** Route 53's stated bound for a change to reach all its authoritative name servers (s). */
export const ROUTE53_PROPAGATION_SECONDS = 60;

export type Direction = 'failing' | 'recovering';

export interface FigureSettings {
  /** The evaluator's stream batching window (s), before Route 53 is called. */
  readonly batchingWindowSeconds: number;
  /** Successful checks that bring a region back up (default: the profile's `requiredSuccessesToRecover`, else 1). */
  readonly requiredSuccessesToRecover?: number;
  /** The local stack's `--time-scale`: multiplies interval and timeout, not publish or TTL. @default 1 */
  readonly timeScale?: number;
}

/** How many checks decide a region's verdict in that direction, and how the formula writes it. */
export function checksToDecide(
  monitor: MonitorConfig,
  direction: Direction,
  requiredSuccessesToRecover = monitor.requiredSuccessesToRecover ?? 1,
): { readonly checks: number; readonly written: string } {
  const rule = monitor.healthRule;
  if (rule.kind === 'sampleWindow') {
    // Coming back, the window must pass and the last requiredSuccessesToRecover checks succeed.
    const checks =
      direction === 'failing'
        ? rule.sampleSize - rule.successfulSamplesRequired + 1
        : Math.max(rule.successfulSamplesRequired, requiredSuccessesToRecover);
    return { checks, written: String(checks) };
  }
  const tolerated = monitor.toleratedNumberOfFailures;
  return direction === 'failing'
    ? { checks: tolerated + 1, written: `(${tolerated}+1)` }
    : { checks: requiredSuccessesToRecover, written: String(requiredSuccessesToRecover) };
}

/** One worst case, in seconds, with its parts. */
export function failoverTime(
  monitor: MonitorConfig,
  ttlSeconds: number,
  direction: Direction,
  settings: FigureSettings,
) {
  const { checks, written } = checksToDecide(monitor, direction, settings.requiredSuccessesToRecover);
  const interval = monitor.intervalInSeconds;
  const timeout = monitor.timeoutInSeconds;
  const scale = settings.timeScale ?? 1;
  const publish = settings.batchingWindowSeconds + ROUTE53_PROPAGATION_SECONDS;
  const total = round((checks * interval + timeout) * scale + publish + ttlSeconds);
  const detection = `${written} × ${interval} s interval + ${timeout} s timeout`;
  const scaled = scale === 1 ? detection : `(${detection}) × time scale ${scale}`;
  return {
    checks,
    intervalSeconds: interval,
    timeoutSeconds: timeout,
    publishSeconds: publish,
    ttlSeconds,
    totalSeconds: total,
    /**
     * The part a measured detect → publish time covers (first check of the deciding run → Route 53
     * INSYNC): the total less one interval (the wait for that first check) and the TTL.
     */
    detectToPublishSeconds: round(total - interval * scale - ttlSeconds),
    /** e.g. `(3+1) × 30 s interval + 10 s timeout + 62 s publish + 30 s TTL = 222 s` */
    formula: `${scaled} + ${publish} s publish + ${ttlSeconds} s TTL = ${total} s`,
  };
}

export type OperatorFigures = ReturnType<typeof operatorFigures>;

export function operatorFigures(
  profile: Profile,
  defaultProbeRegions: readonly string[],
  settings: FigureSettings,
) {
  const { monitorConfig: monitor, dnsConfig } = profile;
  const probeRegions = (profile.probeRegions ?? defaultProbeRegions).length;
  const probed =
    profile.profileStatus === 'Enabled'
      ? profile.endpoints.filter(
          (e) => e.type === 'external' && e.endpointStatus === 'Enabled' && !e.alwaysServe,
        ).length
      : 0;
  return {
    profile: profile.name,
    trafficRoutingMethod: profile.trafficRoutingMethod,
    /** False for Geographic and Subnet: a Degraded endpoint keeps its answers, nobody moves away. */
    failsOver: failsOver(profile.trafficRoutingMethod),
    /** Worst case until users are moved away from a failed endpoint. */
    moveAway: failoverTime(monitor, dnsConfig.ttl, 'failing', settings),
    /** Worst case until they come back once it recovers. */
    comeBack: failoverTime(monitor, dnsConfig.ttl, 'recovering', settings),
    /** How many regions probe each endpoint. */
    probeRegions,
    /** Checks each probed endpoint receives per minute, from all its regions together. */
    checksPerMinute: round((probeRegions * 60) / monitor.intervalInSeconds),
    /** Endpoints of this profile that are probed (external, enabled, not always-serve). */
    probedEndpoints: probed,
  };
}

/** `6 checks/min per endpoint (3 regions × 2/min)`, or why there are none. */
export function describeProbeLoad(figures: OperatorFigures): string {
  if (figures.probedEndpoints === 0) return 'no endpoint of its own is probed';
  const perRegion = round(figures.checksPerMinute / figures.probeRegions);
  const regions = `${figures.probeRegions} ${figures.probeRegions === 1 ? 'region' : 'regions'}`;
  return `${figures.checksPerMinute} checks/min per endpoint (${regions} × ${perRegion}/min)`;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/**
 * The static path's parts (docs/adr/0011-static-failover.md, "Failover time"). A vote counts
 * once its one-minute metric period closes (the shortest standard-resolution alarm period);
 * coming back needs a whole period of up votes, so up to two periods.
 */
export const VOTE_PERIOD_SECONDS = 60;
/** Assumption (AWS documents no bound): CloudWatch evaluates an alarm within this after its period closes. */
export const ALARM_EVALUATION_SECONDS = 60;
/**
 * Assumption (AWS documents the pipeline, not its latency): Route 53's health-check data plane
 * reads the alarm, aggregates the calculated check and reaches its DNS servers within this.
 */
export const HEALTH_CHECK_PICKUP_SECONDS = 60;
/** The guard turns unhealthy this long after the evaluator stops publishing: 2 periods + evaluation + pickup. */
export const GUARD_FLIP_SECONDS =
  2 * VOTE_PERIOD_SECONDS + ALARM_EVALUATION_SECONDS + HEALTH_CHECK_PICKUP_SECONDS;

/**
 * One worst case of the static path, in seconds, and how it adds up:
 *
 *   away = (tolerated + 1) × interval + timeout +     period + evaluation + pickup + TTL
 *   back =  successes      × interval + timeout + 2 × period + evaluation + pickup + TTL
 */
export function staticFailoverTime(
  monitor: MonitorConfig,
  ttlSeconds: number,
  direction: Direction,
  requiredSuccessesToRecover?: number,
) {
  const { checks, written } = checksToDecide(monitor, direction, requiredSuccessesToRecover);
  const interval = monitor.intervalInSeconds;
  const timeout = monitor.timeoutInSeconds;
  const periods = direction === 'failing' ? 1 : 2;
  const metric = periods * VOTE_PERIOD_SECONDS;
  const total =
    checks * interval +
    timeout +
    metric +
    ALARM_EVALUATION_SECONDS +
    HEALTH_CHECK_PICKUP_SECONDS +
    ttlSeconds;
  const period = periods === 1 ? `${metric} s metric period` : `2 × ${VOTE_PERIOD_SECONDS} s metric period`;
  return {
    totalSeconds: total,
    /** e.g. `(3+1) × 30 s interval + 10 s timeout + 60 s metric period + 60 s alarm evaluation + 60 s health-check pickup + 30 s TTL = 340 s` */
    formula: `${written} × ${interval} s interval + ${timeout} s timeout + ${period} + ${ALARM_EVALUATION_SECONDS} s alarm evaluation + ${HEALTH_CHECK_PICKUP_SECONDS} s health-check pickup + ${ttlSeconds} s TTL = ${total} s`,
  };
}
