/**
 * The Traffic Manager profiles in Azure's files: ARM templates (`template.ts`; Bicep
 * compiles to these), parameters files for their `[parameters('…')]` expressions, and the
 * JSON of `az network traffic-manager profile show` (one profile), `list` (an array) and the
 * REST API's list (`{ "value": [ … ] }`). Each profile comes out as its Azure fields plus
 * its endpoints, with where each was found; endpoint resources written apart from their
 * profile are attached to it whichever file holds it.
 */
import { isDeepStrictEqual } from 'node:util';
import { PROFILE_TYPE } from '../profile/azure-forms.js';
import { isRecord } from '../profile/issues.js';
import {
  azureFields,
  endpointsOf,
  type AzureDocument,
  type AzureEndpoint,
  type AzureProfile,
  type ReadResult,
} from './shapes.js';
import { declaredParameters, readTemplate } from './template.js';

export type { AzureDocument, AzureEndpoint, AzureProfile, ReadResult } from './shapes.js';

export function readAzureDocuments(documents: readonly AzureDocument[]): ReadResult {
  const result: ReadResult = { profiles: [], problems: [], notes: [], children: [] };
  const parameterValues = new Map<string, unknown>();
  const parameterFiles = new Map<string, string>();
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
      for (const name of parameterValues.keys())
        if (!parameterFiles.has(name)) parameterFiles.set(name, file);
    } else if (Array.isArray(content.resources) || isRecord(content.resources)) {
      templates.push(document);
    } else if (typeof content.type === 'string' && PROFILE_TYPE.test(content.type)) {
      fromAzCli(content, file, result);
    } else if (Array.isArray(content.value) && !('type' in content)) {
      content.value.forEach((profile: unknown, index) => {
        fromAzCli(profile, `${file} value[${index}]`, result);
      });
    } else {
      result.problems.push({ where: file, message: NOT_AZURE });
    }
  }
  for (const template of templates) readTemplate(template, parameterValues, result);
  noteUnusedParameters(templates, parameterFiles, result);
  attachChildren(result);
  return result;
}

const NOT_AZURE =
  'is neither an ARM template (resources), a parameters file, nor the JSON of az network traffic-manager profile show (one profile) or list (an array, or the REST API\'s { "value": [ … ] })';

/** A parameter no template declares is not used: a typo would otherwise leave a default in place unnoticed. */
function noteUnusedParameters(
  templates: readonly AzureDocument[],
  parameterFiles: ReadonlyMap<string, string>,
  result: ReadResult,
): void {
  const declared = new Set(
    templates.flatMap((template) => declaredParameters(template.content as Record<string, unknown>)),
  );
  for (const [name, file] of parameterFiles)
    if (!declared.has(name.toLowerCase()))
      result.notes.push({
        where: `${file} parameters.${name}`,
        message: 'is not a parameter of any template imported: not used',
      });
}

/** Endpoint resources (`PROFILE/ENDPOINT`, child resources) onto their profile, from any file. */
function attachChildren(result: ReadResult): void {
  const byName = new Map<string, AzureProfile>();
  for (const profile of result.profiles)
    if (!byName.has(profile.name.toLowerCase())) byName.set(profile.name.toLowerCase(), profile);
  for (const { parent, endpoint } of result.children) {
    const profile = byName.get(parent.toLowerCase());
    if (profile === undefined)
      result.problems.push({
        where: endpoint.where,
        message: `belongs to the profile ${JSON.stringify(parent)}, which none of the files imported defines: give the file of the profile too`,
      });
    else attach(profile, endpoint, result);
  }
}

/**
 * An export of a resource group writes each endpoint twice: inline in the profile and as a
 * resource beside it. The same endpoint twice is imported once; two different ones are refused.
 */
function attach(profile: AzureProfile, endpoint: AzureEndpoint, result: ReadResult): void {
  const twin = profile.endpoints.find((other) => other.name.toLowerCase() === endpoint.name.toLowerCase());
  if (twin === undefined) {
    profile.endpoints.push(endpoint);
  } else if (isDeepStrictEqual(twin.fields, endpoint.fields) && twin.kind === endpoint.kind) {
    result.notes.push({
      where: endpoint.where,
      message: `is ${twin.where} again, as an export writes it: imported once`,
    });
  } else {
    result.problems.push({
      where: endpoint.where,
      message: `has the name of ${twin.where} with other fields: keep one of them`,
    });
  }
}

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
  const { name } = value;
  const at = `${where} "${name}"`;
  const { name: _name, endpoints, ...fields } = azureFields(value, at, result);
  result.profiles.push({
    where: at,
    name,
    fields,
    endpoints: endpointsOf(endpoints, `${at} endpoints`, result),
  });
}
