/**
 * One status change as the outside world sees it: the history item and the event detail are
 * the same record. Every record has a stable `eventId` (a consumer drops duplicates by it) and
 * its timing (timing.ts). Pure: the caller passes the decision time and what was published.
 */
import { EventDetailType } from '../contracts/events.js';
import type { RegionVote } from '../monitor/aggregate.js';
import type { FigureSettings } from '../monitor/failover-time.js';
import type { Profile } from '../profile/types.js';
import { childrenFirst } from '../status/nested.js';
import type { StatusChange } from '../status/report.js';
import type { EndpointMonitorStatus, ProfileMonitorStatus } from '../status/vocabulary.js';
import type { Change } from '../zone/record-set.js';
import {
  decidedTiming,
  directionOf,
  expectedDuration,
  monitorOf,
  runStartOf,
  type Direction,
  type TransitionTiming,
} from './timing.js';

/** The event detail-types of status changes. */
export type TransitionDetailType =
  typeof EventDetailType.endpointStatusChanged | typeof EventDetailType.profileStatusChanged;

/** A record set change at the profile's name, as events and history show it. */
export interface RecordChange {
  readonly action: string;
  readonly name: string;
  readonly type: string;
  readonly setIdentifier?: string;
  readonly values: readonly string[];
}

/** An endpoint or a profile monitor status. */
export type MonitorStatus = EndpointMonitorStatus | ProfileMonitorStatus;

export interface TransitionRecord {
  /** Stable and unique: `<profile>/<endpoint|*>/<revision>@<decidedAt ms>`. */
  readonly eventId: string;
  readonly profile: string;
  /** Absent for a profile-level change. */
  readonly endpoint?: string;
  /** The status before; null for the first report. */
  readonly from: MonitorStatus | null;
  readonly to: MonitorStatus;
  /** ISO 8601: when the evaluator decided (timing.decidedAt). */
  readonly at: string;
  /** The rule text, e.g. "4 consecutive failures (tolerated 3) in 2/3 regions". */
  readonly reason: string;
  /** True when no fresh probe data backs the status (kept from before: fail static). */
  readonly stale: boolean;
  readonly staleBefore: boolean | null;
  readonly votes: readonly RegionVote[];
  readonly recordsChanged: readonly RecordChange[];
  readonly timing: TransitionTiming;
}

/** What one evaluation published at a profile's name. */
export interface PublishedAtProfile {
  readonly changes: readonly Change[];
  /** Epoch ms when Route 53 accepted the change (absent when nothing changed). */
  readonly submittedAt?: number;
  /** Route 53's ids of those changes (GetChange reports when they are INSYNC). @default none */
  readonly changeIds?: readonly string[];
}

export interface TransitionInput {
  readonly changes: readonly StatusChange[];
  /** Every defined profile (nested endpoints look up their child's settings). */
  readonly profiles: readonly Profile[];
  /** Epoch ms of the evaluation. */
  readonly decidedAt: number;
  /** The revision each profile's status write carries (part of the event id). */
  readonly revisionOf: (profile: string) => number;
  readonly publishedAt: (profile: string) => PublishedAtProfile;
  /** What the expected figure counts: the evaluator's batching window, the local time scale (1 in AWS). */
  readonly figureSettings: FigureSettings;
}

