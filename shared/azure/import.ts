/**
 * `tm import azure`'s core: Azure Traffic Manager profiles (read by `documents.ts`) → a
 * definitions list that validates, plus a report line for every field Route 53 cannot
 * carry as it is. What is Azure-only in form (case, `properties` and nulls, ARM types,
 * subnets, Azure region names, read-only fields) is left to the same normalisation
 * definitions files get (`fromAzureForms`, `unwrapProperties`); what needs the import's
 * options or every profile at once is done here: names, `dnsConfig` under the zone you
 * own, nested profiles by resource id, Azure endpoints by `--target`, weights and
 * geographic codes, and what ARM makes of a template (integers written as text, fields
 * Azure ignores for the routing method: `adjust.ts`).
 */
import { AZURE_DNS_SUFFIX, childProfileName, fromAzureForms } from '../profile/azure-forms.js';
import {
  formatIssue,
  formatPath,
  formatReceived,
  isRecord,
  type ValidationIssue,
} from '../profile/issues.js';
import { isResourceName } from '../profile/names.js';
import { parseDefinitions } from '../profile/parse.js';
import {
  readAzureDocuments,
  type AzureDocument,
  type AzureEndpoint,
  type AzureProfile,
} from './documents.js';
import { adjustProfile } from './adjust.js';
import { mapGeoCodes } from './geo.js';
import { formatProblem, type ImportProblem } from './problems.js';
import { ROUTE53_MAX_WEIGHT, scaleWeights } from './weights.js';

export interface ImportOptions {
  /** The Route 53 zone the profiles' names go under (`--zone`). */
  readonly zoneName: string;
  readonly hostedZoneId: string;
  /** `--target RESOURCE_ID=HOST`: the host name of each Azure resource an `azureEndpoints` endpoint names. */
  readonly targets: ReadonlyMap<string, string>;
}

export type ImportResult =
  /** `report`: one line per field mapped with a difference, dropped, or rounded. */
  | { readonly ok: true; readonly profiles: Record<string, unknown>[]; readonly report: string[] }
  | { readonly ok: false; readonly problems: string[] };

const RULE = 'azure-import';

export function importAzure(documents: readonly AzureDocument[], options: ImportOptions): ImportResult {
  const read = readAzureDocuments(documents);
  const problems: ImportProblem[] = [...read.problems];
  const adjusted = read.profiles.flatMap(adjustProfile);
  if (read.profiles.length === 0 && problems.length === 0)
    problems.push({
      where: documents.map((document) => document.file).join(', '),
      message: 'hold no Traffic Manager profile (Microsoft.Network/trafficmanagerprofiles)',
    });
  const names = profileNames(read.profiles, problems);
  const targets = new Map([...options.targets].map(([id, host]) => [id.toLowerCase(), host]));
  const used = new Set<string>();
  const notices: ValidationIssue[] = [];
  const list = read.profiles.map((profile, index) =>
    profileOf(profile, ['profiles', index], { options, names, targets, used, notices, problems }),
  );
  for (const id of targets.keys())
    if (!used.has(id))
      problems.push({
        where: `--target ${id}`,
        message: 'names no azureEndpoints endpoint of the files imported',
      });
  if (problems.length > 0) return { ok: false, problems: problems.map(formatProblem) };

  const azure = fromAzureForms(list);
  const profiles = azure.profiles as Record<string, unknown>[];
  const parsed = parseDefinitions(profiles);
  if (!parsed.ok || azure.issues.length > 0)
    return {
      ok: false,
      problems: [...azure.issues, ...(parsed.ok ? [] : parsed.issues)].map((issue) =>
        inFile(issue, profiles, read.profiles),
      ),
    };
  const report = [
    ...read.notes.map(formatProblem),
    ...adjusted.map(formatProblem),
    ...[...notices, ...azure.notices].map((notice) => formatIssue(notice, profiles)),
  ];
  return { ok: true, profiles, report };
}

/** A validation issue of `profiles[i]…`, named by the file and place the profile came from. */
function inFile(
  issue: ValidationIssue,
  profiles: readonly Record<string, unknown>[],
  read: readonly AzureProfile[],
): string {
  const [list, index, ...rest] = issue.path;
  const source = typeof index === 'number' ? read[index] : undefined;
  const profile = typeof index === 'number' ? profiles[index] : undefined;
  if (list !== 'profiles' || source === undefined || profile === undefined)
    return formatIssue(issue, profiles);
  const place = rest.length === 0 ? '' : `${rest[0] === 'endpoints' ? ' ' : '.'}${formatPath(rest, profile)}`;
  return `${source.where}${place}: ${issue.message}, got ${issue.receivedText ?? formatReceived(issue.received)}`;
}

