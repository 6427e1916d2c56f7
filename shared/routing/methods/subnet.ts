/**
 * Subnet: Route 53 CIDR routing. Each eligible endpoint with ranges answers for its location
 * of the profile's CIDR collection; the endpoint without ranges answers for the default
 * location '*'. Like Geographic there is no failover (Azure returns the subnet's endpoint
 * whatever its health; nested profiles give failover): a Degraded endpoint keeps its location,
 * a Disabled or Stopped one loses it, and its addresses then get the '*' record if any.
 */
import { eligibleEndpoints } from '../eligibility.js';
import type { Endpoint, Profile } from '../../profile/types.js';
import type { RecordSet } from '../../zone/record-set.js';
import type { Answer } from '../addressing.js';
import { recordOf, type RoutingMethodPlanner } from '../method.js';
import { cidrCollectionNameOf, cidrLocationNameOf, DEFAULT_CIDR_LOCATION } from '../cidr-names.js';

export const planSubnet: RoutingMethodPlanner = ({ profile, endpoints, answersOf }) =>
  subnetRecords(
    profile,
    eligibleEndpoints(endpoints).map(({ endpoint }) => endpoint),
    answersOf,
  );

/** The records of these endpoints (also the static structure's, which has no failover either). */
export function subnetRecords(
  profile: Profile,
  endpoints: readonly Endpoint[],
  answersOf: (endpoint: Endpoint) => readonly Answer[],
): RecordSet[] {
  const collectionId = cidrCollectionNameOf(profile);
  let fallbackTaken = false;
  return endpoints.flatMap((endpoint) => {
    const isFallback = endpoint.subnets.length === 0;
    if (isFallback && fallbackTaken) return [];
    fallbackTaken ||= isFallback;
    const locationName = isFallback ? DEFAULT_CIDR_LOCATION : cidrLocationNameOf(endpoint.name);
    return answersOf(endpoint).map((answer) =>
      recordOf(profile, answer, {
        setIdentifier: endpoint.name,
        cidrRoutingConfig: { collectionId, locationName },
      }),
    );
  });
}
