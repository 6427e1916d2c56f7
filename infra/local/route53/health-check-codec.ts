/**
 * Route 53's REST-XML for health checks: CreateHealthCheckRequest and
 * UpdateHealthCheckRequest → inputs; HealthCheck, lists and status → XML.
 * Element names follow the SDK's model (@aws-sdk/client-route-53):
 * `<ChildHealthCheck>`, `<HealthCheck>`, `<HealthCheckObservation>` items.
 */
import type {
  HealthCheck,
  HealthCheckConfigInput,
  HealthCheckPage,
  HealthCheckUpdateInput,
} from './health-checks.js';
import { child, document, list, root, text, type XmlNode } from './xml-codec.js';

/** Endpoint-check fields: the stand-in refuses them (it serves alarm and calculated checks only). */
const ENDPOINT_FIELDS = [
  'IPAddress',
  'Port',
  'ResourcePath',
  'FullyQualifiedDomainName',
  'SearchString',
  'RequestInterval',
  'FailureThreshold',
  'MeasureLatency',
  'EnableSNI',
  'Regions',
  'RoutingControlArn',
];

export function parseCreateHealthCheckRequest(xml: string): {
  callerReference?: string;
  config: HealthCheckConfigInput;
} {
  const request = root(xml, 'CreateHealthCheckRequest');
  const config = child(request, 'HealthCheckConfig') ?? {};
  return {
    ...optional('callerReference', text(request, 'CallerReference')),
    config: { ...optional('type', text(config, 'Type')), ...configFields(config) },
  };
}

export function parseUpdateHealthCheckRequest(xml: string): HealthCheckUpdateInput {
  const request = root(xml, 'UpdateHealthCheckRequest');
  return {
    ...optional('version', text(request, 'HealthCheckVersion')),
    resetElements: list<string>(child(request, 'ResetElements'), 'ResettableElementName').map((name) =>
      typeof name === 'string' ? name : '',
    ),
    ...configFields(request),
  };
}

function configFields(node: XmlNode): Omit<HealthCheckConfigInput, 'type'> {
  const alarm = child(node, 'AlarmIdentifier');
  const children = child(node, 'ChildHealthChecks');
  return {
    ...optional('inverted', text(node, 'Inverted')),
    ...optional('disabled', text(node, 'Disabled')),
    ...optional('insufficientDataHealthStatus', text(node, 'InsufficientDataHealthStatus')),
    ...optional('healthThreshold', text(node, 'HealthThreshold')),
    ...(alarm === undefined
      ? {}
      : {
          alarmIdentifier: {
            ...optional('region', text(alarm, 'Region')),
            ...optional('name', text(alarm, 'Name')),
          },
        }),
    ...(children === undefined
      ? {}
      : {
          childHealthChecks: list<string>(children, 'ChildHealthCheck').map((id) =>
            typeof id === 'string' ? id : '',
          ),
        }),
    endpointFields: ENDPOINT_FIELDS.filter((field) => node[field] !== undefined),
  };
}

function healthCheck(check: HealthCheck): Record<string, unknown> {
  const config = check.config;
  return {
    Id: check.id,
    CallerReference: check.callerReference,
    HealthCheckConfig: {
      Type: config.type,
      Inverted: String(config.inverted),
      Disabled: String(config.disabled),
      HealthThreshold: config.healthThreshold === undefined ? undefined : String(config.healthThreshold),
      ChildHealthChecks:
        config.childHealthChecks === undefined
          ? undefined
          : { ChildHealthCheck: [...config.childHealthChecks] },
      AlarmIdentifier:
        config.alarmIdentifier === undefined
          ? undefined
          : { Region: config.alarmIdentifier.region, Name: config.alarmIdentifier.name },
      InsufficientDataHealthStatus: config.insufficientDataHealthStatus,
    },
    HealthCheckVersion: String(check.version),
  };
}

export function healthCheckResponse(
  rootName: 'CreateHealthCheckResponse' | 'GetHealthCheckResponse' | 'UpdateHealthCheckResponse',
  check: HealthCheck,
): string {
  return document(rootName, { HealthCheck: healthCheck(check) });
}

export function listHealthChecksResponse(page: HealthCheckPage, marker: string | undefined): string {
  return document('ListHealthChecksResponse', {
    HealthChecks: { HealthCheck: page.checks.map(healthCheck) },
    Marker: marker ?? '',
    IsTruncated: String(page.isTruncated),
    NextMarker: page.nextMarker,
    MaxItems: String(page.maxItems),
  });
}

export function deleteHealthCheckResponse(): string {
  return document('DeleteHealthCheckResponse', {});
}

export function healthCheckStatusResponse(observation: {
  region: string;
  status: string;
  checkedAt: Date;
}): string {
  return document('GetHealthCheckStatusResponse', {
    HealthCheckObservations: {
      HealthCheckObservation: [
        {
          Region: observation.region,
          StatusReport: { Status: observation.status, CheckedTime: observation.checkedAt.toISOString() },
        },
      ],
    },
  });
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}
