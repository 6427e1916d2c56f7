/**
 * The Traffic Manager resources of one ARM template: `resources` as a list, or as an object
 * keyed by symbolic name (`languageVersion: "2.0"`, what `az bicep build` writes for
 * modules such as the Azure Verified Module). Deployment metadata is dropped (reported)
 * before any expression is evaluated; `condition`, resource `copy` loops and property /
 * variable `copy` loops are expanded as ARM does; a resource with an expression that
 * cannot be evaluated is reported once per expression and read no further.
 */
import { isRecord } from '../profile/issues.js';
import { ENDPOINT_TYPE, PROFILE_TYPE } from '../profile/azure-forms.js';
import { validInteger } from '../profile/rules/report.js';
import type { ExpressionScope } from './expressions.js';
import type { ImportProblem } from './problems.js';
import { endpointOf, endpointsOf, type AzureDocument, type AzureProfile, type ReadResult } from './shapes.js';
import { MAX_COPY, resolve, templateScope, withCopyIndex } from './template-values.js';

/** Deployment metadata of an ARM resource: read, with nothing to carry over. */
const DEPLOYMENT_FIELDS = ['apiVersion', 'dependsOn', 'comments', 'condition', 'scope', 'metadata', 'copy'];
/** The API versions whose schema this reader follows; another one is read the same way, with a note. */
const KNOWN_API_VERSIONS = ['2018-08-01', '2022-04-01'];

function isTrafficManagerType(type: string): boolean {
  return PROFILE_TYPE.test(type) || (ENDPOINT_TYPE.test(type) && type.includes('/'));
}

/** A resource group's export holds the apps and zones beside the profiles: say so, import the rest. */
function otherResource(where: string, type: string): ImportProblem {
  if (/^microsoft\.resources\/deployments$/i.test(type))
    return {
      where,
      message:
        "is a nested deployment (a module), whose template is not read: if it holds a Traffic Manager profile, import the module's own template (az bicep build FILE) with its parameters",
    };
  return { where, message: `is a ${JSON.stringify(type)}, not a Traffic Manager resource: not imported` };
}

/** The names of the parameters `template` declares (lower case). */
export function declaredParameters(template: Record<string, unknown>): string[] {
  return isRecord(template.parameters) ? Object.keys(template.parameters).map((k) => k.toLowerCase()) : [];
}

export function readTemplate(
  template: AzureDocument,
  parameterValues: Map<string, unknown>,
  result: ReadResult,
): void {
  const content = template.content as Record<string, unknown>;
  const scope = templateScope(content, parameterValues);
  const entries: [string, unknown][] = Array.isArray(content.resources)
    ? content.resources.map((raw: unknown, index) => [`resources[${index}]`, raw])
    : Object.entries(content.resources as Record<string, unknown>).map(([key, raw]) => [
        `resources.${key}`,
        raw,
      ]);
  for (const [place, raw] of entries) readResource(raw, `${template.file} ${place}`, scope, result);
}

function readResource(raw: unknown, where: string, scope: ExpressionScope, result: ReadResult): void {
  if (!isRecord(raw)) {
    result.problems.push({ where, message: 'must be a resource object' });
    return;
  }
  // Before any expression is evaluated: another resource's name may use functions we do not evaluate.
  if (typeof raw.type === 'string' && !raw.type.startsWith('[') && !isTrafficManagerType(raw.type)) {
    result.notes.push(otherResource(`${where} ${JSON.stringify(String(raw.name))}`, raw.type));
    return;
  }
  if (raw.existing === true) {
    result.notes.push({
      where: `${where}.existing`,
      message: 'is a reference to a resource deployed elsewhere, not deployed by this template: not imported',
    });
    return;
  }
  // Metadata is dropped before anything is evaluated: its expressions do not matter.
  const { copy, condition, ...rest } = raw;
  const own = metadataOf(rest);
  const children = Array.isArray(own.kept.resources)
    ? own.kept.resources.map((child: unknown) =>
        isRecord(child) ? metadataOf(child) : { kept: child, metadata: {} },
      )
    : undefined;
  const withChildren =
    children === undefined ? own.kept : { ...own.kept, resources: children.map((child) => child.kept) };
  const { kept, ids } = withoutEndpointIds(withChildren);
  const resource: Stripped = {
    kept,
    metadata: own.metadata,
    children: children?.map((child) => child.metadata) ?? [],
    endpointIds: ids,
  };
  if (copy === undefined) {
    readOne(resource, condition, where, scope, result);
    return;
  }
  const loop = copyLoop(copy, `${where}.copy`, scope, result);
  if (loop === undefined) return;
  for (let index = 0; index < loop.count; index += 1)
    readOne(resource, condition, `${where} (copy ${index})`, withCopyIndex(scope, loop.name, index), result);
}

