/**
 * Route 53's REST-XML (API version 2013-04-01) for the operations the local
 * Route 53 serves: request bodies → plain inputs, results → response XML.
 * Element names and list wrappers follow the SDK's model
 * (@aws-sdk/client-route-53): most lists name their items (`<Change>`,
 * `<ResourceRecord>`, `<HostedZone>`), the CIDR lists use `<member>`.
 */
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import type { StoredRecordSet } from './stored-record.js';
import type { ChangeInput, RecordSetInput } from './change-input.js';
import { InvalidInputError, type Route53ApiError } from './errors.js';
import type { RecordPage } from './listing.js';
import { toRoute53Name } from '../../../shared/zone/names.js';
import type {
  CidrCollectionChangeInput,
  CidrCollectionView,
  ChangeView,
  HostedZonePage,
  HostedZoneView,
  Paged,
} from './store.js';

export const XML_NAMESPACE = 'https://route53.amazonaws.com/doc/2013-04-01/';

/** Elements that are list items in the requests we parse (so one item still parses as a list). */
const LIST_ITEMS = new Set([
  'Change',
  'ResourceRecord',
  'member',
  'Cidr',
  'ChildHealthCheck',
  'ResettableElementName',
]);

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
    throw new InvalidInputError('Invalid XML: ChangeBatch is missing from ChangeResourceRecordSetsRequest');
  const comment = text(batch, 'Comment');
  const changes = list(child(batch, 'Changes'), 'Change').map((change): ChangeInput => ({
    ...optional('action', text(change, 'Action')),
    recordSet: recordSetInput(child(change, 'ResourceRecordSet') ?? {}),
  }));
  return { ...optional('comment', comment), changes };
}

function recordSetInput(node: XmlNode): RecordSetInput {
  const geo = child(node, 'GeoLocation');
  const alias = child(node, 'AliasTarget');
  const cidr = child(node, 'CidrRoutingConfig');
  const records = child(node, 'ResourceRecords');
  return {
    ...optional('name', text(node, 'Name')),
    ...optional('type', text(node, 'Type')),
    ...optional('setIdentifier', text(node, 'SetIdentifier')),
    ...optional('weight', text(node, 'Weight')),
    ...optional('region', text(node, 'Region')),
    ...optional('failover', text(node, 'Failover')),
    ...optional('multiValueAnswer', text(node, 'MultiValueAnswer')),
    ...optional('ttl', text(node, 'TTL')),
    ...optional('healthCheckId', text(node, 'HealthCheckId')),
    ...optional('trafficPolicyInstanceId', text(node, 'TrafficPolicyInstanceId')),
    ...(node['GeoProximityLocation'] === undefined ? {} : { geoProximityLocation: true }),
    ...(geo === undefined
      ? {}
      : {
          geoLocation: {
            ...optional('continentCode', text(geo, 'ContinentCode')),
            ...optional('countryCode', text(geo, 'CountryCode')),
            ...optional('subdivisionCode', text(geo, 'SubdivisionCode')),
          },
        }),
    ...(alias === undefined
      ? {}
      : {
          aliasTarget: {
            ...optional('hostedZoneId', text(alias, 'HostedZoneId')),
            ...optional('dnsName', text(alias, 'DNSName')),
            ...optional('evaluateTargetHealth', text(alias, 'EvaluateTargetHealth')),
          },
        }),
    ...(cidr === undefined
      ? {}
      : {
          cidrRoutingConfig: {
            ...optional('collectionId', text(cidr, 'CollectionId')),
            ...optional('locationName', text(cidr, 'LocationName')),
          },
        }),
    ...(records === undefined
      ? {}
      : { values: list(records, 'ResourceRecord').map((record) => text(record, 'Value') ?? '') }),
  };
}

