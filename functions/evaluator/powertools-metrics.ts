/** EvaluatorMetrics on Powertools Metrics (CloudWatch EMF); namespace/service from the environment. */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { EvaluatorMetrics } from './ports.js';

export function powertoolsMetrics(metrics = new Metrics({ defaultDimensions: {} })): EvaluatorMetrics {
  return {
    count(name, value, dimensions) {
      if (dimensions === undefined) {
        metrics.addMetric(name, MetricUnit.Count, value);
        return;
      }
      const single = metrics.singleMetric();
      single.addDimensions(dimensions);
      single.addMetric(name, MetricUnit.Count, value);
    },
    duration(name, ms) {
      metrics.addMetric(name, MetricUnit.Milliseconds, ms);
    },
    flush() {
      metrics.publishStoredMetrics();
    },
  };
}
