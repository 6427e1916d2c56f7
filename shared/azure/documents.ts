/**
 * The Traffic Manager profiles in Azure's files: ARM templates (a profile resource with
 * inline `properties.endpoints`, child endpoint resources inside its `resources`, or child
 * resources beside it named `profile/endpoint`; Bicep compiles to these), parameters files
 * for their `[parameters('…')]` expressions, and the JSON of
 * `az network traffic-manager profile show` (one profile) and `list` (an array). Each
 * profile comes out as its Azure fields plus its endpoints, with where each was found.
 */
import { isRecord } from '../profile/issues.js';
import { ArmExpressionError, evaluateString, type ExpressionScope } from './expressions.js';
import type { ImportProblem } from './problems.js';

export interface AzureDocument {
  /** The file name, for messages. */
  readonly file: string;
  /** Its parsed JSON. */
  readonly content: unknown;
}

export interface AzureEndpoint {
  /** Where it was found, e.g. `tm.json resources[1] "shop/east"`. */
  readonly where: string;
  readonly name: string;
  /** The endpoint kind from its type: `externalEndpoints`, `nestedEndpoints`, `azureEndpoints`, or as written. */
  readonly kind: 'external' | 'nested' | 'azure' | undefined;
  /** Its fields (`properties` unwrapped). */
  readonly fields: Record<string, unknown>;
}

export interface AzureProfile {
  readonly where: string;
  readonly name: string;
  /** Its fields (`properties` unwrapped, `location` and `tags` kept), without `name` and `endpoints`. */
  readonly fields: Record<string, unknown>;
  readonly endpoints: AzureEndpoint[];
}

export interface ReadResult {
  readonly profiles: AzureProfile[];
  readonly problems: ImportProblem[];
  /** What was read and dropped on the way (ARM deployment metadata), for the report. */
  readonly notes: ImportProblem[];
}

const PROFILE_TYPE = /^microsoft\.network\/trafficmanagerprofiles$/i;
const ENDPOINT_TYPE =
  /^(?:microsoft\.network\/trafficmanagerprofiles\/)?(externalendpoints|nestedendpoints|azureendpoints)$/i;
const KINDS: Readonly<Record<string, AzureEndpoint['kind']>> = {
  externalendpoints: 'external',
  nestedendpoints: 'nested',
  azureendpoints: 'azure',
};
/** Deployment metadata of an ARM resource: read, with nothing to carry over. */
const DEPLOYMENT_FIELDS = ['apiVersion', 'dependsOn', 'comments', 'condition', 'scope'];
/** The API versions whose schema this reader follows; another one is read the same way, with a note. */
export const KNOWN_API_VERSIONS = ['2018-08-01', '2022-04-01'];

export function readAzureDocuments(documents: readonly AzureDocument[]): ReadResult {
  const result: ReadResult = { profiles: [], problems: [], notes: [] };
  const parameterValues = new Map<string, unknown>();
  const templates: AzureDocument[] = [];
  for (const document of documents) {
    const { file, content } = document;
    if (Array.isArray(content)) {
      content.forEach((profile: unknown, index) => {
        fromAzCli(profile, `${file} [${index}]`, result);
      });
    } else if (!isRecord(content)) {
      result.problems.push({ where: file, message: NOT_AZURE });
    } else if (isParametersFile(content)) {
      readParameters(content, file, parameterValues, result);
    } else if (Array.isArray(content.resources)) {
      templates.push(document);
    } else if (typeof content.type === 'string' && PROFILE_TYPE.test(content.type)) {
      fromAzCli(content, file, result);
    } else {
      result.problems.push({ where: file, message: NOT_AZURE });
    }
  }
  for (const template of templates) readTemplate(template, parameterValues, result);
  return result;
}

const NOT_AZURE =
  'is neither an ARM template (resources), a parameters file, nor the JSON of az network traffic-manager profile show (one profile) or list (an array)';

function isParametersFile(content: Record<string, unknown>): boolean {
  const schema = typeof content.$schema === 'string' ? content.$schema : '';
  if (/deploymentParameters/i.test(schema)) return true;
  return !('resources' in content) && !('type' in content) && isRecord(content.parameters);
}

function readParameters(
  content: Record<string, unknown>,
  file: string,
  values: Map<string, unknown>,
  result: ReadResult,
): void {
  const parameters = isRecord(content.parameters) ? content.parameters : {};
  for (const [name, entry] of Object.entries(parameters)) {
    const where = `${file} parameters.${name}`;
    if (isRecord(entry) && 'value' in entry) values.set(name, entry.value);
    else if (isRecord(entry) && 'reference' in entry)
      result.problems.push({
        where: `${where}.reference`,
        message: 'is a Key Vault reference, which tm import azure does not read: give the value',
      });
    else result.problems.push({ where, message: 'must be { "value": … }' });
  }
}

