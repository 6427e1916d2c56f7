/**
 * The evaluator tick (every minute). Probe regions report liveness through heartbeats,
 * one per shard of a region; the tick works out which regions are fresh (every shard of the
 * region's split is) and, only when that set changes (a region or one of its shards went
 * silent or came back), writes one TICK item — the stream then re-evaluates every
 * profile with the stale regions no longer voting. With no fresh region at all the core
 * keeps the last statuses (fail static) and flags them stale. It also deletes the monitor
 * overrides (`tm endpoint override --for`) that have expired, which re-evaluates their
 * profiles, so an override ends within a tick of its `until` even when nothing else happens.
 *
 * Once per reconcile interval it writes the TICK/RECONCILE item: the stream hands it to the
 * evaluator, which reads every zone that has owned names and repairs drift (the tick itself
 * never calls Route 53).
 *
 * With static failover it emits `StaticFailoverFrozen`: the profiles whose static path the stale
 * regions hold, since a silent region's health check keeps its last vote (fail static).
 *
 * It emits ProbeLatency per region from every shard heartbeat's latency histogram (each judge's
 * median of the last period), so the metric follows the checks, not only the verdict changes.
 *
 * It judges certificate expiry (shared/evaluation/certificate-warnings.ts): per HTTPS endpoint
 * the certificate the probe regions' certificate items carry, `CertificateDaysLeft` per endpoint and
 * `CertificatesExpiring` (alarmed) every minute, and one `CertificateExpiring` event per
 * certificate that comes within its profile's `certificateWarningDays`, written to the outbox in
 * one transaction with the CERTIFICATE item that says it was sent (so the event is exactly once
 * per certificate; the evaluator publishes it). Only a minute with an expiring certificate reads
 * the CERTIFICATE items.
 *
 * It is also the one writer of the health gauges: every minute, whether or not anything was
 * evaluated, `ProfileDegraded` per profile and `EndpointDegraded` per endpoint from the stored
 * statuses, so an alarm on them holds for exactly as long as the status does. While outbox
 * entries wait (for Route 53 to be INSYNC, or for EventBridge to accept them) it writes the
 * TICK/OUTBOX item, whose stream record wakes the evaluator to publish them. A quiet minute
 * costs one config, status, control and outbox query each, two queries per probe region
 * (every shard's heartbeat; every shard's summaries and certificates), the batch reads of the
 * TICK item and the reconcile request, and no Route 53 call.
 */
import { applyControls, isInEffect } from '../../shared/control/apply.js';
import { EnvironmentVariable as Env } from '../../shared/contracts/environment.js';
import { MetricDimension, MetricName } from '../../shared/contracts/metrics.js';
import { heartbeatsByRegion, isRegionFresh } from '../../shared/monitor/staleness.js';
import { latenciesSince } from '../../shared/monitor/check-summary.js';
import { histogramLatencies } from '../../shared/monitor/latency-histogram.js';
import type { RegionChecks } from '../../shared/monitor/region-checks.js';
import {
  certificateChecks,
  newWarnings,
  warningWrite,
} from '../../shared/evaluation/certificate-warnings.js';
import type { StoredStatus } from '../../shared/evaluation/stored-status.js';
import type { Profile } from '../../shared/profile/types.js';
import { EndpointMonitorStatus, ProfileMonitorStatus } from '../../shared/status/vocabulary.js';
import type { EvaluatorMetrics, EvaluatorStateStore } from './ports.js';
import { positiveIntegerFromEnv } from '../shared/env.js';
import { DEFAULT_RECONCILE_INTERVAL_MS } from './reconcile-interval.js';
import { containerDeps } from './environment.js';
import { logger } from '../shared/logger.js';
import { publishGuard } from './guard.js';
import type { StaticFailoverDeps } from './static-failover-deps.js';
import { frozenStaticProfiles } from '../../shared/static-failover/frozen.js';

/** The tick runs every minute (EventBridge Scheduler, infra/cdk/every-minute.ts). */
const TICK_PERIOD_MS = 60_000;

