import { TrafficManagerError } from '../errors.js';

/** Errors of the routing planner: each names the profile and what is wrong with it. */
export class RoutingError extends TrafficManagerError {
  override readonly name: string = 'RoutingError';
  readonly code: string = 'ROUTING';
}

/** A nested endpoint names a profile that is not in the planned set (validation should have caught it). */
export class UnknownChildProfileError extends RoutingError {
  override readonly name = 'UnknownChildProfileError';
  override readonly code = 'UNKNOWN_CHILD_PROFILE';
  constructor(
    readonly profile: string,
    readonly endpoint: string,
    readonly targetProfile: string,
  ) {
    super(`profile "${profile}" endpoint "${endpoint}": target profile "${targetProfile}" is not defined`);
  }
}

/** A geographic endpoint maps a code Route 53 does not know (validation should have caught it). */
export class UnknownGeoCodeError extends RoutingError {
  override readonly name = 'UnknownGeoCodeError';
  override readonly code = 'UNKNOWN_GEO_CODE';
  constructor(
    readonly profile: string,
    readonly endpoint: string,
    readonly geoCode: string,
  ) {
    super(`profile "${profile}" endpoint "${endpoint}": "${geoCode}" is not a Route 53 location code`);
  }
}
