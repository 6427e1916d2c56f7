/**
 * What DNS answers for a profile whose every eligible endpoint is Degraded, per routing method
 * (docs/routing.md "Which endpoints answer"): the failover methods serve the eligible
 * endpoints as if they were Online — Priority the first of them, Weighted all of them by
 * weight, Performance the closest, MultiValue up to `maxReturn` by priority — while Geographic
 * and Subnet have no failover, so their answers do not change at all.
 */
import { DEFAULT_MAX_RETURN } from '../../shared/routing/methods/multivalue.js';
import { byPriority } from '../../shared/routing/eligibility.js';
import { failsOver } from '../../shared/routing/failover-methods.js';
import type { Profile } from '../../shared/profile/types.js';
import { EndpointMonitorStatus } from '../../shared/status/vocabulary.js';

const BEST_EFFORT = 'as if all were Online (best effort: the all-degraded rule)';

/** `now answers with …` / `answers as before: …`, to follow "DNS ". */
export function allDegradedAnswer(
  profile: Profile | undefined,
  statuses: ReadonlyMap<string, EndpointMonitorStatus>,
): string {
  const degraded = (name: string) => statuses.get(name) === EndpointMonitorStatus.Degraded;
  switch (profile?.trafficRoutingMethod) {
    case 'Priority': {
      const first = byPriority(profile.endpoints).find(
        (e) => e.endpointStatus === 'Enabled' && degraded(e.name),
      );
      return `now answers with ${first?.name ?? 'the first of them'}, the first by priority, ${BEST_EFFORT}`;
    }
    case 'Weighted':
      return `now answers with all of them by weight, ${BEST_EFFORT}`;
    case 'Performance':
      return `now answers with the closest of them by latency, ${BEST_EFFORT}`;
    case 'MultiValue': {
      const maxReturn = profile.maxReturn ?? DEFAULT_MAX_RETURN;
      const eligible = profile.endpoints.filter((e) => e.endpointStatus === 'Enabled' && degraded(e.name));
      return eligible.length <= maxReturn
        ? `now answers with all of them, ${BEST_EFFORT}`
        : `now answers with the first ${maxReturn} of them by priority (maxReturn ${maxReturn}), ${BEST_EFFORT}`;
    }
    case 'Geographic':
      return 'answers as before: each location keeps its own endpoint (Geographic has no failover)';
    case 'Subnet':
      return 'answers as before: each subnet keeps its own endpoint (Subnet has no failover)';
    case undefined:
      return `now answers with the eligible endpoints, ${BEST_EFFORT}`;
  }
}

/** Whether the profile's answers change when its endpoints go Degraded (not for Geographic, Subnet). */
export function profileFailsOver(profile: Profile | undefined): boolean {
  return profile === undefined || failsOver(profile.trafficRoutingMethod);
}