/** `az … profile show` output: the fields at the top level, endpoints inside. */
function fromAzCli(value: unknown, where: string, result: ReadResult): void {
  if (!isRecord(value) || typeof value.name !== 'string') {
    result.problems.push({ where, message: 'must be a Traffic Manager profile with a name' });
    return;
  }
  const { name, endpoints, ...fields } = unwrap(value);
  const profile: AzureProfile = {
    where: `${where} "${String(name)}"`,
    name: String(name),
    fields,
    endpoints: [],
  };
  if (Array.isArray(endpoints))
    endpoints.forEach((endpoint: unknown, index) => {
      const found = endpointOf(endpoint, `${profile.where} endpoints[${index}]`, result);
      if (found !== undefined) profile.endpoints.push(found);
    });
  result.profiles.push(profile);
}

function endpointOf(value: unknown, where: string, result: ReadResult): AzureEndpoint | undefined {
  if (!isRecord(value) || typeof value.name !== 'string') {
    result.problems.push({ where, message: 'must be an endpoint with a name' });
    return undefined;
  }
  const { name, type, ...fields } = unwrap(value);
  const kind =
    typeof type === 'string' ? KINDS[ENDPOINT_TYPE.exec(type)?.[1]?.toLowerCase() ?? ''] : undefined;
  if (type !== undefined && kind === undefined)
    result.problems.push({
      where: `${where} "${String(name)}".type`,
      message: `is not an endpoint type of Traffic Manager (externalEndpoints, nestedEndpoints, azureEndpoints), got ${JSON.stringify(type)}`,
    });
  return { where: `${where} "${String(name)}"`, name: String(name), kind, fields };
}

function isTrafficManagerType(type: string): boolean {
  return PROFILE_TYPE.test(type) || (ENDPOINT_TYPE.test(type) && type.includes('/'));
}

/** A resource group's export holds the apps and zones beside the profiles: say so, import the rest. */
function otherResource(where: string, type: string): ImportProblem {
  return { where, message: `is a ${JSON.stringify(type)}, not a Traffic Manager resource: not imported` };
}

function readTemplate(
  template: AzureDocument,
  parameterValues: Map<string, unknown>,
  result: ReadResult,
): void {
  const content = template.content as Record<string, unknown>;
  const scope = templateScope(content, parameterValues);
  const resources = content.resources as unknown[];
  const children: { parent: string; endpoint: AzureEndpoint }[] = [];
  const byName = new Map<string, AzureProfile>();
  resources.forEach((raw: unknown, index) => {
    const where = `${template.file} resources[${index}]`;
    // Before any expression is evaluated: another resource's name may use functions we do not evaluate.
    if (
      isRecord(raw) &&
      typeof raw.type === 'string' &&
      !raw.type.startsWith('[') &&
      !isTrafficManagerType(raw.type)
    ) {
      result.notes.push(otherResource(`${where} ${JSON.stringify(String(raw.name))}`, raw.type));
      return;
    }
    const resource = resolve(raw, where, scope, result);
    if (!isRecord(resource)) {
      if (resource !== undefined) result.problems.push({ where, message: 'must be a resource object' });
      return;
    }
    if (resource.condition === false) {
      result.notes.push({
        where: `${where}.condition`,
        message: 'is false: the resource is not deployed and not imported',
      });
      return;
    }
    if ('copy' in resource) {
      result.problems.push({
        where: `${where}.copy`,
        message:
          'is an ARM copy loop, which tm import azure does not expand: write each resource, or import the az list JSON',
      });
      return;
    }
    const type = typeof resource.type === 'string' ? resource.type : '';
    const name = typeof resource.name === 'string' ? resource.name : undefined;
    if (name === undefined) {
      result.problems.push({ where: `${where}.name`, message: 'must be the resource name' });
      return;
    }
    if (PROFILE_TYPE.test(type)) {
      const profile = profileResource(resource, name, `${where} "${name}"`, children, result);
      byName.set(name.toLowerCase(), profile);
      result.profiles.push(profile);
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
      if (endpoint !== undefined) children.push({ parent, endpoint });
    } else {
      result.notes.push(otherResource(`${where} "${name}"`, type));
    }
  });
  for (const { parent, endpoint } of children) {
    const profile = byName.get(parent.toLowerCase());
    if (profile === undefined)
      result.problems.push({
        where: endpoint.where,
        message: `belongs to the profile ${JSON.stringify(parent)}, which this template does not define`,
      });
    else profile.endpoints.push(endpoint);
  }
}

