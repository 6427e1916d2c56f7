/**
 * The local Route 53: an HTTP server on loopback speaking the Route 53 REST
 * API subset the evaluator uses, so the real `@aws-sdk/client-route-53`
 * client is pointed at it (`endpoint`) and the publishing code is the
 * production code. Dispatch, fault injection and the call log live here; the
 * routing tables are zone-routes.ts and health-check-routes.ts, the zone state
 * and Route 53's rules store.ts, the XML xml-codec.ts.
 */
import { randomUUID } from 'node:crypto';
import type { Clock, Random } from '../../../shared/clock.js';
import { startGuardedHttpServer, type HttpReply } from '../http-guard.js';
import type { AlarmStates } from '../cloudwatch/alarm-states.js';
import { invalidInput, Route53ApiError, route53Error } from './errors.js';
import { LocalRoute53Store, type ChangeListener, type StoreOptions } from './store.js';
import { errorResponse } from './xml-codec.js';
import { HealthCheckStore } from './health-checks.js';
import { HealthEvaluator } from './health-status.js';
import { healthCheckRoutes } from './health-check-routes.js';
import type { Route } from './routes.js';
import { zoneRoutes } from './zone-routes.js';

export interface Faults {
  /** Probability (0–1) that a call is answered `Throttling` (HTTP 400). @default 0 */
  readonly throttleRate?: number;
  /** Probability (0–1) that a call is answered `ServiceUnavailable` (HTTP 503). @default 0 */
  readonly serverErrorRate?: number;
}

export interface LocalRoute53Options extends Pick<StoreOptions, 'changeDelayMs' | 'rejectWhilePending'> {
  /** Injected faults. @default - none */
  readonly faults?: Faults;
  /** Random source in [0, 1) for the faults. @default Math.random */
  readonly random?: Random;
  /** Time source for change status and the call log. @default - the system clock */
  readonly clock?: Clock;
  /** The local CloudWatch's alarms, for CLOUDWATCH_METRIC health checks. @default - no alarm exists */
  readonly alarmStates?: AlarmStates;
  /** Health checks per account (TooManyHealthChecks above it). @default 200 */
  readonly healthCheckQuota?: number;
  /** How often every alarm health check reads its alarm, so LastKnownStatus sees each state. 0: only when asked. @default 1000 */
  readonly healthCheckTickMs?: number;
}

export interface Route53Call {
  readonly operation: string;
  /** Epoch milliseconds (from the clock). */
  readonly at: number;
  readonly status: number;
  /** Set when the call was refused because the `route53-api` fault was on. */
  readonly refused?: 'route53-api';
}

/** The local Route 53 as startLocalRoute53 returns it; a ZoneReader the DNS server answers from. */
export type LocalRoute53 = Awaited<ReturnType<typeof startLocalRoute53>>;

const MAX_BODY_BYTES = 10 * 1024 * 1024;

