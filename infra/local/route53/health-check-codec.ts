/**
 * Route 53's REST-XML for health checks: CreateHealthCheckRequest and
 * UpdateHealthCheckRequest → inputs; a HealthCheck → its elements.
 * Element names follow the SDK's model (@aws-sdk/client-route-53):
 * `<ChildHealthCheck>`, `<HealthCheck>`, `<HealthCheckObservation>` items.
 */
import { invalidInput } from './errors.js';
import type { HealthCheck, HealthCheckConfigInput, HealthCheckUpdateInput } from './health-checks.js';
import { present } from './present.js';
import { child, elementsOf, group, root, textList, texts, type XmlNode } from './xml-codec.js';

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

const ALARM_IDENTIFIER = { region: 'Region', name: 'Name' } as const;

export function parseCreateHealthCheckRequest(xml: string): {
  callerReference?: string;
  config: HealthCheckConfigInput;
} {
  const request = root(xml, 'CreateHealthCheckRequest');
  const config = child(request, 'HealthCheckConfig') ?? {};
  return {
    ...texts(request, { callerReference: 'CallerReference' }),
    config: { ...texts(config, { type: 'Type' }), ...configFields(config) },
  };
}

export function parseUpdateHealthCheckRequest(xml: string): HealthCheckUpdateInput {
  const request = root(xml, 'UpdateHealthCheckRequest');
  if (request['ResetElements'] !== undefined)
    throw invalidInput('Invalid request: the local Route 53 does not implement ResetElements');
  return {
    ...texts(request, { version: 'HealthCheckVersion' }),
    ...configFields(request),
  };
}

function configFields(node: XmlNode): Omit<HealthCheckConfigInput, 'type'> {
  const children = child(node, 'ChildHealthChecks');
  return {
    ...texts(node, {
      inverted: 'Inverted',
      disabled: 'Disabled',
      insufficientDataHealthStatus: 'InsufficientDataHealthStatus',
      healthThreshold: 'HealthThreshold',
    }),
    ...present({
      alarmIdentifier: group(node, 'AlarmIdentifier', ALARM_IDENTIFIER),
      childHealthChecks: children && textList(children, 'ChildHealthCheck'),
    }),
    endpointFields: ENDPOINT_FIELDS.filter((field) => node[field] !== undefined),
  };
}

/** `<HealthCheck>`, as the health-check operations answer it. */
export function healthCheck(check: HealthCheck): Record<string, unknown> {
  const config = check.config;
  return {
    Id: check.id,
    CallerReference: check.callerReference,
    HealthCheckConfig: {
      Type: config.type,
      Inverted: config.inverted,
      Disabled: config.disabled,
      HealthThreshold: config.healthThreshold,
      ChildHealthChecks: config.childHealthChecks && { ChildHealthCheck: [...config.childHealthChecks] },
      AlarmIdentifier: config.alarmIdentifier && elementsOf(config.alarmIdentifier, ALARM_IDENTIFIER),
      InsufficientDataHealthStatus: config.insufficientDataHealthStatus,
    },
    HealthCheckVersion: check.version,
  };
}
