/**
 * Route 53 health checks of the static-failover structure (docs/adr/0011-static-failover.md),
 * through the zone gateway's retry layer (`callRoute53`: counted, transient failures retried
 * at the limiter's pace). Checks are ours when their CallerReference is one of our logical ids
 * (`idOfCallerReference`) and that id is one the caller knows (planned now, or applied before):
 * another deployment's checks in the account are never touched.
 */
import {
  CreateHealthCheckCommand,
  DeleteHealthCheckCommand,
  ListHealthChecksCommand,
  UpdateHealthCheckCommand,
  type HealthCheck,
  type HealthCheckConfig,
  type Route53Client,
} from '@aws-sdk/client-route-53';
import { callerReferenceOf, idOfCallerReference } from '../../shared/static-failover/identity.js';
import type { HealthCheckSpec } from '../../shared/static-failover/types.js';
import { required } from '../shared/required.js';
import { callRoute53, type Route53GatewayOptions } from './route53-zone-gateway.js';
import { StaticFailoverError } from './errors.js';

/** One of our checks as Route 53 holds it, read back into the plan's form (children as logical ids). */
export type ExistingHealthCheck = Awaited<ReturnType<Route53HealthCheckGateway['list']>>[number];

/** Route 53 returns at most 1,000 health checks per ListHealthChecks page. */
const LIST_PAGE_SIZE = 1_000;

export class Route53HealthCheckGateway {
  constructor(
    private readonly client: Route53Client,
    private readonly options: Route53GatewayOptions = {},
  ) {}

  /** Our checks among every check of the account (ListHealthChecks, all pages). */
  async list(known: ReadonlySet<string>) {
    const all: HealthCheck[] = [];
    let marker: string | undefined;
    do {
      const page = await callRoute53(this.options, 'ListHealthChecks', () =>
        this.client.send(new ListHealthChecksCommand({ Marker: marker, MaxItems: LIST_PAGE_SIZE })),
      );
      all.push(...required(page.HealthChecks, 'ListHealthChecks.HealthChecks'));
      marker = page.IsTruncated === true ? page.NextMarker : undefined;
    } while (marker !== undefined);
    const ours = all.flatMap((check) => {
      const reference = required(check.CallerReference, 'HealthCheck.CallerReference');
      const id = idOfCallerReference(reference);
      return id !== undefined && known.has(id) ? [{ check, id, reference }] : [];
    });
    const logicalOf = new Map(ours.map(({ check, id }) => [required(check.Id, 'HealthCheck.Id'), id]));
    return ours.map(({ check, id, reference }) => ({
      spec: specOf(check, id, logicalOf),
      healthCheckId: required(check.Id, 'HealthCheck.Id'),
      version: required(check.HealthCheckVersion, 'HealthCheck.HealthCheckVersion'),
      /** The generation of its CallerReference. */
      generation: Number(reference.slice(reference.lastIndexOf('#') + 1)),
    }));
  }

  /** Creates a check; a retried create with the same reference returns the same check. */
  async create(
    spec: HealthCheckSpec,
    generation: number,
    idOf: (logicalId: string) => string,
  ): Promise<string> {
    const created = await callRoute53(this.options, 'CreateHealthCheck', () =>
      this.client.send(
        new CreateHealthCheckCommand({
          CallerReference: callerReferenceOf(spec.id, generation),
          HealthCheckConfig: configOf(spec, idOf),
        }),
      ),
    );
    return required(created.HealthCheck?.Id, 'CreateHealthCheck.HealthCheck.Id');
  }

  /** Changes a check's settings in place (its Type stays: a changed type is a delete and a create). */
  async update(existing: ExistingHealthCheck, spec: HealthCheckSpec, idOf: (logicalId: string) => string) {
    const { Type: _type, ...settings } = configOf(spec, idOf);
    await callRoute53(this.options, 'UpdateHealthCheck', () =>
      this.client.send(
        new UpdateHealthCheckCommand({
          HealthCheckId: existing.healthCheckId,
          HealthCheckVersion: existing.version,
          ...settings,
        }),
      ),
    );
  }

  /** Deletes a check; one already gone is fine (a retried delete). */
  async delete(healthCheckId: string): Promise<void> {
    try {
      await callRoute53(this.options, 'DeleteHealthCheck', () =>
        this.client.send(new DeleteHealthCheckCommand({ HealthCheckId: healthCheckId })),
      );
    } catch (error) {
      if ((error as { name?: string }).name !== 'NoSuchHealthCheck') throw error;
    }
  }
}

function configOf(spec: HealthCheckSpec, idOf: (logicalId: string) => string): HealthCheckConfig {
  if (spec.type === 'CLOUDWATCH_METRIC')
    return {
      Type: 'CLOUDWATCH_METRIC',
      AlarmIdentifier: { Region: spec.alarm.region as never, Name: spec.alarm.name },
      InsufficientDataHealthStatus: spec.insufficientDataHealthStatus,
    };
  return {
    Type: 'CALCULATED',
    ChildHealthChecks: spec.children.map(idOf),
    HealthThreshold: spec.healthThreshold,
  };
}

/** The plan's form of a listed check; a child that is not ours keeps its Route 53 id (the diff then updates it). */
function specOf(check: HealthCheck, id: string, logicalOf: ReadonlyMap<string, string>): HealthCheckSpec {
  const config = required(check.HealthCheckConfig, 'HealthCheck.HealthCheckConfig');
  const base = { id, role: 'target', description: '' } as const;
  if (config.Type === 'CLOUDWATCH_METRIC') {
    const alarm = required(config.AlarmIdentifier, 'HealthCheckConfig.AlarmIdentifier');
    return {
      ...base,
      type: 'CLOUDWATCH_METRIC',
      alarm: {
        region: required(alarm.Region, 'AlarmIdentifier.Region'),
        name: required(alarm.Name, 'AlarmIdentifier.Name'),
      },
      insufficientDataHealthStatus: (config.InsufficientDataHealthStatus ??
        'LastKnownStatus') as 'LastKnownStatus',
    };
  }
  if (config.Type === 'CALCULATED')
    return {
      ...base,
      type: 'CALCULATED',
      children: (config.ChildHealthChecks ?? []).map((child) => logicalOf.get(child) ?? child),
      healthThreshold: config.HealthThreshold ?? 0,
    };
  throw new StaticFailoverError(
    `health check ${check.Id} (${id}) has type ${config.Type}, not one static failover creates`,
  );
}
