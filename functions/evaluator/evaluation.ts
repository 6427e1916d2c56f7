/**
 * One evaluation: triggers → affected profiles → statuses (core) → desired records (core)
 * → diff against what was last published → Route 53 → status items, history, events.
 *
 * The "actual" side of the diff is what this evaluator last published (kept in the status
 * items), so a quiet evaluation costs no Route 53 call at all; the zone itself is read only
 * for a profile seen for the first time, and after Route 53 rejects a batch (someone changed
 * the zone behind our back) — then the batch is recomputed once against the real zone.
 */
import { EventDetailType } from '../../shared/contracts/events.js';
import { MetricDimension, MetricName } from '../../shared/contracts/metrics.js';
import { affectedProfiles, withDescendants, type Trigger } from '../../shared/evaluation/triggers.js';
import type { Profile } from '../../shared/profile/types.js';
import { probeTargetOf } from '../../shared/probe/target.js';
import { cidrCollectionNameOf } from '../../shared/routing/cidr-names.js';
import { planRecords } from '../../shared/routing/planner.js';
import {
  endpointStatusLookup,
  evaluateProfiles,
  statusChanges,
  type ProfileStatusReport,
  type StatusChange,
} from '../../shared/status/evaluate.js';
import type { VerdictItem } from '../../shared/state/items.js';
import type { Change, CidrCollection, RecordSet } from '../../shared/zone/record-set.js';
import { UnpublishableProfileError } from './errors.js';
import type {
  EvaluatorMetrics,
  EvaluatorStateStore,
  EventSink,
  PublishProblem,
  PublishRejectedEvent,
  StatusEvent,
  StoredStatus,
  ZoneGateway,
} from './ports.js';
import { publishZone, type RejectedName, type ZoneScope } from './publish-zone.js';

export interface EvaluatorDeps {
  readonly store: EvaluatorStateStore;
  readonly zones: ZoneGateway;
  readonly events: EventSink;
  readonly metrics: EvaluatorMetrics;
  readonly now: () => number;
}

export interface EvaluationOutcome {
  readonly evaluated: readonly string[];
  readonly changes: readonly StatusChange[];
  readonly recordChanges: readonly Change[];
}

export async function evaluate(
  deps: EvaluatorDeps,
  triggers: readonly Trigger[],
): Promise<EvaluationOutcome> {
  const started = deps.now();
  const config = await deps.store.loadConfig();
  const previous = await deps.store.loadStatuses();
  const affected = affectedProfiles(config.profiles, triggers);
  const removed = [...affected].filter(
    (name) => !config.profiles.some((p) => p.name === name) && previous.has(name),
  );
  const profiles = config.profiles.filter((p) => affected.has(p.name));
  if (profiles.length === 0 && removed.length === 0) return { evaluated: [], changes: [], recordChanges: [] };

  const scope = withDescendants(config.profiles, affected);
  const scopeProfiles = config.profiles.filter((p) => scope.has(p.name));
  const regions = probeRegionsOf(scopeProfiles, config.defaultProbeRegions);
  const [verdicts, heartbeats] = await Promise.all([
    deps.store.loadVerdicts(targetKeysOf(scopeProfiles), regions),
    deps.store.loadHeartbeats(regions),
  ]);
  const now = deps.now();
  const scopeReports = evaluateProfiles({
    profiles: scopeProfiles,
    verdicts,
    heartbeats,
    previous: new Map([...previous].map(([name, stored]) => [name, stored.report])),
    defaultProbeRegions: config.defaultProbeRegions,
    now,
  });
  const reports = scopeReports.filter((report) => affected.has(report.profile));

  const plan = planRecords(scopeProfiles, endpointStatusLookup(scopeReports));
  const cidrCollections = await syncCollections(deps, plan.cidrCollections, profiles, previous);
  const desired = withCollectionIds(plan.records, cidrCollections);

  const recordChanges: Change[] = [];
  const published = new Map<string, RecordSet[]>();
  const rejected = new Map<string, RejectedName & { hostedZoneId: string }>();
  for (const [zoneId, zone] of groupByZone(profiles, removed, previous)) {
    const zoneDesired = desired.filter((r) => zone.names.has(r.name));
    const outcome = await publishZone(deps, zoneId, zone, zoneDesired);
    recordChanges.push(...outcome.changes);
    for (const name of zone.names) published.set(name, outcome.recordsAt(name));
    for (const refused of outcome.rejected) rejected.set(refused.name, { ...refused, hostedZoneId: zoneId });
  }
  if (recordChanges.length > 0) {
    const decidedAt = latestDecision(verdicts, triggers);
    if (decidedAt !== undefined)
      deps.metrics.duration(MetricName.decisionToChangeRequest, deps.now() - decidedAt);
  }

  const previousReports = new Map([...previous].map(([name, stored]) => [name, stored.report]));
  const changes = statusChanges(previousReports, reports);
  const problems = publishProblems(profiles, rejected, now);
  await saveStatuses(deps, profiles, reports, published, cidrCollections, previous, problems);
  for (const name of removed) await deps.store.deleteStatus(name);
  if (changes.length > 0) await deps.store.appendHistory(changes, now);
  const events = [
    ...toEvents(changes, recordChanges, profiles, previous),
    ...rejectionEvents(profiles, rejected, previous),
  ];
  if (events.length > 0) await deps.events.emit(events);
  deps.metrics.duration(MetricName.evaluationDuration, deps.now() - started);
  deps.metrics.count(MetricName.profilesEvaluated, profiles.length);
  for (const verdict of triggeredVerdicts(verdicts, triggers)) {
    if (verdict.latencyMs !== undefined)
      deps.metrics.duration(MetricName.probeLatency, verdict.latencyMs, {
        [MetricDimension.region]: verdict.region,
      });
  }
  return { evaluated: profiles.map((p) => p.name), changes, recordChanges };
}