/** One record per change, in the order of the changes (endpoints before their profile). */
export function transitionRecords(input: TransitionInput): TransitionRecord[] {
  const byName = new Map(input.profiles.map((p) => [p.name, p]));
  const runStarts = new Map<string, number | undefined>(); // profile → its own change's run start
  const records: TransitionRecord[] = [];
  const byIndex = new Array<TransitionRecord>(input.changes.length);
  for (const index of childrenFirstOrder(input.changes, input.profiles)) {
    const change = input.changes[index]!;
    const profile = byName.get(change.profile);
    const direction = directionOf(change.before, change.after);
    const published = input.publishedAt(change.profile);
    const firstFailedCheckAt =
      change.endpoint === undefined
        ? earliest(records.filter((r) => r.profile === change.profile && r.endpoint !== undefined))
        : endpointRunStart(change, profile, direction, runStarts);
    if (change.endpoint === undefined) runStarts.set(change.profile, firstFailedCheckAt);
    const monitor = profile === undefined ? undefined : monitorOf(profile, change.endpoint, input.profiles);
    const expected =
      monitor === undefined || direction === undefined || profile === undefined
        ? undefined
        : expectedDuration(monitor, profile.dnsConfig.ttl, direction, input.figureSettings);
    const record: TransitionRecord = {
      eventId: `${change.profile}/${change.endpoint ?? '*'}/${input.revisionOf(change.profile)}@${input.decidedAt}`,
      profile: change.profile,
      ...(change.endpoint === undefined ? {} : { endpoint: change.endpoint }),
      from: change.before ?? null,
      to: change.after,
      at: new Date(input.decidedAt).toISOString(),
      reason: change.reason,
      stale: change.stale,
      staleBefore: change.staleBefore ?? null,
      votes: change.votes,
      recordsChanged: published.changes.map(recordChange),
      timing: decidedTiming({
        firstFailedCheckAt,
        decidedAt: input.decidedAt,
        changeSubmittedAt: published.changes.length > 0 ? published.submittedAt : undefined,
        expected,
      }),
    };
    records.push(record);
    byIndex[index] = record;
  }
  return byIndex;
}

/** What each profile's status change published: the changes at its name and when Route 53 accepted them. */
export function publishedAtProfiles(
  profiles: readonly Profile[],
  previous: ReadonlyMap<string, { readonly ownedName: string }>,
  recordChanges: readonly Change[],
  submittedAt: ReadonlyMap<string, number>,
  changeIds: ReadonlyMap<string, readonly string[]> = new Map(),
): (profile: string) => PublishedAtProfile {
  return (name) => {
    const fqdn = profiles.find((p) => p.name === name)?.dnsConfig.fqdn ?? previous.get(name)?.ownedName;
    const at = fqdn === undefined ? undefined : submittedAt.get(fqdn);
    return {
      changes: recordChanges.filter((c) => c.recordSet.name === fqdn),
      changeIds: (fqdn === undefined ? undefined : changeIds.get(fqdn)) ?? [],
      ...(at === undefined ? {} : { submittedAt: at }),
    };
  };
}

export function detailTypeOf(record: Pick<TransitionRecord, 'endpoint'>): TransitionDetailType {
  return record.endpoint === undefined
    ? EventDetailType.profileStatusChanged
    : EventDetailType.endpointStatusChanged;
}

/** External endpoint: its deciding region's run; nested endpoint: the child profile's change's. */
function endpointRunStart(
  change: StatusChange,
  profile: Profile | undefined,
  direction: Direction,
  runStarts: ReadonlyMap<string, number | undefined>,
): number | undefined {
  const endpoint = profile?.endpoints.find((e) => e.name === change.endpoint);
  if (endpoint?.type === 'nested')
    return direction === undefined ? undefined : runStarts.get(endpoint.targetProfile);
  return runStartOf(change.votes, direction, profile?.monitorConfig.regionQuorum);
}

function earliest(records: readonly TransitionRecord[]): number | undefined {
  const times = records.flatMap((r) =>
    r.timing.firstFailedCheckAt === null ? [] : [Date.parse(r.timing.firstFailedCheckAt)],
  );
  return times.length === 0 ? undefined : Math.min(...times);
}

/**
 * Indexes of the changes, a child's before its parents' (`childrenFirst`: validated profiles
 * nest no cycle), so a nested endpoint finds its child's run start.
 */
function childrenFirstOrder(changes: readonly StatusChange[], profiles: readonly Profile[]): number[] {
  const rank = new Map(childrenFirst(profiles).map((profile, index) => [profile.name, index]));
  const rankOf = (index: number) => rank.get(changes[index]!.profile) ?? -1;
  return changes.map((_, i) => i).sort((a, b) => rankOf(a) - rankOf(b));
}

function recordChange(change: Change): RecordChange {
  const { recordSet } = change;
  return {
    action: change.action,
    name: recordSet.name,
    type: recordSet.type,
    ...(recordSet.setIdentifier === undefined ? {} : { setIdentifier: recordSet.setIdentifier }),
    values:
      recordSet.aliasTarget !== undefined
        ? [`ALIAS ${recordSet.aliasTarget.dnsName}`]
        : [...recordSet.values],
  };
}