export interface TickDeps {
  readonly store: EvaluatorStateStore;
  readonly metrics: EvaluatorMetrics;
  readonly now: () => number;
  /** Emit `EndpointDegraded` per endpoint ($0.30 per endpoint-month). @default true */
  readonly endpointMetrics?: boolean;
  /** How often the zones are reconciled (ms). @default DEFAULT_RECONCILE_INTERVAL_MS */
  readonly reconcileIntervalMs?: number;
  /** Static failover: the tick publishes the guard's `EvaluatorPublishing` (guard.ts). */
  readonly staticFailover?: StaticFailoverDeps;
}

export async function runTick(deps: TickDeps) {
  const config = await deps.store.loadConfig();
  const regions = [
    ...new Set(config.profiles.flatMap((p) => p.probeRegions ?? config.defaultProbeRegions)),
  ].sort();
  const now = deps.now();
  const heartbeats = await deps.store.loadHeartbeats(regions);
  const byRegion = heartbeatsByRegion(heartbeats);
  // A region with any silent shard of its split is stale (shared/monitor/staleness.ts).
  const fresh = regions.filter((r) => isRegionFresh(byRegion.get(r) ?? [], now));
  const stale = regions.filter((r) => !fresh.includes(r));
  deps.metrics.count(MetricName.staleRegions, stale.length);
  const controls = await deps.store.loadControls();
  const staticFailoverFrozen = frozenStaticProfiles(
    applyControls(config.profiles, controls, now),
    config.defaultProbeRegions,
    new Set(stale),
  );
  if (config.profiles.some((p) => p.staticFailover))
    deps.metrics.count(MetricName.staticFailoverFrozen, staticFailoverFrozen.length);
  // Current latency, between verdict changes: each judge's median of its shard's last period, from
  // the heartbeats written since the previous tick (an older version's heartbeat: its summaries).
  for (const heartbeat of heartbeats) {
    const latencies =
      heartbeat.latencies === undefined
        ? latenciesSince(heartbeat.summaries, now - TICK_PERIOD_MS)
        : heartbeat.at > now - TICK_PERIOD_MS
          ? histogramLatencies(heartbeat.latencies)
          : [];
    for (const latency of latencies)
      deps.metrics.duration(MetricName.probeLatency, latency, { [MetricDimension.region]: heartbeat.region });
  }
  const statuses = await deps.store.loadStatuses();
  emitHealthGauges(deps, new Set(config.profiles.map((p) => p.name)), statuses);
  const certificateWarnings = await judgeCertificates(
    deps,
    config.profiles,
    statuses,
    await deps.store.loadRegionChecks(regions),
    now,
  );
  const previous = await deps.store.loadTick();
  const changed =
    previous === undefined ||
    previous.fresh.join(',') !== fresh.join(',') ||
    previous.stale.join(',') !== stale.join(',');
  if (changed) await deps.store.saveTick({ fresh, stale, at: now });
  const expired = controls.overrides.filter((o) => !isInEffect(o, now));
  // Each delete reaches the evaluator through the stream: the profile is evaluated without it.
  const removed = await Promise.all(expired.map((o) => deps.store.deleteExpiredOverride(o)));
  const outboxWaiting = (await deps.store.loadOutbox()).length > 0;
  if (outboxWaiting) await deps.store.saveOutboxTrigger(now);
  const reconcileRequested = await requestReconcileIfDue(deps, now);
  const guard =
    deps.staticFailover === undefined ? undefined : await publishGuard(deps.staticFailover, config, now);
  deps.metrics.flush();
  return {
    fresh,
    stale,
    /** Profiles whose static path the stale regions hold (fail static). */
    staticFailoverFrozen,
    changed,
    /** `profile/endpoint` of the monitor overrides that expired and were deleted by this tick. */
    expiredOverrides: expired.filter((_, i) => removed[i]).map((o) => `${o.profile}/${o.endpoint}`),
    /** Outbox entries were waiting: the TICK/OUTBOX trigger was written. */
    outboxWaiting,
    /** The tick wrote the TICK/RECONCILE item this time. */
    reconcileRequested,
    /** The eventIds of the CertificateExpiring warnings this tick put in the outbox. */
    certificateWarnings,
    /** The guard metric this tick published (static failover only). */
    ...(guard === undefined ? {} : { guard }),
  };
}

