/**
 * The evaluation the evaluator handler calls: profiles + probe state (verdicts,
 * heartbeats) + the previous reports → endpoint and profile monitor statuses, and the
 * changes between two sets of reports. Pure: `now` is passed in.
 */
import { describeOverride } from '../control/describe.js';
import { groupBy } from '../group-by.js';
import { aggregateRegions } from '../monitor/aggregate.js';
import { heartbeatsByRegion } from '../monitor/staleness.js';
import { endpointVerdictKey } from '../probe/target.js';
import type { Profile } from '../profile/types.js';
import type { HeartbeatItem, VerdictItem } from '../state/items.js';
import { buildReports } from './build-reports.js';
import { statusFromHealth } from './endpoint-status.js';
import { countsAfterEnable, enabledAtOf } from './reenabled.js';
import { UnknownEndpointError } from './errors.js';
import { describeEndpointStatuses } from './profile-status.js';
import type { ProfileStatusReport, StatusChange } from './report.js';
import type { EndpointMonitorStatus } from './vocabulary.js';

export type {
  EndpointStatusChange,
  EndpointStatusReport,
  ProfileStatusChange,
  ProfileStatusReport,
  RegionVote,
  StatusChange,
} from './report.js';
export { statusesFromOverrides, SETTABLE_STATUSES } from './overrides.js';

export interface EvaluationInput {
  readonly profiles: readonly Profile[];
  /** Verdict items of (at least) the profiles' probe targets. */
  readonly verdicts: readonly VerdictItem[];
  /** Every shard's heartbeat of (at least) the profiles' probe regions. */
  readonly heartbeats: readonly HeartbeatItem[];
  /** The last reports by profile name (empty on the first evaluation). */
  readonly previous: ReadonlyMap<string, ProfileStatusReport>;
  /** Probe regions of profiles without `probeRegions`. */
  readonly defaultProbeRegions: readonly string[];
  readonly now: number;
}

/** One report per profile, in the order given; nested profiles are evaluated children first. */
export function evaluateProfiles(input: EvaluationInput): ProfileStatusReport[] {
  const verdictsByTarget = groupBy(input.verdicts, (verdict) => verdict.targetKey);
  const heartbeats = heartbeatsByRegion(input.heartbeats);
  return buildReports(input.profiles, input.previous, input.now, (profile, endpoint, previous) => {
    const targetKey = endpointVerdictKey(profile, endpoint);
    const aggregate = aggregateRegions({
      regions: profile.probeRegions ?? input.defaultProbeRegions,
      verdicts: afterEnable(verdictsByTarget.get(targetKey), enabledAtOf(profile, endpoint)),
      heartbeats,
      now: input.now,
      ...(profile.monitorConfig.regionQuorum === undefined
        ? {}
        : { quorum: profile.monitorConfig.regionQuorum }),
    });
    // A monitor status set by hand wins while in effect; the checks go on and show in the votes.
    const override = endpoint.runtime?.override;
    return {
      decision:
        override === undefined
          ? statusFromHealth(aggregate, previous?.status)
          : { status: override.status, reason: describeOverride(override), stale: false },
      since: override === undefined ? aggregate.since : override.set.at,
      targetKey,
      votes: aggregate.votes,
    };
  });
}

/** The target's verdicts by region, without those of checks made before the endpoint was (re-)enabled. */
function afterEnable(
  verdicts: readonly VerdictItem[] = [],
  enabledAt: number | undefined,
): ReadonlyMap<string, VerdictItem> {
  return new Map(verdicts.filter((v) => countsAfterEnable(v, enabledAt)).map((v) => [v.region, v]));
}

/**
 * Every endpoint and profile whose monitor status (or stale flag) differs from `previous`,
 * including first reports (`before` undefined). Profiles and endpoints no longer reported
 * yield nothing. Endpoint changes of a profile come before the profile's own change.
 */
export function statusChanges(
  previous: ReadonlyMap<string, ProfileStatusReport>,
  next: readonly ProfileStatusReport[],
): StatusChange[] {
  const changes: StatusChange[] = [];
  for (const report of next) {
    const before = previous.get(report.profile);
    for (const endpoint of report.endpoints) {
      const earlier = before?.endpoints.find((e) => e.endpoint === endpoint.endpoint);
      if (earlier?.status === endpoint.status && earlier.stale === endpoint.stale) continue;
      changes.push({
        profile: report.profile,
        endpoint: endpoint.endpoint,
        before: earlier?.status,
        after: endpoint.status,
        since: endpoint.since,
        reason: endpoint.reason,
        staleBefore: earlier?.stale,
        stale: endpoint.stale,
        votes: endpoint.votes,
      });
    }
    if (before?.status === report.status && before.stale === report.stale) continue;
    changes.push({
      profile: report.profile,
      endpoint: undefined,
      before: before?.status,
      after: report.status,
      since: report.since,
      reason: describeEndpointStatuses(report.endpoints.map((e) => e.status)),
      staleBefore: before?.stale,
      stale: report.stale,
      votes: [],
    });
  }
  return changes;
}

/** The routing planner's input: the endpoint monitor status of `profile/endpoint`. */
export function endpointStatusLookup(
  reports: readonly ProfileStatusReport[],
): (profile: string, endpoint: string) => EndpointMonitorStatus {
  const statuses = new Map<string, EndpointMonitorStatus>();
  for (const report of reports) {
    for (const endpoint of report.endpoints)
      statuses.set(`${report.profile}/${endpoint.endpoint}`, endpoint.status);
  }
  return (profile, endpoint) => {
    const status = statuses.get(`${profile}/${endpoint}`);
    if (status === undefined) throw new UnknownEndpointError(profile, endpoint);
    return status;
  };
}
