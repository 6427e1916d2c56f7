/**
 * The local Route 53's health-check operations: URL → store call → the elements of the
 * response. GetHealthCheckStatus is not served (nothing of ours sends it): the data plane's view
 * is `LocalRoute53.healthCheckStatus` in-process.
 */
import {
  healthCheck,
  parseCreateHealthCheckRequest,
  parseUpdateHealthCheckRequest,
} from './health-check-codec.js';
import type { HealthCheckStore } from './health-checks.js';
import type { HealthEvaluator } from './health-status.js';
import { intParam, route, type Route } from './routes.js';

export function healthCheckRoutes(checks: HealthCheckStore, health: HealthEvaluator): Route[] {
  return [
    route('POST', '/healthcheck', 'CreateHealthCheck', ({ body }) => {
      const request = parseCreateHealthCheckRequest(body);
      const { check } = checks.create(request.callerReference, request.config);
      return { elements: { HealthCheck: healthCheck(check) }, created: `/healthcheck/${check.id}` };
    }),
    route('GET', '/healthcheck', 'ListHealthChecks', ({ query }) => {
      const marker = query.get('marker') ?? undefined;
      const page = checks.list(marker, intParam(query, 'maxitems'));
      const elements = {
        HealthChecks: { HealthCheck: page.checks.map(healthCheck) },
        Marker: marker ?? '',
        IsTruncated: page.isTruncated,
        NextMarker: page.nextMarker,
        MaxItems: page.maxItems,
      };
      return { elements };
    }),
    route('GET', '/healthcheck/{id}', 'GetHealthCheck', ({ id }) => ({
      elements: { HealthCheck: healthCheck(checks.get(id)) },
    })),
    route('POST', '/healthcheck/{id}', 'UpdateHealthCheck', ({ id, body }) => {
      const before = checks.get(id).config.alarmIdentifier;
      const updated = checks.update(id, parseUpdateHealthCheckRequest(body));
      const after = updated.config.alarmIdentifier;
      // Another alarm: the last known status was the old alarm's.
      if (before?.region !== after?.region || before?.name !== after?.name) health.forget(updated.id);
      return { elements: { HealthCheck: healthCheck(updated) } };
    }),
    route('DELETE', '/healthcheck/{id}', 'DeleteHealthCheck', ({ id }) => {
      checks.delete(id);
      health.forget(id);
      return { elements: {} };
    }),
  ];
}
