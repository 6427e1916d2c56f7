/**
 * Azure's values in a definitions file: a profile as Azure shows it (the JSON of
 * `az network traffic-manager profile show`, an ARM resource's `properties`) is turned
 * into our form before the schema and the rules see it. Every value Azure writes
 * differently is rewritten (`alwaysServe: "Enabled"`, `priority` for `Priority`, ARM
 * endpoint types, `subnets: [{ first, scope }]`, Azure region names); Azure's read-only
 * and resource fields (a nested endpoint's `NAME.trafficmanager.net` target among them) are
 * dropped with a notice each; a `null` is a field not set. Fields Azure does not have
 * either are left alone, so they stay errors. `tm import azure` hands its result to this
 * same normalisation and reads Azure's objects and names with the same functions
 * (`properties` and nulls, ARM types, resource ids, values in any case).
 */
import { isAwsRegion } from './aws-regions.js';
import { azureRegion } from './azure-regions.js';
import { isRecord, type IssuePath, type ValidationIssue } from './issues.js';
import { PROBE_PROTOCOLS, ROUTING_METHODS } from './types.js';

/** The zone Azure names every profile under (public cloud), `NAME.trafficmanager.net`. */
export const AZURE_DNS_SUFFIX = 'trafficmanager.net';
export const PROFILE_TYPE = /^microsoft\.network\/trafficmanagerprofiles$/i;
export const ENDPOINT_TYPE =
  /^(?:microsoft\.network\/trafficmanagerprofiles\/)?(external|nested|azure)endpoints$/i;
const ENDPOINT_KINDS = ['external', 'nested', 'azure'] as const;
export type AzureEndpointKind = (typeof ENDPOINT_KINDS)[number];

/** An ARM endpoint type, short (`externalEndpoints`) or in full (`Microsoft.Network/trafficManagerProfiles/…`) → its kind. */
export function armEndpointKind(type: string): AzureEndpointKind | undefined {
  const kind = ENDPOINT_TYPE.exec(type)?.[1];
  return kind === undefined ? undefined : valueNamed(kind, ENDPOINT_KINDS);
}

/** A nested endpoint's `targetResourceId`, `…/trafficManagerProfiles/NAME` → `NAME`. */
export function childProfileName(resourceId: unknown): string | undefined {
  return typeof resourceId === 'string'
    ? /\/trafficmanagerprofiles\/([^/]+)$/i.exec(resourceId)?.[1]
    : undefined;
}

const READ_ONLY = 'is a field Azure sets (read-only or resource metadata) and is ignored';
const NO_EQUIVALENT = 'is an Azure setting traffic-manager has no equivalent for and is ignored';

/** Fields dropped with a notice, per object kind: field → why. */
const IGNORED: Readonly<
  Record<'profile' | 'dnsConfig' | 'monitorConfig' | 'endpoint', Record<string, string>>
> = {
  profile: {
    id: READ_ONLY,
    location: READ_ONLY,
    resourceGroup: READ_ONLY,
    tags: 'is Azure resource metadata and is not carried over',
    allowedEndpointRecordTypes: NO_EQUIVALENT,
  },
  dnsConfig: { fqdn: READ_ONLY },
  monitorConfig: { profileMonitorStatus: READ_ONLY },
  endpoint: { id: READ_ONLY, endpointMonitorStatus: READ_ONLY, resourceGroup: READ_ONLY },
};

class Collector {
  /** One per field dropped or value mapped in a way the author should know. */
  readonly notices: ValidationIssue[] = [];
  /** Azure values with no equivalent here. */
  readonly issues: ValidationIssue[] = [];

  notice(path: IssuePath, received: unknown, message: string): void {
    this.notices.push({ path, rule: 'azure-form', received, message });
  }

  issue(path: IssuePath, received: unknown, rule: string, message: string): void {
    this.issues.push({ path, rule, received, message });
  }
}

/** `list` as given to the schema: rewritten when it is a list (unchanged where nothing was Azure's), else returned as it is. */
export function fromAzureForms(list: unknown) {
  const out = new Collector();
  const profiles = Array.isArray(list)
    ? list.map((profile: unknown, index) => profileOf(profile, ['profiles', index], out))
    : list;
  return { profiles, notices: out.notices, issues: out.issues };
}

