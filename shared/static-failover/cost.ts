/**
 * What a static structure costs and counts (docs/adr/0011-static-failover.md, "Count, quota and
 * price"): health checks against Route 53's per-account quota, alarms, custom metrics and the
 * PutMetricData requests that keep the votes and the guard's heartbeat current (one a minute
 * per region, up to 1,000 metrics a request).
 */
import { MINUTES_PER_MONTH, PRICE } from '../cost/prices.js';
import { EVALUATOR_METRIC, type StaticStructure } from './types.js';

/** Route 53's default number of health checks per account (raisable on request). */
const DEFAULT_HEALTH_CHECK_QUOTA = 200;
/** Metrics one PutMetricData request carries at most. */
export const METRICS_PER_REQUEST = 1000;

export type StaticFootprint = ReturnType<typeof footprintOf>;

export function footprintOf(structure: StaticStructure) {
  const votesByRegion = new Map<string, number>();
  let heartbeats = 0;
  for (const metric of structure.metrics) {
    if (metric.metricName === EVALUATOR_METRIC) heartbeats++;
    else votesByRegion.set(metric.region, (votesByRegion.get(metric.region) ?? 0) + 1);
  }
  const perMinute =
    [...votesByRegion.values()].reduce((sum, n) => sum + Math.ceil(n / METRICS_PER_REQUEST), 0) + heartbeats;
  return {
    healthChecks: structure.healthChecks.length,
    alarms: structure.alarms.length,
    metrics: structure.metrics.length,
    /** Probe regions' votes and the evaluator's heartbeat, a month. */
    putMetricDataRequests: perMinute * MINUTES_PER_MONTH,
  };
}

export function monthlyPriceOf(footprint: StaticFootprint) {
  const healthChecks = footprint.healthChecks * PRICE.route53AwsCheck;
  const alarms = footprint.alarms * PRICE.alarmMonth;
  const metrics = footprint.metrics * PRICE.customMetricMonth;
  const requests = footprint.putMetricDataRequests * PRICE.putMetricDataRequest;
  return { healthChecks, alarms, metrics, requests, total: healthChecks + alarms + metrics + requests };
}

/** The warning `tm validate` and synth give (never an error); undefined within the default quota. */
export function quotaWarning(footprint: StaticFootprint): string | undefined {
  if (footprint.healthChecks <= DEFAULT_HEALTH_CHECK_QUOTA) return undefined;
  return `static failover needs ${footprint.healthChecks} Route 53 health checks, more than the account default of ${DEFAULT_HEALTH_CHECK_QUOTA}: ask AWS to raise the quota before deploying, or set staticFailover: false on some profiles`;
}
