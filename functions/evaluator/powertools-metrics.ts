/** EvaluatorMetrics on Powertools Metrics (CloudWatch EMF); namespace/service from the environment. */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { EvaluatorMetrics } from './ports.js';

export function powertoolsMetrics(metrics = new Metrics({ defaultDimensions: {} })): EvaluatorMetrics {
  const add = (
    name: string,
    unit: (typeof MetricUnit)[keyof typeof MetricUnit],
    value: number,
    dimensions?: Record<string, string>,
  ) => {
    if (dimensions === undefined) {
      metrics.addMetric(name, unit, value);
      return;
    }
    const single = metrics.singleMetric();
    single.addDimensions(dimensions);
    single.addMetric(name, unit, value);
  };
  return {
    count: (name, value, dimensions) => add(name, MetricUnit.Count, value, dimensions),
    duration: (name, ms, dimensions) => add(name, MetricUnit.Milliseconds, ms, dimensions),
    flush() {
      metrics.publishStoredMetrics();
    },
  };
}
