/** What the readers of Azure's files (`documents.ts`, `template.ts`) find: profiles and endpoints with where each was. */
import { armEndpointKind, unwrapProperties, type AzureEndpointKind } from '../profile/azure-forms.js';
import { isRecord } from '../profile/issues.js';
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
  readonly kind: AzureEndpointKind | undefined;
  /** Its fields (`properties` unwrapped, `null` ones left out). */
  readonly fields: Record<string, unknown>;
}

export interface AzureProfile {
  readonly where: string;
  readonly name: string;
  /** Its fields (`properties` unwrapped, `location` and `tags` kept, `null` ones left out), without `name` and `endpoints`. */
  readonly fields: Record<string, unknown>;
  readonly endpoints: AzureEndpoint[];
}

/** An endpoint resource found apart from its profile (`PROFILE/ENDPOINT`, or a child resource). */
export interface ChildEndpoint {
  readonly parent: string;
  readonly endpoint: AzureEndpoint;
}

export interface ReadResult {
  readonly profiles: AzureProfile[];
  readonly problems: ImportProblem[];
  /** What was read and dropped on the way (ARM deployment metadata), for the report. */
  readonly notes: ImportProblem[];
  /** Endpoint resources, attached to their profiles once every file is read. */
  readonly children: ChildEndpoint[];
}

export function endpointOf(value: unknown, where: string, result: ReadResult): AzureEndpoint | undefined {
  if (!isRecord(value) || typeof value.name !== 'string') {
    result.problems.push({ where, message: 'must be an endpoint with a name' });
    return undefined;
  }
  const { name } = value;
  const at = `${where} "${name}"`;
  const { name: _name, type, ...fields } = azureFields(value, at, result);
  const kind = typeof type === 'string' ? armEndpointKind(type) : undefined;
  if (type !== undefined && kind === undefined)
    result.problems.push({
      where: `${at}.type`,
      message: `is not an endpoint type of Traffic Manager (externalEndpoints, nestedEndpoints, azureEndpoints), got ${JSON.stringify(type)}`,
    });
  return { where: at, name, kind, fields };
}

/** A list of endpoints (`where` names the list); a non-list is none. */
export function endpointsOf(list: unknown, where: string, result: ReadResult): AzureEndpoint[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((endpoint: unknown, index) => endpointOf(endpoint, `${where}[${index}]`, result) ?? []);
}

/**
 * An object's fields as definitions read them (`unwrapProperties`: `properties` unwrapped,
 * `null` fields left out). A field written both in `properties` and beside it is a problem:
 * which one Azure holds is not known.
 */
export function azureFields(
  value: Record<string, unknown>,
  where: string,
  result: ReadResult,
): Record<string, unknown> {
  const fields = unwrapProperties(value);
  const { properties, ...rest } = fields;
  if (!isRecord(properties)) return fields;
  const both = Object.keys(properties).filter((key) => key in rest);
  result.problems.push({
    where: `${where}.properties`,
    message: `holds ${both.join(', ')}, also written beside it: keep one`,
  });
  return { ...rest, ...properties };
}