/**
 * CertificateDaysLeft per HTTPS endpoint, CertificatesExpiring in all, and a warning in the
 * outbox for each certificate newly within its window; returns the warnings' eventIds.
 */
async function judgeCertificates(
  deps: TickDeps,
  profiles: readonly Profile[],
  statuses: ReadonlyMap<string, StoredStatus>,
  regionChecks: readonly RegionChecks[],
  now: number,
): Promise<string[]> {
  const checks = certificateChecks(
    profiles,
    [...statuses.values()].map((s) => s.report),
    regionChecks,
    now,
  );
  if (deps.endpointMetrics !== false) {
    for (const check of checks) {
      deps.metrics.count(MetricName.certificateDaysLeft, check.daysLeft, {
        [MetricDimension.profile]: check.profile,
        [MetricDimension.endpoint]: check.endpoint,
      });
    }
  }
  const expiring = checks.filter((c) => c.expiring);
  deps.metrics.count(MetricName.certificatesExpiring, expiring.length);
  if (expiring.length === 0) return [];
  const warnings = newWarnings(expiring, await deps.store.loadCertificateWarnings());
  const sent: string[] = [];
  for (const warning of warnings) {
    const { entry, warned } = warningWrite(warning);
    if (await deps.store.saveCertificateWarning(warned, entry)) sent.push(warning.eventId);
  }
  return sent;
}

/**
 * A reconcile is due one interval after the last request; a tenth of the interval of slack
 * keeps a tick that comes a little early (schedules jitter) from postponing it a whole tick.
 */
async function requestReconcileIfDue(deps: TickDeps, now: number): Promise<boolean> {
  const interval = deps.reconcileIntervalMs ?? DEFAULT_RECONCILE_INTERVAL_MS;
  const last = await deps.store.loadReconcileRequest();
  if (last !== undefined && now - last.requestedAt < interval - interval / 10) return false;
  await deps.store.saveReconcileRequest({ requestedAt: now });
  return true;
}

/** 1 while Degraded, else 0, for every defined profile (and endpoint) that has a status. */
function emitHealthGauges(
  deps: TickDeps,
  defined: ReadonlySet<string>,
  statuses: ReadonlyMap<string, StoredStatus>,
): void {
  for (const [name, stored] of statuses) {
    if (!defined.has(name)) continue;
    const { report } = stored;
    deps.metrics.count(MetricName.profileDegraded, report.status === ProfileMonitorStatus.Degraded ? 1 : 0, {
      [MetricDimension.profile]: name,
    });
    if (deps.endpointMetrics === false) continue;
    for (const endpoint of report.endpoints) {
      deps.metrics.count(
        MetricName.endpointDegraded,
        endpoint.status === EndpointMonitorStatus.Degraded ? 1 : 0,
        {
          [MetricDimension.profile]: name,
          [MetricDimension.endpoint]: endpoint.endpoint,
        },
      );
    }
  }
}

/** The Lambda entry point (EventBridge Scheduler, every minute). */
export const handler = async () => {
  const outcome = await runTick({
    ...containerDeps(),
    endpointMetrics: process.env[Env.endpointMetrics] !== 'false',
    reconcileIntervalMs:
      positiveIntegerFromEnv(Env.reconcileIntervalSeconds, DEFAULT_RECONCILE_INTERVAL_MS / 1000) * 1000,
  });
  const { stale, staticFailoverFrozen } = outcome;
  if (stale.length > 0) logger.warn('stale probe regions', { stale, staticFailoverFrozen });
  return outcome;
};
