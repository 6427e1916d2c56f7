/** Where a handler's custom metrics go (the metric contract: shared/contracts/metrics.ts). */
import type { MetricName } from '../../shared/contracts/metrics.js';

export interface MetricsSink {
  count(name: MetricName, value: number, dimensions?: Record<string, string>): void;
  duration(name: MetricName, ms: number, dimensions?: Record<string, string>): void;
  flush(): void;
}

export const noMetrics: MetricsSink = {
  count: () => undefined,
  duration: () => undefined,
  flush: () => undefined,
};