function profileOf(value: unknown, path: IssuePath, out: Collector): unknown {
  const profile = unwrapProperties(value);
  if (profile === undefined) return value;
  if (typeof profile.type === 'string' && PROFILE_TYPE.test(profile.type)) {
    out.notice([...path, 'type'], profile.type, READ_ONLY);
    delete profile.type;
  }
  dropIgnored(profile, IGNORED.profile, path, out);
  const view = profile.trafficViewEnrollmentStatus;
  if (typeof view === 'string' && /^disabled$/i.test(view)) {
    out.notice([...path, 'trafficViewEnrollmentStatus'], view, NO_EQUIVALENT);
    delete profile.trafficViewEnrollmentStatus;
  } else if (view !== undefined) {
    out.issue(
      [...path, 'trafficViewEnrollmentStatus'],
      view,
      'no-equivalent',
      'Traffic View has no equivalent here (tm status and the status events show where traffic goes); leave it out or "Disabled"',
    );
    delete profile.trafficViewEnrollmentStatus;
  }
  caseOf(profile, 'profileStatus', ['Enabled', 'Disabled']);
  caseOf(profile, 'trafficRoutingMethod', ROUTING_METHODS);
  const dnsConfig = withoutNulls(profile.dnsConfig);
  if (dnsConfig !== undefined) {
    dropIgnored(dnsConfig, IGNORED.dnsConfig, [...path, 'dnsConfig'], out);
    profile.dnsConfig = dnsConfig;
  }
  const monitor = withoutNulls(profile.monitorConfig);
  if (monitor !== undefined) {
    dropIgnored(monitor, IGNORED.monitorConfig, [...path, 'monitorConfig'], out);
    caseOf(monitor, 'protocol', PROBE_PROTOCOLS);
    caseOf(monitor, 'method', ['GET', 'HEAD']);
    const ranges = monitor.expectedStatusCodeRanges;
    if (Array.isArray(ranges) && ranges.length === 0) {
      out.notice(
        [...path, 'monitorConfig', 'expectedStatusCodeRanges'],
        ranges,
        'is empty, which Azure reads as not set: the default 200-200 applies',
      );
      delete monitor.expectedStatusCodeRanges;
    }
    profile.monitorConfig = monitor;
  }
  if (Array.isArray(profile.endpoints))
    profile.endpoints = profile.endpoints.map((endpoint: unknown, index) =>
      endpointOf(endpoint, [...path, 'endpoints', index], out, profile.trafficRoutingMethod),
    );
  return profile;
}

/** `method`: the profile's routing method; an endpointLocation elsewhere is left as written, for the rule to name. */
function endpointOf(value: unknown, path: IssuePath, out: Collector, method: unknown): unknown {
  const endpoint = unwrapProperties(value);
  if (endpoint === undefined) return value;
  dropIgnored(endpoint, IGNORED.endpoint, path, out);
  caseOf(endpoint, 'endpointStatus', ['Enabled', 'Disabled']);
  const serve = endpoint.alwaysServe;
  if (typeof serve === 'string' && /^(enabled|disabled)$/i.test(serve))
    endpoint.alwaysServe = serve.toLowerCase() === 'enabled';
  typeOf(endpoint, path, out);
  nestedTargetOf(endpoint, path, out);
  const location = endpoint.endpointLocation;
  if (
    typeof location === 'string' &&
    !isAwsRegion(location) &&
    (method === 'Performance' || method === undefined)
  ) {
    const region = azureRegion(location);
    if (region !== undefined) {
      endpoint.endpointLocation = region.awsRegion;
      out.notice(
        [...path, 'endpointLocation'],
        location,
        `is the Azure region ${region.displayName} (${region.place}): latency is measured to the nearest AWS region, ${region.awsRegion}`,
      );
    }
  }
  for (const list of ['subnets', 'geoMapping', 'customHeaders'])
    if (Array.isArray(endpoint[list]) && endpoint[list].length === 0) delete endpoint[list]; // Azure's "none"
  if (Array.isArray(endpoint.subnets))
    endpoint.subnets = endpoint.subnets.map((subnet: unknown, index) =>
      subnetOf(subnet, [...path, 'subnets', index], out),
    );
  return endpoint;
}

/** `type`: our names in any case, or ARM's; an Azure endpoint becomes external when it names its host. */
function typeOf(endpoint: Record<string, unknown>, path: IssuePath, out: Collector): void {
  const written = endpoint.type;
  const resourceId = endpoint.targetResourceId;
  if (typeof written !== 'string') {
    if (resourceId !== undefined) targetResourceIdOf(endpoint, 'external', path, out);
    return;
  }
  const type = armEndpointKind(written) ?? valueNamed(written, ['external', 'nested']);
  if (type === undefined) return; // the schema names the values
  if (type === 'azure') {
    if (typeof endpoint.target !== 'string') {
      out.issue(
        [...path, 'type'],
        written,
        'azure-endpoint',
        `is an Azure endpoint (a resource, ${JSON.stringify(resourceId ?? 'no targetResourceId')}): give its host name as target (tm import azure --target RESOURCE_ID=HOST does it)`,
      );
      endpoint.type = 'external';
      return;
    }
    out.notice(
      [...path, 'type'],
      written,
      `is an Azure endpoint: it is probed and published as the external endpoint ${JSON.stringify(endpoint.target)} (its target)`,
    );
  }
  const ours = type === 'nested' ? 'nested' : 'external';
  endpoint.type = ours;
  if (resourceId !== undefined) targetResourceIdOf(endpoint, ours, path, out);
}

