/**
 * The guard's heartbeat (docs/adr/0011-static-failover.md, "Guard"): every minute the evaluator
 * tick publishes `EvaluatorPublishing` into every probe region of the structure — 1 while the
 * evaluator's last Route 53 call succeeded and nothing waits (STATIC / PUBLISHING), 0 otherwise.
 * The metrics (region, namespace, dimensions) are the plan's, never derived here. A region whose
 * CloudWatch refuses the datum is reported and the others still get theirs: silence there
 * reads as "not publishing" to that region's alarm, which one region cannot decide alone.
 */
import { EVALUATOR_METRIC } from '../../shared/static-failover/types.js';
import { planStatic } from './static-failover-publisher.js';
import type { StaticFailoverDeps } from './static-failover-deps.js';
import type { DeployedConfig } from '../shared/config-reader.js';

export interface GuardOutcome {
  /** What was published: 1 publishing, 0 not. */
  readonly value: 0 | 1;
  /** Regions that took the datum. */
  readonly regions: readonly string[];
  /** Regions whose CloudWatch call failed (after the SDK's retries). */
  readonly failed: readonly string[];
}

/**
 * Undefined when no profile uses static failover (no guard alarms to feed). `seedPeriodMs`:
 * also stamp the datum on the two periods before `now` — for an alarm just created, whose
 * first evaluations would otherwise read those periods as missing, and missing is breaching.
 */
export async function publishGuard(
  failover: StaticFailoverDeps,
  config: DeployedConfig,
  now: number,
  seedPeriodMs?: number,
): Promise<GuardOutcome | undefined> {
  const metrics = planStatic(failover.deployment, config).structure.metrics.filter(
    (m) => m.metricName === EVALUATOR_METRIC,
  );
  if (metrics.length === 0) return undefined;
  let value: 0 | 1;
  try {
    const state = await failover.store.loadPublishing();
    value = state === undefined || state.publishing ? 1 : 0;
  } catch (error) {
    failover.onError?.(error);
    value = 0;
  }
  const stamps = seedPeriodMs === undefined ? [now] : [now - 2 * seedPeriodMs, now - seedPeriodMs, now];
  const regions: string[] = [];
  const failed: string[] = [];
  await Promise.all(
    metrics.map(async (metric) => {
      try {
        await failover.alarms.putMetric(metric, value, stamps);
        regions.push(metric.region);
      } catch (error) {
        failover.onError?.(error);
        failed.push(metric.region);
      }
    }),
  );
  return { value, regions: regions.sort(), failed: failed.sort() };
}
