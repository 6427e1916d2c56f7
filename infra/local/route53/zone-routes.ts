/**
 * The local Route 53's hosted-zone, record-set, change and CIDR-collection operations:
 * URL → store call → XML. The health-check operations are health-check-routes.ts.
 */
import type { LocalRoute53Store } from './store.js';
import { present } from './present.js';
import { created, intParam, ok, route, textParam, type Route } from './routes.js';
import * as xml from './xml-codec.js';

export function zoneRoutes(store: LocalRoute53Store): Route[] {
  return [
    route('POST', '/hostedzone', 'CreateHostedZone', ({ body }) => {
      const { zone, change } = store.createHostedZone(xml.parseCreateHostedZoneRequest(body));
      return created(xml.createHostedZoneResponse(zone, change), `/hostedzone/${zone.id}`);
    }),
    route('GET', '/hostedzonesbyname', 'ListHostedZonesByName', ({ query }) => {
      const request = {
        ...present({ dnsName: textParam(query, 'dnsname'), hostedZoneId: textParam(query, 'hostedzoneid') }),
        maxItems: intParam(query, 'maxitems') ?? 100,
      };
      return ok(xml.listHostedZonesByNameResponse(store.listHostedZonesByName(request), request));
    }),
    route('GET', '/hostedzone/{id}', 'GetHostedZone', ({ id }) =>
      ok(xml.getHostedZoneResponse(store.getHostedZone(id))),
    ),
    route('POST', '/hostedzone/{id}/rrset', 'ChangeResourceRecordSets', ({ id, body }) => {
      const { changes, comment } = xml.parseChangeResourceRecordSetsRequest(body);
      const change = store.changeResourceRecordSets(id, changes, comment);
      return ok(xml.changeInfoResponse('ChangeResourceRecordSetsResponse', change));
    }),
    route('GET', '/hostedzone/{id}/rrset', 'ListResourceRecordSets', ({ id, query }) => {
      const maxItems = Math.min(intParam(query, 'maxitems') ?? 300, 300);
      const start = present({
        name: textParam(query, 'name'),
        type: textParam(query, 'type'),
        identifier: textParam(query, 'identifier'),
      });
      const page = store.listResourceRecordSets(id, start, maxItems);
      return ok(xml.listResourceRecordSetsResponse(page, maxItems));
    }),
    route('GET', '/change/{id}', 'GetChange', ({ id }) =>
      ok(xml.changeInfoResponse('GetChangeResponse', store.getChange(id))),
    ),
    ...cidrCollectionRoutes(store),
  ];
}

function cidrCollectionRoutes(store: LocalRoute53Store): Route[] {
  const paging = (query: URLSearchParams) =>
    [textParam(query, 'nexttoken'), intParam(query, 'maxresults')] as const;
  return [
    route('POST', '/cidrcollection', 'CreateCidrCollection', ({ body }) => {
      const view = store.cidrCollections.create(xml.parseCreateCidrCollectionRequest(body));
      return created(xml.createCidrCollectionResponse(view), `/cidrcollection/${view.id}`);
    }),
    route('GET', '/cidrcollection', 'ListCidrCollections', ({ query }) =>
      ok(xml.listCidrCollectionsResponse(store.cidrCollections.list(...paging(query)))),
    ),
    route('POST', '/cidrcollection/{id}', 'ChangeCidrCollection', ({ id, body }) => {
      const { changes, collectionVersion } = xml.parseChangeCidrCollectionRequest(body);
      return ok(xml.changeCidrCollectionResponse(store.changeCidrCollection(id, changes, collectionVersion)));
    }),
    route('GET', '/cidrcollection/{id}', 'ListCidrLocations', ({ id, query }) =>
      ok(xml.listCidrLocationsResponse(store.cidrCollections.listLocations(id, ...paging(query)))),
    ),
    route('GET', '/cidrcollection/{id}/cidrblocks', 'ListCidrBlocks', ({ id, query }) =>
      ok(
        xml.listCidrBlocksResponse(
          store.cidrCollections.listBlocks(id, textParam(query, 'location'), ...paging(query)),
        ),
      ),
    ),
  ];
}
