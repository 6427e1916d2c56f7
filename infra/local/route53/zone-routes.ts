/**
 * The local Route 53's hosted-zone, record-set, change and CIDR-collection operations:
 * URL → store call → the elements of the response. The health-check operations are
 * health-check-routes.ts.
 */
import { toRoute53Name } from '../../../shared/zone/names.js';
import type { LocalRoute53Store } from './store.js';
import { present } from './present.js';
import { intParam, route, type Route } from './routes.js';
import * as xml from './xml-codec.js';

export function zoneRoutes(store: LocalRoute53Store): Route[] {
  return [
    route('GET', '/hostedzonesbyname', 'ListHostedZonesByName', ({ query }) => {
      const request = {
        ...present({ dnsName: query.get('dnsname'), hostedZoneId: query.get('hostedzoneid') }),
        maxItems: intParam(query, 'maxitems') ?? 100,
      };
      const page = store.listHostedZonesByName(request);
      const elements = {
        HostedZones: { HostedZone: page.zones.map(xml.hostedZone) },
        DNSName: request.dnsName,
        HostedZoneId: request.hostedZoneId,
        IsTruncated: page.isTruncated,
        NextDNSName: page.next && toRoute53Name(page.next.dnsName),
        NextHostedZoneId: page.next?.hostedZoneId,
        MaxItems: request.maxItems,
      };
      return { elements };
    }),
    route('GET', '/hostedzone/{id}', 'GetHostedZone', ({ id }) => {
      const zone = store.getHostedZone(id);
      const delegation = { NameServers: { NameServer: [...zone.nameServers] } };
      return { elements: { HostedZone: xml.hostedZone(zone), DelegationSet: delegation } };
    }),
    route('POST', '/hostedzone/{id}/rrset', 'ChangeResourceRecordSets', ({ id, body }) => {
      const { changes, comment } = xml.parseChangeResourceRecordSetsRequest(body);
      return {
        elements: { ChangeInfo: xml.changeInfo(store.changeResourceRecordSets(id, changes, comment)) },
      };
    }),
    route('GET', '/hostedzone/{id}/rrset', 'ListResourceRecordSets', ({ id, query }) => {
      // Route 53 returns at most 300 record sets per page, whatever MaxItems asks.
      const maxItems = Math.min(intParam(query, 'maxitems') ?? 300, 300);
      const start = present({
        name: query.get('name'),
        type: query.get('type'),
        identifier: query.get('identifier'),
      });
      const page = store.listResourceRecordSets(id, start, maxItems);
      const elements = {
        ResourceRecordSets: { ResourceRecordSet: page.records.map(xml.resourceRecordSet) },
        IsTruncated: page.isTruncated,
        NextRecordName: page.next && toRoute53Name(page.next.name),
        NextRecordType: page.next?.type,
        NextRecordIdentifier: page.next?.identifier,
        MaxItems: maxItems,
      };
      return { elements };
    }),
    route('GET', '/change/{id}', 'GetChange', ({ id }) => ({
      elements: { ChangeInfo: xml.changeInfo(store.getChange(id)) },
    })),
    ...cidrCollectionRoutes(store),
  ];
}

/** The CIDR lists use `<member>` items and NextToken paging. */
function cidrCollectionRoutes(store: LocalRoute53Store): Route[] {
  const collections = store.cidrCollections;
  const paging = (query: URLSearchParams) =>
    [query.get('nexttoken') ?? undefined, intParam(query, 'maxresults')] as const;
  return [
    route('POST', '/cidrcollection', 'CreateCidrCollection', ({ body }) => {
      const view = collections.create(xml.parseCreateCidrCollectionRequest(body));
      return { elements: { Collection: xml.cidrCollection(view) }, created: `/cidrcollection/${view.id}` };
    }),
    route('GET', '/cidrcollection', 'ListCidrCollections', ({ query }) => {
      const page = collections.list(...paging(query));
      return {
        elements: {
          NextToken: page.nextToken,
          CidrCollections: { member: page.items.map(xml.cidrCollection) },
        },
      };
    }),
    route('POST', '/cidrcollection/{id}', 'ChangeCidrCollection', ({ id, body }) => {
      const { changes, collectionVersion } = xml.parseChangeCidrCollectionRequest(body);
      return { elements: { Id: store.changeCidrCollection(id, changes, collectionVersion) } };
    }),
    route('GET', '/cidrcollection/{id}', 'ListCidrLocations', ({ id, query }) => {
      const page = collections.listLocations(id, ...paging(query));
      const member = page.items.map((name) => ({ LocationName: name }));
      return { elements: { NextToken: page.nextToken, CidrLocations: { member } } };
    }),
    route('GET', '/cidrcollection/{id}/cidrblocks', 'ListCidrBlocks', ({ id, query }) => {
      const page = collections.listBlocks(id, query.get('location') ?? undefined, ...paging(query));
      const member = page.items.map(({ cidr, location }) => ({ CidrBlock: cidr, LocationName: location }));
      return { elements: { NextToken: page.nextToken, CidrBlocks: { member } } };
    }),
  ];
}
