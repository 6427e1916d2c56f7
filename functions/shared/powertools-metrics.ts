/**
 * A MetricsSink on Powertools Metrics (CloudWatch EMF); namespace/service from the
 * environment. Every document is stamped with `now()` (the caller's clock, so a fake clock in
 * tests gives the minute it stands for).
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MetricsSink } from './metrics-sink.js';

export function powertoolsMetrics(
  metrics = new Metrics({ defaultDimensions: {} }),
  now: () => number = Date.now,
): MetricsSink {
  const add = (
    name: string,
    unit: (typeof MetricUnit)[keyof typeof MetricUnit],
    value: number,
    dimensions?: Record<string, string>,
  ) => {
    const target = dimensions === undefined ? metrics : metrics.singleMetric();
    target.setTimestamp(now());
    if (dimensions !== undefined) target.addDimensions(dimensions);
    target.addMetric(name, unit, value);
  };
  return {
    count: (name, value, dimensions) => add(name, MetricUnit.Count, value, dimensions),
    duration: (name, ms, dimensions) => add(name, MetricUnit.Milliseconds, ms, dimensions),
    flush() {
      // Metrics with dimensions went out on their own (singleMetric); an empty publish only warns.
      if (!metrics.hasStoredMetrics()) return;
      metrics.setTimestamp(now());
      metrics.publishStoredMetrics();
    },
  };
}
