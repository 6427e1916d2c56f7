/**
 * Route 53's data plane publishes every health check's status to CloudWatch in us-east-1 once a
 * minute: `AWS/Route53` `HealthCheckStatus`, dimension `HealthCheckId`, 1 healthy and 0
 * unhealthy (https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/monitoring-health-check-status.html).
 * The local stack does the same into its local CloudWatch, on its time-scaled minute, so `tm
 * status` reads a deployment's health-check states the one way it does against AWS.
 */
import type { LocalCloudWatch } from '../cloudwatch/index.js';
import type { LocalRoute53 } from './server.js';

const MINUTE_MS = 60_000;

export function publishHealthCheckStatuses(
  route53: Pick<LocalRoute53, 'healthCheckIds' | 'healthCheckStatus'>,
  cloudWatch: Pick<LocalCloudWatch, 'publishServiceMetric'>,
  options: { readonly timeScale: number },
): () => void {
  const minute = MINUTE_MS * options.timeScale;
  const publish = () => {
    const at = Math.floor(Date.now() / minute) * minute;
    for (const id of route53.healthCheckIds()) {
      cloudWatch.publishServiceMetric('us-east-1', {
        metric: {
          namespace: 'AWS/Route53',
          metricName: 'HealthCheckStatus',
          dimensions: [{ Name: 'HealthCheckId', Value: id }],
        },
        at,
        value: route53.healthCheckStatus(id) === 'Healthy' ? 1 : 0,
        unit: undefined,
      });
    }
  };
  const timer = setInterval(publish, minute);
  timer.unref();
  return () => clearInterval(timer);
}
