/**
 * Geographic: one geolocation record per mapped code of every eligible endpoint. No failover
 * (SPEC §5): a Degraded endpoint keeps its locations; a Disabled or Stopped one loses them.
 */
import { eligibleEndpoints } from '../eligibility.js';
import { geoLocationOf } from '../../profile/geo-codes.js';
import type { Endpoint, Profile } from '../../profile/types.js';
import type { RecordSet } from '../../zone/record-set.js';
import type { Answer } from '../addressing.js';
import { UnknownGeoCodeError } from '../errors.js';
import { recordOf, type RoutingMethodPlanner } from '../method.js';

export const planGeographic: RoutingMethodPlanner = ({ profile, endpoints, answersOf }) =>
  geographicRecords(
    profile,
    eligibleEndpoints(endpoints).map(({ endpoint }) => endpoint),
    answersOf,
  );

/** The records of these endpoints (also the static structure's, which has no failover either). */
export function geographicRecords(
  profile: Profile,
  endpoints: readonly Endpoint[],
  answersOf: (endpoint: Endpoint) => readonly Answer[],
): RecordSet[] {
  return endpoints.flatMap((endpoint) =>
    endpoint.geoMapping.flatMap((code) => {
      const geoLocation = geoLocationOf(code);
      if (geoLocation === undefined) throw new UnknownGeoCodeError(profile.name, endpoint.name, code);
      return answersOf(endpoint).map((answer) =>
        // One record per (endpoint, code); endpoint names cannot contain '/', so this never collides.
        recordOf(profile, answer, { setIdentifier: `${endpoint.name}/${code}`, geoLocation }),
      );
    }),
  );
}
