/** Errors of the routing planner: each names the profile and what is wrong with it. */
export class RoutingError extends Error {
  override name = 'RoutingError';
  readonly code: string = 'RoutingError';
}

/** A nested endpoint names a profile that is not in the planned set (validation should have caught it). */
export class UnknownChildProfileError extends RoutingError {
  override name = 'UnknownChildProfileError';
  override readonly code = 'UnknownChildProfile';
  constructor(
    readonly profile: string,
    readonly endpoint: string,
    readonly targetProfile: string,
  ) {
    super(`profile "${profile}" endpoint "${endpoint}": target profile "${targetProfile}" is not defined`);
  }
}
