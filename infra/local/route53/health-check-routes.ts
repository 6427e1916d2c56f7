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
import type { Route } from './server.js';

const API = '/2013-04-01';

export function healthCheckRoutes({
  checks,
  health,
  clock,
}: {
  checks: HealthCheckStore;
  health: HealthEvaluator;
  clock: Clock;
}): Route[] {
  const ok = (body: string, status = 200, headers?: Record<string, string>) => ({
    status,
    body,
    ...(headers === undefined ? {} : { headers }),
  });
  const id = (params: readonly string[]): string => params[0] ?? '';
  return [
    {
      method: 'POST',
      pattern: new RegExp(`^${API}/healthcheck$`),
      operation: 'CreateHealthCheck',
      handle: (_params, _query, body) => {
        const request = codec.parseCreateHealthCheckRequest(body);
        const { check } = checks.create(request.callerReference, request.config);
        return ok(codec.healthCheckResponse('CreateHealthCheckResponse', check), 201, {
          location: `https://route53.amazonaws.com${API}/healthcheck/${check.id}`,
        });
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${API}/healthcheck$`),
      operation: 'ListHealthChecks',
      handle: (_params, query) => {
        const marker = query.get('marker') ?? undefined;
        return ok(codec.listHealthChecksResponse(checks.list(marker, maxItems(query)), marker));
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${API}/healthcheck/([^/]+)$`),
      operation: 'GetHealthCheck',
      handle: (params) => ok(codec.healthCheckResponse('GetHealthCheckResponse', checks.get(id(params)))),
    },
    {
      method: 'POST',
      pattern: new RegExp(`^${API}/healthcheck/([^/]+)$`),
      operation: 'UpdateHealthCheck',
      handle: (params, _query, body) => {
        const before = checks.get(id(params)).config.alarmIdentifier;
        const updated = checks.update(id(params), codec.parseUpdateHealthCheckRequest(body));
        const after = updated.config.alarmIdentifier;
        // Another alarm: the last known status was the old alarm's.
        if (before?.region !== after?.region || before?.name !== after?.name) health.forget(updated.id);
        return ok(codec.healthCheckResponse('UpdateHealthCheckResponse', updated));
      },
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`^${API}/healthcheck/([^/]+)$`),
      operation: 'DeleteHealthCheck',
      handle: (params) => {
        checks.delete(id(params));
        health.forget(id(params));
        return ok(codec.deleteHealthCheckResponse());
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${API}/healthcheck/([^/]+)/status$`),
      operation: 'GetHealthCheckStatus',
      handle: (params) => {
        const check = checks.get(id(params));
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
      },
    },
  ];
}

function maxItems(query: URLSearchParams): number | undefined {
  const text = query.get('maxitems');
  if (text === null) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new InvalidInputError(`Value '${text}' for maxitems must be a positive integer`);
  return value;
}