export async function startLocalRoute53(options: LocalRoute53Options = {}) {
  const clock: Clock = options.clock ?? { now: () => Date.now() };
  const random: Random = options.random ?? Math.random;
  const healthChecks = new HealthCheckStore(options.healthCheckQuota);
  const health = new HealthEvaluator(healthChecks, options.alarmStates ?? { stateOf: () => undefined });
  const store = new LocalRoute53Store({
    clock,
    healthCheckExists: (id) => healthChecks.find(id) !== undefined,
    changeDelayMs: options.changeDelayMs,
    rejectWhilePending: options.rejectWhilePending,
  });
  let faults: Faults = options.faults ?? {};
  let apiDown = false;
  const calls: Route53Call[] = [];
  const routes: Route[] = [...zoneRoutes(store), ...healthCheckRoutes(healthChecks, health)];
  const tickMs = options.healthCheckTickMs ?? 1000;
  const tick = tickMs > 0 ? setInterval(() => health.observe(healthChecks.ids()), tickMs).unref() : undefined;

  const server = await startGuardedHttpServer({
    caller: { sigv4Service: 'route53' },
    maxBodyBytes: MAX_BODY_BYTES,
    handle: ({ method, url, body }) => serve(method, url, body.toString('utf8')),
    errorReply: (error) => {
      calls.push({ operation: 'Unknown', at: clock.now(), status: error.status });
      return toHttp(errorReply(new Route53ApiError(error.code, error.status, error.message)));
    },
  });

  function serve(method: string, url: URL, body: string): HttpReply {
    const path = url.pathname.replace(/\/+$/, '');
    const route = routes.find((candidate) => candidate.method === method && candidate.pattern.test(path));
    const operation = route?.operation ?? 'Unknown';
    let reply: HttpReply;
    const refused = apiDown;
    try {
      if (refused)
        throw route53Error(
          'ServiceUnavailable',
          'Service Unavailable (the local Route 53 API is down: the route53-api fault is on; DNS answers and health checks keep working)',
        );
      injectFault(faults, random);
      if (route === undefined)
        throw route53Error(
          'UnsupportedOperation',
          `The local Route 53 does not implement ${method} ${url.pathname}`,
        );
      const [, id = ''] = route.pattern.exec(path) ?? [];
      reply = route.handle({ id: decodeParam(id), query: url.searchParams, body });
    } catch (error) {
      reply = errorReply(error);
    }
    calls.push({
      operation,
      at: clock.now(),
      status: reply.status,
      ...(refused ? { refused: 'route53-api' as const } : {}),
    });
    return toHttp(reply);
  }

  return {
    /** `http://127.0.0.1:<port>`, for the SDK's `endpoint`. */
    endpoint: server.endpoint,
    /** Every API call received, in order. */
    calls,
    /** Creates a hosted zone in-process (as CreateHostedZone would: the API does not serve it); returns its id (`id` when given). */
    createHostedZone: (name: string, id?: string) => store.createHostedZone(name, id),
    /** Current zone content (A, AAAA, CNAME record sets; names lower case without trailing dot). */
    records: (hostedZoneId: string) => store.records(hostedZoneId),
    findZone: (name: string) => store.findZone(name),
    cidrCollection: (id: string) => store.cidrCollection(id),
    setFaults: (next: Faults) => {
      faults = next;
    },
    /** The `route53-api` fault: while down, every API call answers ServiceUnavailable (503); DNS and health checks go on. */
    setApiDown: (down: boolean) => {
      apiDown = down;
    },
    /** A health check's status as the data plane sees it; undefined when there is no such check. */
    healthCheckStatus: (id: string): 'Healthy' | 'Unhealthy' | undefined =>
      healthChecks.find(id) === undefined ? undefined : health.isHealthy(id) ? 'Healthy' : 'Unhealthy',
    /** Every health check's id (what the data plane publishes a status metric for). */
    healthCheckIds: () => healthChecks.ids(),
    isHealthCheckHealthy: (id: string) => health.isHealthy(id),
    /** Called after every applied ChangeResourceRecordSets batch; returns an unsubscribe function. */
    onChange: (listener: ChangeListener) => store.onChange(listener),
    stop: () => {
      if (tick !== undefined) clearInterval(tick);
      return server.stop();
    },
  };
}

/** One draw per call: below throttleRate → Throttling, then below throttleRate + serverErrorRate → 503. */
function injectFault(faults: Faults, random: Random): void {
  const throttleRate = faults.throttleRate ?? 0;
  const serverErrorRate = faults.serverErrorRate ?? 0;
  if (throttleRate <= 0 && serverErrorRate <= 0) return;
  const draw = random();
  if (draw < throttleRate) throw route53Error('Throttling', 'Rate exceeded');
  if (draw < throttleRate + serverErrorRate)
    throw route53Error('ServiceUnavailable', 'Service Unavailable (injected by the local Route 53)');
}

function errorReply(error: unknown): HttpReply {
  const apiError =
    error instanceof Route53ApiError
      ? error
      : route53Error('InternalFailure', `Local Route 53 failure: ${(error as Error).message}`);
  return { status: apiError.status, body: errorResponse(apiError, randomUUID()) };
}

function toHttp(reply: HttpReply): HttpReply {
  return {
    status: reply.status,
    headers: { 'content-type': 'text/xml', 'x-amzn-requestid': randomUUID(), ...reply.headers },
    body: reply.body,
  };
}

/** A path parameter; one that is not valid percent-encoding is kept as sent (and then not found). */
function decodeParam(param: string): string {
  try {
    return decodeURIComponent(param);
  } catch {
    throw invalidInput(`Invalid percent-encoding in '${param}'`);
  }
}