function probeRegionsOf(profiles: readonly Profile[], defaults: readonly string[]): string[] {
  return [...new Set(profiles.flatMap((p) => p.probeRegions ?? defaults))].sort();
}

function targetKeysOf(profiles: readonly Profile[]): string[] {
  const keys = new Set<string>();
  for (const profile of profiles) {
    for (const endpoint of profile.endpoints) {
      if (endpoint.type === 'external') keys.add(probeTargetOf(profile, endpoint).key);
    }
  }
  return [...keys];
}

function groupByZone(
  profiles: readonly Profile[],
  removed: readonly string[],
  previous: ReadonlyMap<string, StoredStatus>,
): Map<string, ZoneScope> {
  const zones = new Map<string, { names: Set<string>; actual: RecordSet[]; known: boolean }>();
  const add = (zoneId: string, name: string, stored: StoredStatus | undefined) => {
    const zone = zones.get(zoneId) ?? { names: new Set<string>(), actual: [], known: true };
    zone.names.add(name);
    // A profile's name or zone may have changed since it was published: its old records then
    // live elsewhere and are handled by reading the zone (below) or by the removal path.
    if (stored !== undefined && stored.ownedName === name && stored.hostedZoneId === zoneId) {
      zone.actual.push(...stored.published);
    } else {
      zone.known = false;
    }
    zones.set(zoneId, zone);
  };
  for (const profile of profiles) {
    const zoneId = profile.dnsConfig.hostedZoneId;
    if (zoneId === undefined) {
      throw new UnpublishableProfileError(`profile "${profile.name}" has no dnsConfig.hostedZoneId`);
    }
    const stored = previous.get(profile.name);
    add(zoneId, profile.dnsConfig.fqdn, stored);
    if (
      stored !== undefined &&
      (stored.ownedName !== profile.dnsConfig.fqdn || stored.hostedZoneId !== zoneId)
    ) {
      add(stored.hostedZoneId, stored.ownedName, stored); // the old name: its records must go
    }
  }
  for (const name of removed) {
    const stored = previous.get(name);
    if (stored !== undefined) add(stored.hostedZoneId, stored.ownedName, stored);
  }
  return new Map(
    [...zones].map(([id, z]) => [id, { names: z.names, actual: z.known ? z.actual : undefined }]),
  );
}

async function syncCollections(
  deps: EvaluatorDeps,
  desired: readonly CidrCollection[],
  profiles: readonly Profile[],
  previous: ReadonlyMap<string, StoredStatus>,
): Promise<CidrCollection[]> {
  const known = new Map(
    profiles.flatMap((p) => previous.get(p.name)?.cidrCollections ?? []).map((c) => [c.name, c] as const),
  );
  const unchanged: CidrCollection[] = [];
  const changed: CidrCollection[] = [];
  for (const collection of desired) {
    const stored = known.get(collection.name);
    if (stored !== undefined && sameLocations(stored, collection)) unchanged.push(stored);
    else changed.push(collection);
  }
  if (changed.length === 0) return unchanged;
  return [...unchanged, ...(await deps.zones.syncCidrCollections(changed))];
}

function sameLocations(a: CidrCollection, b: CidrCollection): boolean {
  const key = (c: CidrCollection) =>
    JSON.stringify(
      Object.keys(c.locations)
        .sort()
        .map((name) => [name, [...(c.locations[name] ?? [])].sort()]),
    );
  return key(a) === key(b);
}

