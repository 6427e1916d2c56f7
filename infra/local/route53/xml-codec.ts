/**
 * Route 53's REST-XML (API version 2013-04-01) for the operations the local
 * Route 53 serves: request bodies → plain inputs, results → response XML.
 * Element names and list wrappers follow the SDK's model
 * (@aws-sdk/client-route-53): most lists name their items (`<Change>`,
 * `<ResourceRecord>`, `<HostedZone>`), the CIDR lists use `<member>`.
 */
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import type { StoredRecordSet } from './stored-record.js';
import {
  ALIAS_TARGET_ELEMENTS,
  CIDR_ROUTING_CONFIG_ELEMENTS,
  GEO_LOCATION_ELEMENTS,
  RECORD_SET_ELEMENTS,
  type ChangeInput,
  type RecordSetInput,
} from './change-input.js';
import { invalidInput, type Route53ApiError } from './errors.js';
import { toRoute53Name } from '../../../shared/zone/names.js';
import { present } from './present.js';
import type { ChangeView } from './change-log.js';
import type { CidrCollectionChangeInput, CidrCollectionView } from './cidr-collections.js';
import type { HostedZoneView } from './store.js';

const XML_NAMESPACE = 'https://route53.amazonaws.com/doc/2013-04-01/';

/** Elements that are list items in the requests we parse (so one item still parses as a list). */
const LIST_ITEMS = new Set(['Change', 'ResourceRecord', 'member', 'Cidr', 'ChildHealthCheck']);

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  ignoreDeclaration: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (tagName) => LIST_ITEMS.has(tagName),
});

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  suppressEmptyNode: false,
});

export type XmlNode = { readonly [key: string]: unknown };

// --- requests --------------------------------------------------------------

export function parseChangeResourceRecordSetsRequest(xml: string): {
  comment?: string;
  changes: ChangeInput[];
} {
  const batch = child(root(xml, 'ChangeResourceRecordSetsRequest'), 'ChangeBatch');
  if (batch === undefined)
    throw invalidInput('Invalid XML: ChangeBatch is missing from ChangeResourceRecordSetsRequest');
  const changes = list(child(batch, 'Changes'), 'Change').map((change): ChangeInput => ({
    ...texts(change, { action: 'Action' }),
    recordSet: recordSetInput(child(change, 'ResourceRecordSet') ?? {}),
  }));
  return { ...texts(batch, { comment: 'Comment' }), changes };
}

function recordSetInput(node: XmlNode): RecordSetInput {
  const records = child(node, 'ResourceRecords');
  return {
    ...texts(node, RECORD_SET_ELEMENTS),
    ...present({
      geoProximityLocation: node['GeoProximityLocation'] === undefined ? undefined : true,
      geoLocation: group(node, 'GeoLocation', GEO_LOCATION_ELEMENTS),
      aliasTarget: group(node, 'AliasTarget', ALIAS_TARGET_ELEMENTS),
      cidrRoutingConfig: group(node, 'CidrRoutingConfig', CIDR_ROUTING_CONFIG_ELEMENTS),
      values: records && list(records, 'ResourceRecord').map((record) => text(record, 'Value') ?? ''),
    }),
  };
}

export function parseCreateCidrCollectionRequest(xml: string): { name: string; callerReference: string } {
  const request = root(xml, 'CreateCidrCollectionRequest');
  return { name: required(request, 'Name'), callerReference: required(request, 'CallerReference') };
}

export function parseChangeCidrCollectionRequest(xml: string): {
  collectionVersion?: number;
  changes: CidrCollectionChangeInput[];
} {
  const request = root(xml, 'ChangeCidrCollectionRequest');
  const version = text(request, 'CollectionVersion');
  if (version !== undefined && !/^\d+$/.test(version))
    throw invalidInput(`Invalid CollectionVersion: '${version}'`);
  const changes = list(child(request, 'Changes'), 'member').map((change): CidrCollectionChangeInput => ({
    ...texts(change, { locationName: 'LocationName', action: 'Action' }),
    cidrs: textList(child(change, 'CidrList'), 'Cidr'),
  }));
  return { ...(version === undefined ? {} : { collectionVersion: Number(version) }), changes };
}

export function root(xml: string, name: string): XmlNode {
  let parsed: unknown;
  try {
    parsed = parser.parse(xml, true);
  } catch (error) {
    throw invalidInput(`Invalid XML: ${(error as Error).message}`);
  }
  const node = isNode(parsed) ? parsed[name] : undefined;
  if (!isNode(node)) throw invalidInput(`Invalid XML: expected a ${name} document`);
  return node;
}