/** A nested endpoint's `target` as `az` shows it, the child's Azure name: read-only, dropped. */
function nestedTargetOf(endpoint: Record<string, unknown>, path: IssuePath, out: Collector): void {
  const { target } = endpoint;
  if (endpoint.type !== 'nested' || typeof target !== 'string') return;
  if (!target.toLowerCase().endsWith(`.${AZURE_DNS_SUFFIX}`)) return; // the schema says it is no field here
  out.notice(
    [...path, 'target'],
    target,
    "is the child profile's Azure name (read-only): the child is targetProfile here",
  );
  delete endpoint.target;
}

/** A nested endpoint's child profile by resource id → by name; elsewhere the target says it. */
function targetResourceIdOf(
  endpoint: Record<string, unknown>,
  type: 'external' | 'nested',
  path: IssuePath,
  out: Collector,
): void {
  const resourceId = endpoint.targetResourceId;
  const childName = childProfileName(resourceId);
  if (type === 'nested' && endpoint.targetProfile === undefined && childName !== undefined) {
    endpoint.targetProfile = childName;
    out.notice(
      [...path, 'targetResourceId'],
      resourceId,
      `names the child profile ${JSON.stringify(childName)}: it must be defined in the same definitions`,
    );
  } else if (type === 'external' && typeof endpoint.target === 'string') {
    out.notice([...path, 'targetResourceId'], resourceId, `is ignored: the endpoint is its target`);
  } else {
    return; // left for the schema: not a field of this endpoint
  }
  delete endpoint.targetResourceId;
}

/** `{ first, last }` → "first-last"; `{ first, scope }` → "first/scope"; `{ first }` → "first-first". */
function subnetOf(value: unknown, path: IssuePath, out: Collector): unknown {
  const subnet = withoutNulls(value);
  if (subnet === undefined) return value;
  const { first, last, scope, ...rest } = subnet;
  if (typeof first !== 'string' || Object.keys(rest).length > 0) return value;
  if (last !== undefined && scope !== undefined) {
    out.issue(path, value, 'subnet-form', 'must give last or scope, not both');
    return `${first}-${String(last)}`;
  }
  if (typeof last === 'string') return `${first}-${last}`;
  if (typeof scope === 'number') return `${first}/${scope}`;
  if (last === undefined && scope === undefined) return `${first}-${first}`; // one address
  return value; // last or scope of a wrong type: the schema says what a subnet is
}

/**
 * An ARM resource or `az` output: the fields of `properties` join the object's own, and a
 * `null` field is left out (Azure's "not set"); `undefined` for a non-object. `tm import
 * azure` reads Azure's objects with it too.
 */
export function unwrapProperties(value: Record<string, unknown>): Record<string, unknown>;
export function unwrapProperties(value: unknown): Record<string, unknown> | undefined;
export function unwrapProperties(value: unknown): Record<string, unknown> | undefined {
  const object = withoutNulls(value);
  if (object === undefined) return undefined;
  const properties = withoutNulls(object.properties);
  if (properties === undefined) return object;
  const { properties: _wrapper, ...rest } = object;
  if (Object.keys(properties).some((key) => key in rest)) return object; // both: the schema reports it
  return { ...rest, ...properties };
}

/** A shallow copy without the fields that are `null` (Azure's "not set"); `undefined` for a non-object. */
function withoutNulls(value: unknown): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null));
}

function dropIgnored(
  object: Record<string, unknown>,
  ignored: Record<string, string>,
  path: IssuePath,
  out: Collector,
): void {
  for (const [field, why] of Object.entries(ignored)) {
    if (!(field in object)) continue;
    out.notice([...path, field], object[field], why);
    delete object[field];
  }
}

/** `written` in any case (Azure's `performance`, `https`) → the value of `values` it names. */
export function valueNamed<T extends string>(written: string, values: readonly T[]): T | undefined {
  return values.find((candidate) => candidate.toLowerCase() === written.toLowerCase());
}

/** An enum value in another case becomes the value it names. */
function caseOf(object: Record<string, unknown>, field: string, values: readonly string[]): void {
  const written = object[field];
  const value = typeof written === 'string' ? valueNamed(written, values) : undefined;
  if (value !== undefined) object[field] = value;
}