interface Context {
  readonly options: ImportOptions;
  /** Azure profile name (lower case) → its name here. */
  readonly names: ReadonlyMap<string, string>;
  readonly targets: ReadonlyMap<string, string>;
  /** The `--target` resource ids an endpoint used. */
  readonly used: Set<string>;
  readonly notices: ValidationIssue[];
  readonly problems: ImportProblem[];
}

type Path = (string | number)[];

function profileOf(profile: AzureProfile, path: Path, context: Context): Record<string, unknown> {
  const { dnsConfig, ...fields } = profile.fields;
  const name = context.names.get(profile.name.toLowerCase()) ?? profile.name;
  const endpointNames = new Set<string>();
  const endpoints = profile.endpoints.map((endpoint, index) =>
    endpointOf(endpoint, [...path, 'endpoints', index], endpointNames, context),
  );
  scaleProfileWeights(profile, endpoints, path, context);
  mapProfileGeoCodes(profile, endpoints, path, context);
  if (name !== profile.name)
    context.notices.push({
      path: [...path, 'name'],
      rule: RULE,
      received: profile.name,
      message: `is the Azure name; names here are letters, digits and '-': it is ${JSON.stringify(name)}`,
    });
  return {
    name,
    ...fields,
    dnsConfig: dnsConfigOf(dnsConfig, profile, [...path, 'dnsConfig'], context),
    endpoints,
  };
}

function dnsConfigOf(
  value: unknown,
  profile: AzureProfile,
  path: Path,
  context: Context,
): Record<string, unknown> {
  const { zoneName, hostedZoneId } = context.options;
  const { fqdn, relativeName, ...rest } = isRecord(value) ? value : {};
  if (typeof relativeName !== 'string' || relativeName === '') {
    context.problems.push({
      where: `${profile.where}.dnsConfig.relativeName`,
      message: "must be the profile's DNS name under trafficmanager.net",
    });
    return {};
  }
  const label = relativeName.toLowerCase();
  // Sovereign clouds use other suffixes (trafficmanager.cn, usgovtrafficmanager.net): the fqdn says which.
  const azureName =
    typeof fqdn === 'string' && fqdn !== '' ? fqdn.toLowerCase() : `${label}.${AZURE_DNS_SUFFIX}`;
  if (fqdn !== undefined && fqdn !== null)
    context.notices.push({
      path: [...path, 'fqdn'],
      rule: RULE,
      received: fqdn,
      message: `is the profile's Azure name (read-only): here the name is ${label}.${zoneName}`,
    });
  context.notices.push({
    path: [...path, 'relativeName'],
    rule: RULE,
    received: relativeName,
    message: `was ${azureName} in Azure; here it is ${label}.${zoneName}, in the zone you own (point your users' name at it, as at the Azure name before)`,
  });
  return { zoneName, hostedZoneId, relativeName: label, ...rest };
}

interface EndpointOut extends Record<string, unknown> {
  name: string;
  weight?: unknown;
  geoMapping?: unknown;
}

function endpointOf(endpoint: AzureEndpoint, path: Path, taken: Set<string>, context: Context): EndpointOut {
  const name = uniqueName(resourceName(endpoint.name), taken);
  if (name !== endpoint.name)
    context.notices.push({
      path: [...path, 'name'],
      rule: RULE,
      received: endpoint.name,
      message: `is the Azure name; names here are letters, digits and '-', unique in the profile: it is ${JSON.stringify(name)}`,
    });
  const { targetResourceId, ...fields } = endpoint.fields;
  const out: EndpointOut = { name, ...fields };
  if (endpoint.kind === 'nested') {
    out.type = 'nested'; // the target az shows, the child's Azure name, is dropped by fromAzureForms
    const child = childProfileName(targetResourceId);
    const ours = child === undefined ? undefined : context.names.get(child.toLowerCase());
    if (ours === undefined) {
      context.problems.push({
        where: `${endpoint.where}.targetResourceId`,
        message:
          targetResourceId === undefined
            ? 'is missing: a nested endpoint names its child profile by resource id (…/trafficManagerProfiles/NAME)'
            : child === undefined
              ? `must be the resource id of the child profile (…/trafficManagerProfiles/NAME), got ${JSON.stringify(targetResourceId)}`
              : `names the profile ${JSON.stringify(child)}, which is not in the files imported: import it with this one`,
      });
    } else {
      out.targetProfile = ours;
      context.notices.push({
        path: [...path, 'targetResourceId'],
        rule: RULE,
        received: targetResourceId,
        message: `is the child profile ${JSON.stringify(ours)}, imported with it`,
      });
    }
  } else if (endpoint.kind === 'azure') {
    const id = typeof targetResourceId === 'string' ? targetResourceId.toLowerCase() : '';
    const host = context.targets.get(id) ?? (typeof fields.target === 'string' ? fields.target : undefined);
    if (context.targets.has(id)) context.used.add(id);
    if (host === undefined) {
      context.problems.push({
        where: `${endpoint.where}.targetResourceId`,
        message: `is an Azure resource (azureEndpoints) with no host name here: give it with --target ${typeof targetResourceId === 'string' ? targetResourceId : 'RESOURCE_ID'}=HOST`,
      });
    } else {
      out.target = host;
      context.notices.push({
        path: [...path, 'targetResourceId'],
        rule: RULE,
        received: targetResourceId,
        message: `is an Azure resource (azureEndpoints): it is probed and published as the external endpoint ${JSON.stringify(host)}`,
      });
    }
  } else if (targetResourceId !== undefined) {
    out.targetResourceId = targetResourceId; // an external endpoint's: the shared normalisation reports it
  }
  return out;
}

