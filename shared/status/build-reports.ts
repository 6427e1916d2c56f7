/**
 * Assembles profile and endpoint reports from a source of external endpoint statuses:
 * the probe verdicts (evaluate.ts) or statuses set by hand (overrides.ts). Profiles are
 * evaluated children first; a status's `since` is kept while the status holds, so
 * evaluating the same inputs again yields the same reports.
 */
import type { ExternalEndpoint, Profile } from '../profile/types.js';
import { configuredEndpointStatus, type EndpointStatusDecision } from './endpoint-status.js';
import { childrenFirst, nestedEndpointStatus } from './nested.js';
import { profileMonitorStatus } from './profile-status.js';
import type { EndpointStatusReport, ProfileStatusReport, RegionVote } from './report.js';

/** What the source says about one monitored external endpoint. */
export interface ExternalStatus {
  readonly decision: EndpointStatusDecision;
  /** When the decided status began, if the source knows (e.g. the deciding verdict's `since`). */
  readonly since: number | undefined;
  readonly targetKey: string | undefined;
  readonly votes: RegionVote[];
}

export type ExternalStatusSource = (
  profile: Profile,
  endpoint: ExternalEndpoint,
  previous: EndpointStatusReport | undefined,
) => ExternalStatus;

export function buildReports(
  profiles: readonly Profile[],
  previous: ReadonlyMap<string, ProfileStatusReport>,
  now: number,
  external: ExternalStatusSource,
): ProfileStatusReport[] {
  const byName = new Map(profiles.map((p) => [p.name, p]));
  const reports = new Map<string, ProfileStatusReport>();
  for (const profile of childrenFirst(profiles)) {
    const before = previous.get(profile.name);
    const endpoints = profile.endpoints.map((endpoint): EndpointStatusReport => {
      const earlier = before?.endpoints.find((e) => e.endpoint === endpoint.name);
      const configured = configuredEndpointStatus(profile, endpoint);
      let detail: ExternalStatus | undefined;
      let decision: EndpointStatusDecision;
      if (configured !== undefined) decision = configured;
      else if (endpoint.type === 'nested') {
        decision = nestedEndpointStatus(
          endpoint,
          byName.get(endpoint.targetProfile),
          reports.get(endpoint.targetProfile),
        );
      } else {
        detail = external(profile, endpoint, earlier);
        decision = detail.decision;
      }
      return {
        endpoint: endpoint.name,
        status: decision.status,
        since: sinceOf(earlier, decision.status, detail?.since, now),
        reason: decision.reason,
        stale: decision.stale,
        ...(detail?.targetKey === undefined ? {} : { targetKey: detail.targetKey }),
        votes: detail?.votes ?? [],
      };
    });
    const status = profileMonitorStatus(
      profile.profileStatus,
      endpoints.map((e) => e.status),
    );
    const latestEndpointChange =
      endpoints.length > 0 ? Math.max(...endpoints.map((e) => e.since)) : undefined;
    reports.set(profile.name, {
      profile: profile.name,
      status,
      since: sinceOf(before, status, latestEndpointChange, now),
      stale: endpoints.some((e) => e.stale),
      endpoints,
    });
  }
  return profiles.map((p) => reports.get(p.name)!);
}

/**
 * Unchanged status: the earlier `since`. Changed: when the source says it began (never in
 * the future, never before the status it replaces began), else now.
 */
function sinceOf(
  earlier: { status: string; since: number } | undefined,
  status: string,
  began: number | undefined,
  now: number,
): number {
  if (earlier?.status === status) return earlier.since;
  const since = Math.min(began ?? now, now);
  return earlier === undefined ? since : Math.max(since, earlier.since);
}