function isNode(value: unknown): value is XmlNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function child(node: XmlNode | undefined, key: string): XmlNode | undefined {
  const value = node?.[key];
  if (value === '') return {};
  return isNode(value) ? value : undefined;
}

function text(node: XmlNode, key: string): string | undefined {
  const value = node[key];
  return typeof value === 'string' ? value : undefined;
}

function required(node: XmlNode, key: string): string {
  const value = text(node, key);
  if (value === undefined || value === '') throw invalidInput(`Invalid XML: ${key} is required`);
  return value;
}

function list<T = XmlNode>(node: XmlNode | undefined, item: string): T[] {
  const value = node?.[item];
  return Array.isArray(value) ? (value as T[]) : [];
}

/** The text of each element in `elements` (input member → element name) that is there. */
export function texts<K extends string>(
  node: XmlNode,
  elements: Readonly<Record<K, string>>,
): { [P in K]?: string } {
  const found: { [P in K]?: string } = {};
  for (const [member, element] of Object.entries(elements) as [K, string][]) {
    const value = text(node, element);
    if (value !== undefined) found[member] = value;
  }
  return found;
}

/** `texts` of a child element, or undefined when the child is not there. */
export function group<K extends string>(
  node: XmlNode,
  key: string,
  elements: Readonly<Record<K, string>>,
): { [P in K]?: string } | undefined {
  const found = child(node, key);
  return found === undefined ? undefined : texts(found, elements);
}

/** The texts of a list's items (an item that is not text reads as ''). */
export function textList(node: XmlNode | undefined, item: string): string[] {
  return list<unknown>(node, item).map((value) => (typeof value === 'string' ? value : ''));
}

// --- responses ---------------------------------------------------------------
// A response is `<Operation>Response` (routes.ts names it); these are the elements it holds.

/** A response document; the builder leaves out members that are undefined and writes numbers and booleans as text. */
export function document(rootName: string, body: Readonly<Record<string, unknown>>): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ [rootName]: { '@_xmlns': XML_NAMESPACE, ...body } })}`;
}

export function changeInfo(change: ChangeView): Record<string, unknown> {
  return {
    Id: `/change/${change.id}`,
    Status: change.status,
    SubmittedAt: change.submittedAt.toISOString(),
    Comment: change.comment,
  };
}

export function hostedZone(zone: HostedZoneView): Record<string, unknown> {
  return {
    Id: `/hostedzone/${zone.id}`,
    Name: toRoute53Name(zone.name),
    CallerReference: zone.callerReference,
    Config: { PrivateZone: 'false' },
    ResourceRecordSetCount: zone.recordCount,
  };
}

export function resourceRecordSet(record: StoredRecordSet): Record<string, unknown> {
  const alias = record.aliasTarget;
  return {
    Name: toRoute53Name(record.name),
    Type: record.type,
    SetIdentifier: record.setIdentifier,
    Weight: record.weight,
    Region: record.region,
    GeoLocation: record.geoLocation && elementsOf(record.geoLocation, GEO_LOCATION_ELEMENTS),
    Failover: record.failover,
    MultiValueAnswer: record.multiValueAnswer,
    TTL: record.ttl,
    ResourceRecords: alias ? undefined : { ResourceRecord: record.values.map((value) => ({ Value: value })) },
    AliasTarget: alias && {
      ...elementsOf(alias, ALIAS_TARGET_ELEMENTS),
      DNSName: toRoute53Name(alias.dnsName),
    },
    HealthCheckId: record.healthCheckId,
    CidrRoutingConfig:
      record.cidrRoutingConfig && elementsOf(record.cidrRoutingConfig, CIDR_ROUTING_CONFIG_ELEMENTS),
  };
}

/** The inverse of `texts`: each member of `value` under its element name. */
export function elementsOf<K extends string>(
  value: Readonly<Partial<Record<K, unknown>>>,
  elements: Readonly<Record<K, string>>,
): Record<string, unknown> {
  return Object.fromEntries(
    (Object.entries(elements) as [K, string][]).map(([member, element]) => [element, value[member]]),
  );
}

export function cidrCollection(view: CidrCollectionView): Record<string, unknown> {
  return { Arn: view.arn, Id: view.id, Name: view.name, Version: view.version };
}

/**
 * Route 53's `ErrorResponse`. A rejected change batch is one too, as Route 53 answers it: code
 * `InvalidChangeBatch` and one `Message` listing every problem ("[first, second]"), no list of
 * them (the SDK's `InvalidChangeBatch.messages` stays empty, as against AWS).
 */
export function errorResponse(error: Route53ApiError, requestId: string): string {
  return document('ErrorResponse', {
    Error: { Type: error.type, Code: error.code, Message: error.message },
    RequestId: requestId,
  });
}