function scaleProfileWeights(
  profile: AzureProfile,
  endpoints: EndpointOut[],
  path: Path,
  context: Context,
): void {
  const scaled = scaleWeights(endpoints.map((endpoint) => endpoint.weight));
  for (const change of scaled.changes) {
    const endpoint = endpoints[change.index];
    if (endpoint === undefined) continue;
    endpoint.weight = change.to;
    context.notices.push({
      path: [...path, 'endpoints', change.index, 'weight'],
      rule: RULE,
      received: change.from,
      message: scaled.exact
        ? `is ${change.to} here (Route 53 weights are 1–${ROUTE53_MAX_WEIGHT}; every weight of "${profile.name}" divided by ${scaled.divisor}: the same ratios)`
        : `is ${change.to === change.from ? 'still ' : ''}${change.to} here (Route 53 weights are 1–${ROUTE53_MAX_WEIGHT}; scaled so the largest is ${ROUTE53_MAX_WEIGHT}, rounded): ${percent(change.shareBefore)} of the traffic in Azure, ${percent(change.shareAfter)} here`,
    });
  }
}

function mapProfileGeoCodes(
  profile: AzureProfile,
  endpoints: EndpointOut[],
  path: Path,
  context: Context,
): void {
  if (!endpoints.some((endpoint) => Array.isArray(endpoint.geoMapping))) return;
  const geo = mapGeoCodes(
    endpoints.map((endpoint) => endpoint.geoMapping),
    endpoints.map((endpoint) => endpoint.name),
  );
  geo.mappings.forEach((mapping, index) => {
    const endpoint = endpoints[index];
    if (endpoint !== undefined && mapping !== undefined) endpoint.geoMapping = mapping;
  });
  for (const note of geo.notes)
    context.notices.push({
      path: [...path, 'endpoints', note.endpoint, 'geoMapping'],
      rule: RULE,
      received: note.received,
      message: note.message,
    });
  for (const problem of geo.problems)
    context.problems.push({
      where: `${profile.endpoints[problem.endpoint]?.where ?? profile.where}.geoMapping`,
      message: `${JSON.stringify(problem.code)} ${problem.message}`,
    });
}

/** A share of the traffic: one decimal, two below 1%. */
function percent(share: number): string {
  const value = share * 100;
  return `${value.toFixed(value < 1 ? 2 : 1)}%`;
}

/** Azure profile name → ours, for every profile; two that would get the same name are a problem. */
function profileNames(profiles: readonly AzureProfile[], problems: ImportProblem[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Map<string, AzureProfile>();
  for (const profile of profiles) {
    const name = resourceName(profile.name);
    const other = taken.get(name.toLowerCase());
    if (other !== undefined) {
      problems.push({
        where: `${profile.where}.name`,
        message: `is also the name of ${other.where} (names here are compared without case, '.' and '_' read as '-'): import one of them`,
      });
      continue;
    }
    taken.set(name.toLowerCase(), profile);
    names.set(profile.name.toLowerCase(), name);
  }
  return names;
}

/** Letters, digits and '-' (Azure also allows '.', '_', spaces in endpoint names), 1–63 long. */
function resourceName(name: string): string {
  if (isResourceName(name)) return name;
  const cleaned = name
    .replace(/[^A-Za-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  return cleaned === '' ? 'endpoint' : cleaned;
}

function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n += 1) candidate = `${name.slice(0, 60)}-${n}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}
