/**
 * The Route 53 health-check state beside each endpoint's status, for `tm status`
 * (`healthCheck: "Healthy" | "Unhealthy" | null`): the state of the endpoint's target check —
 * the check its static-failover records carry (docs/adr/0011-static-failover.md).
 *
 * Finding it: the target check's logical id comes from the profile's content
 * (shared/static-failover: the checks registry and identity.ts), and the Route 53 check is the
 * one whose caller reference names that id (ListHealthChecks, every page). No such check (the
 * profile has no static failover, or it is not applied yet) → null.
 *
 * Its state: GetHealthCheckStatus refuses CALCULATED checks, and a target check is usually one.
 * In AWS the state of any check is the CloudWatch metric `AWS/Route53` `HealthCheckStatus`
 * (us-east-1, dimension HealthCheckId; 1 healthy, 0 unhealthy), which the data plane publishes
 * once a minute — so it is read there (the latest minute's Minimum). The local stack has no such
 * metric: its control endpoint answers what the local data plane (the DNS server's view) says
 * of the check, the same value the metric would carry, without the minute's delay.
 */
import { GetMetricStatisticsCommand } from '@aws-sdk/client-cloudwatch';
import { paginateListHealthChecks } from '@aws-sdk/client-route-53';
import { cloudWatchClient, route53Client } from '../../functions/shared/aws-clients.js';
import { endpointVerdictKey } from '../../shared/probe/target.js';
import type { Profile } from '../../shared/profile/types.js';
import { createChecksRegistry, distinctRegions } from '../../shared/static-failover/checks.js';
import { idOfCallerReference } from '../../shared/static-failover/identity.js';
import { hasVote } from '../../shared/static-failover/records.js';
import { LOCAL_CREDENTIALS } from '../local/home-table.js';
import type { LocalStackPointer } from '../local/state-file.js';
import { call } from './fault.js';

export type HealthCheckState = 'Healthy' | 'Unhealthy';

/** One of our health checks in Route 53. */
export interface OurHealthCheck {
  /** The logical id (`tm-c-…`, `tm-r-…`). */
  readonly id: string;
  /** Route 53's id. */
  readonly healthCheckId: string;
  readonly type: string;
  readonly state: HealthCheckState | null;
}

/** Where the checks and their states are read. */
export interface HealthCheckReader {
  /** Our checks (caller reference `tm-…#n`), by logical id → Route 53 id and type. */
  list(): Promise<Map<string, Pick<OurHealthCheck, 'healthCheckId' | 'type'>>>;
  stateOf(healthCheckId: string): Promise<HealthCheckState | null>;
  close(): void;
}

/** The local stack's: ListHealthChecks on its Route 53 API, the state from its control endpoint. */
export function localHealthCheckReader(stack: LocalStackPointer): HealthCheckReader {
  const route53 = route53Client({ endpoint: stack.route53Endpoint, credentials: LOCAL_CREDENTIALS });
  return {
    list: () => listOurChecks(route53),
    stateOf: async (healthCheckId) => {
      if (stack.controlEndpoint === undefined) return null;
      const path = `/health-checks/${encodeURIComponent(healthCheckId)}/status`;
      return (await call<{ status: HealthCheckState }>(stack, 'GET', path)).status;
    },
    close: () => route53.destroy(),
  };
}

/** A deployment's: ListHealthChecks, the state from the metric AWS/Route53 HealthCheckStatus in us-east-1. */
export function awsHealthCheckReader(): HealthCheckReader {
  const route53 = route53Client();
  const cloudWatch = cloudWatchClient({ region: 'us-east-1' });
  return {
    list: () => listOurChecks(route53),
    stateOf: async (healthCheckId) => {
      const { Datapoints = [] } = await cloudWatch.send(
        new GetMetricStatisticsCommand({
          Namespace: 'AWS/Route53',
          MetricName: 'HealthCheckStatus',
          Dimensions: [{ Name: 'HealthCheckId', Value: healthCheckId }],
          StartTime: new Date(Date.now() - 5 * 60_000),
          EndTime: new Date(Date.now()),
          Period: 60,
          Statistics: ['Minimum'],
        }),
      );
      const latest = Datapoints.sort(
        (a, b) => (b.Timestamp?.getTime() ?? 0) - (a.Timestamp?.getTime() ?? 0),
      )[0];
      if (latest?.Minimum === undefined) return null;
      return latest.Minimum >= 1 ? 'Healthy' : 'Unhealthy';
    },
    close: () => {
      route53.destroy();
      cloudWatch.destroy();
    },
  };
}

async function listOurChecks(route53: ReturnType<typeof route53Client>) {
  const checks: Awaited<ReturnType<HealthCheckReader['list']>> = new Map();
  for await (const page of paginateListHealthChecks({ client: route53 }, {}))
    for (const check of page.HealthChecks ?? []) {
      const id = idOfCallerReference(check.CallerReference ?? '');
      if (id !== undefined && check.Id !== undefined)
        checks.set(id, { healthCheckId: check.Id, type: check.HealthCheckConfig?.Type ?? '' });
    }
  return checks;
}

/**
 * Each monitored endpoint's target check id, by `profile/endpoint`: the check its records carry
 * when it is not overridden (planStaticFailover's rule: an external endpoint, not alwaysServe, in a
 * routing method that fails over, with probe regions).
 */
export function targetCheckIdsOf(
  profiles: readonly Profile[],
  deployment: string,
  defaultProbeRegions: readonly string[],
): Map<string, string> {
  const registry = createChecksRegistry(deployment);
  const ids = new Map<string, string>();
  for (const profile of profiles) {
    const regions = distinctRegions(profile.probeRegions ?? defaultProbeRegions);
    if (regions.length === 0) continue;
    for (const endpoint of profile.endpoints) {
      if (!hasVote(profile, endpoint)) continue;
      const key = endpointVerdictKey(profile, endpoint);
      ids.set(
        `${profile.name}/${endpoint.name}`,
        registry.targetCheck(key, regions, profile.monitorConfig.regionQuorum),
      );
    }
  }
  return ids;
}

/** Our checks with their states (every one, or those whose logical id is in `only`). */
export async function readHealthChecks(
  reader: HealthCheckReader,
  only?: ReadonlySet<string>,
): Promise<OurHealthCheck[]> {
  const listed = await reader.list();
  const wanted = [...listed].filter(([id]) => only === undefined || only.has(id));
  return Promise.all(
    wanted.map(async ([id, { healthCheckId, type }]) => ({
      id,
      healthCheckId,
      type,
      state: await reader.stateOf(healthCheckId).catch(() => null),
    })),
  );
}