/** A resource without its deployment metadata, which is kept apart for the report. */
interface Stripped {
  readonly kept: Record<string, unknown>;
  readonly metadata: Record<string, unknown>;
  /** The metadata of each child resource in `kept.resources`. */
  readonly children: readonly Record<string, unknown>[];
  /** The indexes of the inline endpoints whose `id` (read-only, often `resourceGroup().id`…) was dropped. */
  readonly endpointIds: readonly number[];
}

/** Inline endpoints without their `id`: a read-only resource id, dropped before it is evaluated. */
function withoutEndpointIds(resource: Record<string, unknown>) {
  const { properties } = resource;
  if (!isRecord(properties) || !Array.isArray(properties.endpoints)) return { kept: resource, ids: [] };
  const ids: number[] = [];
  const endpoints = properties.endpoints.map((endpoint: unknown, index) => {
    if (!isRecord(endpoint) || !('id' in endpoint)) return endpoint;
    ids.push(index);
    const { id: _id, ...rest } = endpoint;
    return rest;
  });
  return { kept: { ...resource, properties: { ...properties, endpoints } }, ids };
}

const METADATA = ['apiVersion', 'dependsOn', 'comments', 'scope', 'metadata'];

function metadataOf(resource: Record<string, unknown>) {
  const kept: Record<string, unknown> = {};
  const metadata: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resource))
    (METADATA.includes(key) ? metadata : kept)[key] = value;
  return { kept, metadata };
}

function readOne(
  stripped: Stripped,
  condition: unknown,
  where: string,
  scope: ExpressionScope,
  result: ReadResult,
): void {
  if (condition !== undefined) {
    const value = resolve(condition, `${where}.condition`, scope, result);
    if (value.failed) return;
    if (value.value === false) {
      result.notes.push({
        where: `${where}.condition`,
        message: 'is false: the resource is not deployed and not imported',
      });
      return;
    }
  }
  const resolved = resolve(stripped.kept, where, scope, result);
  if (resolved.failed || !isRecord(resolved.value)) return;
  const resource = resolved.value;
  const type = typeof resource.type === 'string' ? resource.type : '';
  const name = typeof resource.name === 'string' ? resource.name : undefined;
  if (name === undefined) {
    result.problems.push({ where: `${where}.name`, message: 'must be the resource name' });
    return;
  }
  noteDeployment(stripped.metadata, `${where} "${name}"`, result);
  if (PROFILE_TYPE.test(type)) {
    for (const index of stripped.endpointIds)
      result.notes.push({
        where: `${where} "${name}" properties.endpoints[${index}].id`,
        message: "is the endpoint's Azure resource id (read-only): not carried over",
      });
    result.profiles.push(profileResource(resource, name, `${where} "${name}"`, stripped.children, result));
  } else if (ENDPOINT_TYPE.test(type) && type.includes('/')) {
    const [parent, endpointName, ...rest] = name.split('/');
    if (parent === undefined || endpointName === undefined || rest.length > 0) {
      result.problems.push({
        where: `${where}.name`,
        message: `must be "PROFILE/ENDPOINT" for an endpoint resource beside its profile, got ${JSON.stringify(name)}`,
      });
      return;
    }
    const endpoint = childEndpoint(resource, endpointName, where, result);
    if (endpoint !== undefined) result.children.push({ parent, endpoint });
  } else {
    result.notes.push(otherResource(`${where} "${name}"`, type));
  }
}