/** The planner names CIDR collections; Route 53 records reference them by id. */
function withCollectionIds(
  records: readonly RecordSet[],
  collections: readonly CidrCollection[],
): RecordSet[] {
  const ids = new Map(collections.map((c) => [c.name, c.id]));
  return records.map((record) => {
    if (record.cidrRoutingConfig === undefined) return record;
    const id = ids.get(record.cidrRoutingConfig.collectionId) ?? record.cidrRoutingConfig.collectionId;
    return { ...record, cidrRoutingConfig: { ...record.cidrRoutingConfig, collectionId: id } };
  });
}

async function saveStatuses(
  deps: EvaluatorDeps,
  profiles: readonly Profile[],
  reports: readonly ProfileStatusReport[],
  published: ReadonlyMap<string, RecordSet[]>,
  collections: readonly CidrCollection[],
  previous: ReadonlyMap<string, StoredStatus>,
  problems: ReadonlyMap<string, PublishProblem>,
): Promise<void> {
  const reportOf = new Map(reports.map((r) => [r.profile, r]));
  const changed: StoredStatus[] = [];
  for (const profile of profiles) {
    const report = reportOf.get(profile.name);
    if (report === undefined) continue;
    const ownedName = profile.dnsConfig.fqdn;
    const next: StoredStatus = {
      report,
      hostedZoneId: profile.dnsConfig.hostedZoneId ?? '',
      ownedName,
      published: published.get(ownedName) ?? [],
      cidrCollections: collections.filter((c) => c.name === collectionNameOf(profile, collections)),
      ...(problems.has(profile.name) ? { publishProblem: problems.get(profile.name) } : {}),
    };
    const before = previous.get(profile.name);
    if (before === undefined || JSON.stringify(before) !== JSON.stringify(next)) changed.push(next);
  }
  if (changed.length > 0) await deps.store.saveStatuses(changed);
}

/** Subnet profiles own one collection, named by the planner. */
function collectionNameOf(profile: Profile, collections: readonly CidrCollection[]): string | undefined {
  if (profile.trafficRoutingMethod !== 'Subnet') return undefined;
  const name = cidrCollectionNameOf(profile);
  return collections.find((c) => c.name === name)?.name;
}

function triggeredVerdicts(verdicts: readonly VerdictItem[], triggers: readonly Trigger[]): VerdictItem[] {
  const keys = new Set(triggers.flatMap((t) => (t.kind === 'target' ? [t.targetKey] : [])));
  return verdicts.filter((v) => keys.has(v.targetKey));
}

/** When the check that decided the newest triggering verdict ran. */
function latestDecision(verdicts: readonly VerdictItem[], triggers: readonly Trigger[]): number | undefined {
  const times = triggeredVerdicts(verdicts, triggers).map((v) => v.checkedAt);
  return times.length > 0 ? Math.max(...times) : undefined;
}

/** Each event carries the record changes at its own profile's name. */
function toEvents(
  changes: readonly StatusChange[],
  recordChanges: readonly Change[],
  profiles: readonly Profile[],
  previous: ReadonlyMap<string, StoredStatus>,
): StatusEvent[] {
  const fqdnOf = (name: string) =>
    profiles.find((p) => p.name === name)?.dnsConfig.fqdn ?? previous.get(name)?.ownedName;
  return changes.map((change) => ({
    kind:
      change.endpoint === undefined
        ? EventDetailType.profileStatusChanged
        : EventDetailType.endpointStatusChanged,
    change,
    recordsChanged: recordChanges.filter((c) => c.recordSet.name === fqdnOf(change.profile)),
  }));
}

/** Profiles whose change Route 53 refused in this evaluation, with its reasons. */
function publishProblems(
  profiles: readonly Profile[],
  rejected: ReadonlyMap<string, RejectedName>,
  now: number,
): Map<string, PublishProblem> {
  const problems = new Map<string, PublishProblem>();
  for (const profile of profiles) {
    const refused = rejected.get(profile.dnsConfig.fqdn);
    if (refused !== undefined) problems.set(profile.name, { at: now, reasons: refused.reasons });
  }
  return problems;
}

/** One event per profile whose refusal is new (or whose reasons changed), so a refusal retried every reconcile is not an event storm. */
function rejectionEvents(
  profiles: readonly Profile[],
  rejected: ReadonlyMap<string, RejectedName & { hostedZoneId: string }>,
  previous: ReadonlyMap<string, StoredStatus>,
): PublishRejectedEvent[] {
  const events: PublishRejectedEvent[] = [];
  for (const profile of profiles) {
    const refused = rejected.get(profile.dnsConfig.fqdn);
    if (refused === undefined) continue;
    const before = previous.get(profile.name)?.publishProblem;
    if (before !== undefined && before.reasons.join('\n') === refused.reasons.join('\n')) continue;
    events.push({
      kind: EventDetailType.publishRejected,
      profile: profile.name,
      hostedZoneId: refused.hostedZoneId,
      name: refused.name,
      reasons: refused.reasons,
      changes: refused.changes,
    });
  }
  return events;
}