function profileResource(
  resource: Record<string, unknown>,
  name: string,
  where: string,
  children: { parent: string; endpoint: AzureEndpoint }[],
  result: ReadResult,
): AzureProfile {
  noteDeployment(resource, where, result);
  const { properties, location, tags, resources } = resource;
  const { endpoints, ...fields } = isRecord(properties) ? properties : {};
  const profile: AzureProfile = {
    where,
    name,
    fields: {
      ...fields,
      ...(location !== undefined ? { location } : {}),
      ...(tags !== undefined ? { tags } : {}),
    },
    endpoints: [],
  };
  unknownKeys(
    resource,
    ['type', 'name', 'properties', 'location', 'tags', 'resources', ...DEPLOYMENT_FIELDS],
    where,
    result,
  );
  if (Array.isArray(endpoints))
    endpoints.forEach((endpoint: unknown, index) => {
      const found = endpointOf(endpoint, `${where} properties.endpoints[${index}]`, result);
      if (found !== undefined) profile.endpoints.push(found);
    });
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
      const endpointName = childName.includes('/') ? (childName.split('/').at(-1) ?? childName) : childName;
      const endpoint = childEndpoint(child, endpointName, childWhere, result);
      if (endpoint !== undefined) children.push({ parent: name, endpoint });
    });
  return profile;
}

function childEndpoint(
  resource: Record<string, unknown>,
  name: string,
  where: string,
  result: ReadResult,
): AzureEndpoint | undefined {
  noteDeployment(resource, where, result);
  unknownKeys(resource, ['type', 'name', 'properties', ...DEPLOYMENT_FIELDS], where, result);
  return endpointOf({ name, type: resource.type, properties: resource.properties ?? {} }, where, result);
}

function noteDeployment(resource: Record<string, unknown>, where: string, result: ReadResult): void {
  const version = resource.apiVersion;
  if (typeof version === 'string' && !KNOWN_API_VERSIONS.includes(version))
    result.notes.push({
      where: `${where}.apiVersion`,
      message: `is ${version}; the import follows the schema of ${KNOWN_API_VERSIONS.join(' and ')}, whose fields it reads the same way`,
    });
  for (const field of ['dependsOn', 'comments', 'scope'])
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

/** The fields of `properties` beside the object's own (ARM resources; `az` output has none). */
function unwrap(value: Record<string, unknown>): Record<string, unknown> {
  const { properties, ...rest } = value;
  return isRecord(properties) ? { ...rest, ...properties } : value;
}

/** `parameters()` from the parameters files, else the template's `defaultValue`; `variables()` from the template. */
function templateScope(template: Record<string, unknown>, values: Map<string, unknown>): ExpressionScope {
  const declared = isRecord(template.parameters) ? template.parameters : {};
  const variables = isRecord(template.variables) ? template.variables : {};
  const evaluating = new Set<string>();
  const scope: ExpressionScope = {
    parameter(name) {
      const key = Object.keys(declared).find((k) => k.toLowerCase() === name.toLowerCase());
      if (key === undefined) return undefined;
      if (values.has(key)) return values.get(key);
      const declaration = declared[key];
      return isRecord(declaration) ? once(`p:${key}`, declaration.defaultValue) : undefined;
    },
    variable(name) {
      const key = Object.keys(variables).find((k) => k.toLowerCase() === name.toLowerCase());
      return key === undefined ? undefined : once(`v:${key}`, variables[key]);
    },
  };
  function once(key: string, value: unknown): unknown {
    if (evaluating.has(key)) throw new ArmExpressionError(`refers to itself (${key.slice(2)})`);
    evaluating.add(key);
    try {
      return deep(value, scope);
    } finally {
      evaluating.delete(key);
    }
  }
  return scope;
}

/** Every expression in `value` evaluated; a problem naming the field for each one that cannot be (its value: `undefined`). */
function resolve(value: unknown, where: string, scope: ExpressionScope, result: ReadResult): unknown {
  return deep(value, scope, (error, at, text) => {
    result.problems.push({
      where: `${where}${at}`,
      message: `${error.message}, got ${JSON.stringify(text)}`,
    });
  });
}

type OnError = (error: ArmExpressionError, at: string, text: string) => void;

/** Without `onError`, the first expression that cannot be evaluated throws (a parameter's defaultValue, a variable). */
function deep(value: unknown, scope: ExpressionScope, onError?: OnError, at = ''): unknown {
  if (typeof value === 'string') {
    try {
      return evaluateString(value, scope);
    } catch (error) {
      if (!(error instanceof ArmExpressionError) || onError === undefined) throw error;
      onError(error, at, value);
      return undefined;
    }
  }
  if (Array.isArray(value))
    return value.map((item: unknown, index) => deep(item, scope, onError, `${at}[${index}]`));
  if (isRecord(value))
    return Object.fromEntries(
      Object.entries(value).map(([key, field]) => [key, deep(field, scope, onError, `${at}.${key}`)]),
    );
  return value;
}
