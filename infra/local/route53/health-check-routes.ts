/**
 * The local Route 53's health-check operations: URL → store call → XML.
 * GetHealthCheckStatus answers from the data plane's view (health-status.ts).
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_GetHealthCheckStatus.html
 */
import type { Clock } from '../../../shared/clock.js';
import { InvalidInputError } from './errors.js';
import * as codec from './health-check-codec.js';
import type { HealthCheckStore } from './health-checks.js';
import type { HealthEvaluator } from './health-status.js';
import { created, intParam, ok, route, textParam, type Route } from './routes.js';

export function healthCheckRoutes({
  checks,
  health,
  clock,
}: {
  checks: HealthCheckStore;
  health: HealthEvaluator;
  clock: Clock;
}): Route[] {
  return [
    route('POST', '/healthcheck', 'CreateHealthCheck', ({ body }) => {
      const request = codec.parseCreateHealthCheckRequest(body);
      const { check } = checks.create(request.callerReference, request.config);
      return created(
        codec.healthCheckResponse('CreateHealthCheckResponse', check),
        `/healthcheck/${check.id}`,
      );
    }),
    route('GET', '/healthcheck', 'ListHealthChecks', ({ query }) => {
      const marker = textParam(query, 'marker');
      return ok(codec.listHealthChecksResponse(checks.list(marker, intParam(query, 'maxitems')), marker));
    }),
    route('GET', '/healthcheck/{id}', 'GetHealthCheck', ({ id }) =>
      ok(codec.healthCheckResponse('GetHealthCheckResponse', checks.get(id))),
    ),
    route('POST', '/healthcheck/{id}', 'UpdateHealthCheck', ({ id, body }) => {
      const before = checks.get(id).config.alarmIdentifier;
      const updated = checks.update(id, codec.parseUpdateHealthCheckRequest(body));
      const after = updated.config.alarmIdentifier;
      // Another alarm: the last known status was the old alarm's.
      if (before?.region !== after?.region || before?.name !== after?.name) health.forget(updated.id);
      return ok(codec.healthCheckResponse('UpdateHealthCheckResponse', updated));
    }),
    route('DELETE', '/healthcheck/{id}', 'DeleteHealthCheck', ({ id }) => {
      checks.delete(id);
      health.forget(id);
      return ok(codec.deleteHealthCheckResponse());
    }),
    route('GET', '/healthcheck/{id}/status', 'GetHealthCheckStatus', ({ id }) => {
      const check = checks.get(id);
      // Route 53: "You can't use GetHealthCheckStatus to get the status of a calculated health check."
      if (check.config.type === 'CALCULATED')
        throw new InvalidInputError(
          `Invalid request: health check ${check.id} is a CALCULATED health check; GetHealthCheckStatus does not report calculated health checks`,
        );
      const alarm = check.config.alarmIdentifier;
      const healthy = health.isHealthy(check.id);
      return ok(
        codec.healthCheckStatusResponse({
          region: alarm?.region ?? '',
          status: `${healthy ? 'Success' : 'Failure'}: the health check is ${healthy ? 'healthy' : 'unhealthy'} (alarm ${alarm?.name ?? ''} in ${alarm?.region ?? ''})`,
          checkedAt: new Date(clock.now()),
        }),
      );
    }),
  ];
}