export function parseCreateHostedZoneRequest(xml: string): {
  name: string;
  callerReference: string;
  comment?: string;
} {
  const request = root(xml, 'CreateHostedZoneRequest');
  const config = child(request, 'HostedZoneConfig');
  if (config !== undefined && text(config, 'PrivateZone') === 'true')
    throw new InvalidInputError('The local Route 53 serves public hosted zones only');
  return {
    name: required(request, 'Name'),
    callerReference: required(request, 'CallerReference'),
    ...optional('comment', config === undefined ? undefined : text(config, 'Comment')),
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
    throw new InvalidInputError(`Invalid CollectionVersion: '${version}'`);
  const changes = list(child(request, 'Changes'), 'member').map((change): CidrCollectionChangeInput => ({
    ...optional('locationName', text(change, 'LocationName')),
    ...optional('action', text(change, 'Action')),
    cidrs: list(child(change, 'CidrList'), 'Cidr').map((cidr) => (typeof cidr === 'string' ? cidr : '')),
  }));
  return { ...(version === undefined ? {} : { collectionVersion: Number(version) }), changes };
}

export function root(xml: string, name: string): XmlNode {
  let parsed: unknown;
  try {
    parsed = parser.parse(xml, true);
  } catch (error) {
    throw new InvalidInputError(`Invalid XML: ${(error as Error).message}`);
  }
  const node = isNode(parsed) ? parsed[name] : undefined;
  if (!isNode(node)) throw new InvalidInputError(`Invalid XML: expected a ${name} document`);
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

export function text(node: XmlNode, key: string): string | undefined {
  const value = node[key];
  return typeof value === 'string' ? value : undefined;
}

function required(node: XmlNode, key: string): string {
  const value = text(node, key);
  if (value === undefined || value === '') throw new InvalidInputError(`Invalid XML: ${key} is required`);
  return value;
}

export function list<T = XmlNode>(node: XmlNode | undefined, item: string): T[] {
  const value = node?.[item];
  return Array.isArray(value) ? (value as T[]) : [];
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

// --- responses ---------------------------------------------------------------

export function document(rootName: string, body: Record<string, unknown>): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ [rootName]: { '@_xmlns': XML_NAMESPACE, ...compact(body) } })}`;
}

/** Drops undefined members recursively (the builder would render them as text). */
function compact(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined) continue;
    if (Array.isArray(member))
      out[key] = member.map((item: unknown) => (isPlainObject(item) ? compact(item) : item));
    else out[key] = isPlainObject(member) ? compact(member) : member;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function changeInfo(change: ChangeView): Record<string, unknown> {
  return {
    Id: `/change/${change.id}`,
    Status: change.status,
    SubmittedAt: change.submittedAt.toISOString(),
    Comment: change.comment,
  };
}

function hostedZone(zone: HostedZoneView): Record<string, unknown> {
  return {
    Id: `/hostedzone/${zone.id}`,
    Name: toRoute53Name(zone.name),
    CallerReference: zone.callerReference,
    Config: { Comment: zone.comment, PrivateZone: 'false' },
    ResourceRecordSetCount: String(zone.recordCount),
  };
}

function delegationSet(zone: HostedZoneView): Record<string, unknown> {
  return { NameServers: { NameServer: [...zone.nameServers] } };
}

export function changeInfoResponse(
  rootName: 'ChangeResourceRecordSetsResponse' | 'GetChangeResponse',
  change: ChangeView,
): string {
  return document(rootName, { ChangeInfo: changeInfo(change) });
}

export function createHostedZoneResponse(zone: HostedZoneView, change: ChangeView): string {
  return document('CreateHostedZoneResponse', {
    HostedZone: hostedZone(zone),
    ChangeInfo: changeInfo(change),
    DelegationSet: delegationSet(zone),
  });
}

export function getHostedZoneResponse(zone: HostedZoneView): string {
  return document('GetHostedZoneResponse', {
    HostedZone: hostedZone(zone),
    DelegationSet: delegationSet(zone),
  });
}

export function listHostedZonesByNameResponse(
  page: HostedZonePage,
  request: { dnsName?: string; hostedZoneId?: string; maxItems: number },
): string {
  return document('ListHostedZonesByNameResponse', {
    HostedZones: { HostedZone: page.zones.map(hostedZone) },
    DNSName: request.dnsName,
    HostedZoneId: request.hostedZoneId,
    IsTruncated: String(page.isTruncated),
    NextDNSName: page.next === undefined ? undefined : toRoute53Name(page.next.dnsName),
    NextHostedZoneId: page.next?.hostedZoneId,
    MaxItems: String(request.maxItems),
  });
}

function resourceRecordSet(record: StoredRecordSet): Record<string, unknown> {
  const geo = record.geoLocation;
  return {
    Name: toRoute53Name(record.name),
    Type: record.type,
    SetIdentifier: record.setIdentifier,
    Weight: record.weight === undefined ? undefined : String(record.weight),
    Region: record.region,
    GeoLocation:
      geo === undefined
        ? undefined
        : {
            ContinentCode: geo.continentCode,
            CountryCode: geo.countryCode,
            SubdivisionCode: geo.subdivisionCode,
          },
    Failover: record.failover,
    MultiValueAnswer: record.multiValueAnswer === undefined ? undefined : String(record.multiValueAnswer),
    TTL: record.ttl === undefined ? undefined : String(record.ttl),
    ResourceRecords:
      record.aliasTarget === undefined
        ? { ResourceRecord: record.values.map((value) => ({ Value: value })) }
        : undefined,
    AliasTarget:
      record.aliasTarget === undefined
        ? undefined
        : {
            HostedZoneId: record.aliasTarget.hostedZoneId,
            DNSName: toRoute53Name(record.aliasTarget.dnsName),
            EvaluateTargetHealth: String(record.aliasTarget.evaluateTargetHealth),
          },
    HealthCheckId: record.healthCheckId,
    CidrRoutingConfig:
      record.cidrRoutingConfig === undefined
        ? undefined
        : {
            CollectionId: record.cidrRoutingConfig.collectionId,
            LocationName: record.cidrRoutingConfig.locationName,
          },
  };
}

export function listResourceRecordSetsResponse(page: RecordPage, maxItems: number): string {
  return document('ListResourceRecordSetsResponse', {
    ResourceRecordSets: { ResourceRecordSet: page.records.map(resourceRecordSet) },
    IsTruncated: String(page.isTruncated),
    NextRecordName: page.next === undefined ? undefined : toRoute53Name(page.next.name),
    NextRecordType: page.next?.type,
    NextRecordIdentifier: page.next?.identifier,
    MaxItems: String(maxItems),
  });
}

function collection(view: CidrCollectionView): Record<string, unknown> {
  return { Arn: view.arn, Id: view.id, Name: view.name, Version: String(view.version) };
}

export function createCidrCollectionResponse(view: CidrCollectionView): string {
  return document('CreateCidrCollectionResponse', { Collection: collection(view) });
}

export function changeCidrCollectionResponse(changeId: string): string {
  return document('ChangeCidrCollectionResponse', { Id: changeId });
}

export function listCidrCollectionsResponse(page: Paged<CidrCollectionView>): string {
  return document('ListCidrCollectionsResponse', {
    NextToken: page.nextToken,
    CidrCollections: { member: page.items.map(collection) },
  });
}

export function listCidrLocationsResponse(page: Paged<string>): string {
  return document('ListCidrLocationsResponse', {
    NextToken: page.nextToken,
    CidrLocations: { member: page.items.map((name) => ({ LocationName: name })) },
  });
}

export function listCidrBlocksResponse(page: Paged<{ cidr: string; location: string }>): string {
  return document('ListCidrBlocksResponse', {
    NextToken: page.nextToken,
    CidrBlocks: {
      member: page.items.map((block) => ({ CidrBlock: block.cidr, LocationName: block.location })),
    },
  });
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
