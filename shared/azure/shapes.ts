/** What the readers of Azure's files (`documents.ts`, `template.ts`) find: profiles and endpoints with where each was. */
import { armEndpointKind, type AzureEndpointKind } from '../profile/azure-forms.js';
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
  const { name, type, ...fields } = unwrap(value);
  const kind = typeof type === 'string' ? armEndpointKind(type) : undefined;
  if (type !== undefined && kind === undefined)
    result.problems.push({
      where: `${where} "${String(name)}".type`,
      message: `is not an endpoint type of Traffic Manager (externalEndpoints, nestedEndpoints, azureEndpoints), got ${JSON.stringify(type)}`,
    });
  return { where: `${where} "${String(name)}"`, name: String(name), kind, fields };
}

/** The fields of `properties` beside the object's own (ARM resources; `az` output has none). */
export function unwrap(value: Record<string, unknown>): Record<string, unknown> {
  const { properties, ...rest } = value;
  return isRecord(properties) ? { ...rest, ...properties } : value;
}