/** A resource `copy`: its name and count, evaluated (`count` may use `length(parameters('…'))`). */
function copyLoop(
  copy: unknown,
  where: string,
  scope: ExpressionScope,
  result: ReadResult,
): { name: string; count: number } | undefined {
  if (!isRecord(copy) || typeof copy.name !== 'string') {
    result.problems.push({
      where,
      message: 'must be { "name": …, "count": … }, the ARM copy loop of a resource',
    });
    return undefined;
  }
  const count = resolve(copy.count, `${where}.count`, scope, result);
  if (count.failed) return undefined;
  const n = validInteger(count.value, 0, MAX_COPY);
  if (n !== undefined) return { name: copy.name, count: n };
  result.problems.push({
    where: `${where}.count`,
    message: `must be an integer 0–${MAX_COPY}, got ${JSON.stringify(count.value)}`,
  });
  return undefined;
}

function profileResource(
  resource: Record<string, unknown>,
  name: string,
  where: string,
  childMetadata: readonly Record<string, unknown>[],
  result: ReadResult,
): AzureProfile {
  const { properties, location, tags, resources } = resource;
  const { endpoints, ...fields } = isRecord(properties) ? properties : {};
  unknownKeys(
    resource,
    ['type', 'name', 'properties', 'location', 'tags', 'resources', ...DEPLOYMENT_FIELDS],
    where,
    result,
  );
  const profile: AzureProfile = {
    where,
    name,
    fields: {
      ...fields,
      ...(location !== undefined ? { location } : {}),
      ...(tags !== undefined ? { tags } : {}),
    },
    endpoints: endpointsOf(endpoints, `${where} properties.endpoints`, result),
  };
  if (Array.isArray(resources))
    resources.forEach((child: unknown, index) => {
      const childWhere = `${where} resources[${index}]`;
      const type = isRecord(child) && typeof child.type === 'string' ? child.type : '';
      const childName = isRecord(child) && typeof child.name === 'string' ? child.name : undefined;
      if (!ENDPOINT_TYPE.test(type) || childName === undefined || !isRecord(child)) {
        result.problems.push({
          where: `${childWhere}.type`,
          message: `is not an endpoint resource of a Traffic Manager profile (externalEndpoints, nestedEndpoints, azureEndpoints), got ${JSON.stringify(isRecord(child) ? child.type : child)}`,
        });
        return;
      }
      noteDeployment(childMetadata[index] ?? {}, childWhere, result);
      const endpointName = childName.includes('/') ? (childName.split('/').at(-1) ?? childName) : childName;
      const endpoint = childEndpoint(child, endpointName, childWhere, result);
      if (endpoint !== undefined) result.children.push({ parent: name, endpoint });
    });
  return profile;
}

function childEndpoint(resource: Record<string, unknown>, name: string, where: string, result: ReadResult) {
  unknownKeys(resource, ['type', 'name', 'properties', 'id', ...DEPLOYMENT_FIELDS], where, result);
  return endpointOf({ name, type: resource.type, properties: resource.properties ?? {} }, where, result);
}

function noteDeployment(resource: Record<string, unknown>, where: string, result: ReadResult): void {
  const version = resource.apiVersion;
  if (typeof version === 'string' && !KNOWN_API_VERSIONS.includes(version))
    result.notes.push({
      where: `${where}.apiVersion`,
      message: `is ${version}; the import follows the schema of ${KNOWN_API_VERSIONS.join(' and ')}, whose fields it reads the same way`,
    });
  for (const field of ['dependsOn', 'comments', 'scope', 'metadata'])
    if (field in resource)
      result.notes.push({
        where: `${where}.${field}`,
        message: 'is ARM deployment metadata: not carried over',
      });
}

function unknownKeys(
  resource: Record<string, unknown>,
  known: string[],
  where: string,
  result: ReadResult,
): void {
  for (const key of Object.keys(resource))
    if (!known.includes(key))
      result.problems.push({
        where: `${where}.${key}`,
        message: 'is not a field of this ARM resource that tm import azure knows',
      });
}
