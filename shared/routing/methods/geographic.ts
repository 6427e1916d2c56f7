/**
 * Geographic: one geolocation record per mapped code of every eligible endpoint. No failover
 * (SPEC §5): a Degraded endpoint keeps its locations; a Disabled or Stopped one loses them.
 */
import { eligibleEndpoints } from '../eligibility.js';
import { geoLocationOf } from '../../profile/geo-codes.js';
import { UnknownGeoCodeError } from '../errors.js';
import { recordOf, type RoutingMethodPlanner } from '../method.js';

export const planGeographic: RoutingMethodPlanner = ({ profile, endpoints, answersOf }) =>
  eligibleEndpoints(endpoints).flatMap(({ endpoint }) =>
    endpoint.geoMapping.flatMap((code) => {
      const geoLocation = geoLocationOf(code);
      if (geoLocation === undefined) throw new UnknownGeoCodeError(profile.name, endpoint.name, code);
      return answersOf(endpoint).map((answer) =>
        recordOf(profile, answer, { setIdentifier: geoSetIdentifier(endpoint.name, code), geoLocation }),
      );
    }),
  );

/** One record per (endpoint, code); endpoint names cannot contain '/', so this never collides. */
export function geoSetIdentifier(endpoint: string, code: string): string {
  return `${endpoint}/${code}`;
}
