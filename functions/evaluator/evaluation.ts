/**
 * One evaluation: triggers → affected profiles → statuses (core) → desired records (core)
 * → diff against what was last published → Route 53 → status items and, in the same
 * transaction, their outbox entries → the zones' reconcile when one was asked for (reconcile.ts)
 * → the outbox publisher (history items, GetChange INSYNC, EventBridge). This file is the I/O sequence; every step that decides something is in
 * shared/evaluation/.
 *
 * The "actual" side of the diff is what this evaluator last published (kept in the status
 * items), so a quiet evaluation costs no Route 53 call at all; the zone itself is read only
 * for a profile seen for the first time, and after Route 53 rejects a batch (someone changed
 * the zone behind our back) — then the batch is recomputed once against the real zone.
 */
import { EVALUATOR_STREAM_SETTINGS } from './stream-settings.js';
import type { DeployedConfig } from '../shared/config-reader.js';
import { MetricName } from '../../shared/contracts/metrics.js';
import { applyControls } from '../../shared/control/apply.js';
import { collectionsToSync, withCollectionIds } from '../../shared/evaluation/cidr-collections.js';
import { rejectionEvents, statusEvents } from '../../shared/evaluation/events.js';
import { outboxEntries } from '../../shared/evaluation/outbox.js';
import { latestDecision, probeRegionsOf, targetKeysOf } from '../../shared/evaluation/inputs.js';
import { changedStatuses, publishProblems } from '../../shared/evaluation/stored-status.js';
import { publishedAtProfiles, transitionRecords } from '../../shared/evaluation/transitions.js';
import { affectedProfiles, withDescendants, type Trigger } from '../../shared/evaluation/triggers.js';
import { groupByZone, type RejectedName } from '../../shared/evaluation/zones.js';
import { planRecords } from '../../shared/routing/planner.js';
import { endpointStatusLookup, evaluateProfiles, statusChanges } from '../../shared/status/evaluate.js';
import type { Change, RecordSet } from '../../shared/zone/record-set.js';
import { publishOutbox } from './outbox-publisher.js';
import type { EvaluatorMetrics, EvaluatorStateStore, EventSink, ZoneGateway } from './ports.js';
import { publishZone } from './publish-zone.js';
import { reconcileZones } from './reconcile.js';
import { fastView, recordPublishing, syncIfDue } from './static-failover-evaluation.js';
import type { StaticFailoverDeps } from './static-failover-deps.js';
import { Route53Outcome, watchedZones } from './publishing-state.js';

export interface EvaluatorDeps {
  readonly store: EvaluatorStateStore;
  readonly zones: ZoneGateway;
  readonly events: EventSink;
  readonly metrics: EvaluatorMetrics;
  readonly now: () => number;
  /** The local stack's time scale, for the expected durations in transition timings and static failover's CloudWatch periods. @default 1 */
  readonly timeScale?: number;
  /** An outbox entry that could not be published now (it is retried on the next drain), for the log. */
  readonly onPublishError?: (error: unknown) => void;
  /**
   * Static failover (docs/adr/0011-static-failover.md) for profiles with `staticFailover`;
   * absent (no `STATIC_FAILOVER_DEPLOYMENT`): every profile publishes as before.
   */
  readonly staticFailover?: StaticFailoverDeps;
}

/**
 * Evaluates what the triggers affect, reconciles the zones when a reconcile was asked for,
 * then publishes every waiting outbox entry (this one's and any left before).
 */
export async function evaluate(deps: EvaluatorDeps, triggers: readonly Trigger[]): Promise<void> {
  const failover = deps.staticFailover;
  // With static failover, every Route 53 call is watched: the guard says whether they succeed.
  const route53 = new Route53Outcome();
  const run = failover === undefined ? deps : { ...deps, zones: watchedZones(deps.zones, route53) };
  try {
    const config = await decideAndPublishDns(run, triggers);
    // After the evaluation, so a reconcile in the same batch compares with what it just
    // published; before static failover's, so a switch it puts back finds `_fast` filled.
    if (triggers.some((t) => t.kind === 'reconcile')) await reconcileZones(run);
    if (failover !== undefined) {
      const handedOver = await syncIfDue(run, failover, config, triggers, route53);
      // Their records are at `_fast` now: the statuses say so before anything reads them.
      if (handedOver.length > 0)
        await decideAndPublishDns(
          run,
          handedOver.map((profile) => ({ kind: 'config', profile })),
        );
    }
    await publishOutbox(run);
    if (failover !== undefined) await recordPublishing(failover, route53.result, deps.now());
  } catch (error) {
    // The evaluation's changes wait for the retry: not publishing.
    if (failover !== undefined) route53.failed(error);
    if (failover !== undefined) await recordPublishing(failover, route53.result, deps.now());
    throw error;
  }
}

async function decideAndPublishDns(
  deps: EvaluatorDeps,
  triggers: readonly Trigger[],
): Promise<DeployedConfig> {
  const started = deps.now();
  const [deployed, controls, previous] = await Promise.all([
    deps.store.loadConfig(),
    deps.store.loadControls(),
    deps.store.loadStatuses(),
  ]);
  // The runtime controls (tm endpoint|profile …) over the deployed definitions: what holds now.
  const config = { ...deployed, profiles: applyControls(deployed.profiles, controls, started) };
  const affected = affectedProfiles(config.profiles, triggers);
  const removed = [...affected].filter(
    (name) => !config.profiles.some((p) => p.name === name) && previous.has(name),
  );
  const evaluated = config.profiles.filter((p) => affected.has(p.name));
  if (evaluated.length === 0 && removed.length === 0) return config;
  // Profiles under static failover publish today's records at `_fast.<fqdn>`: the same
  // bookkeeping (statuses, drift repair) with that name as the owned one.
  const fast = await fastView(deps.staticFailover, config);
  const profiles = evaluated.map(fast.profile);

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
  // Only collections that differ from what was published cost a Route 53 call.
  const collections = collectionsToSync(plan.cidrCollections, profiles, previous);
  const cidrCollections =
    collections.changed.length === 0
      ? collections.unchanged
      : [...collections.unchanged, ...(await deps.zones.syncCidrCollections(collections.changed))];
  const desired = fast.records(withCollectionIds(plan.records, cidrCollections));

  const recordChanges: Change[] = [];
  const published = new Map<string, RecordSet[]>();
  const rejected = new Map<string, RejectedName & { hostedZoneId: string }>();
  const submittedAt = new Map<string, number>(); // owned name → when Route 53 accepted its change
  const changeIds = new Map<string, readonly string[]>(); // owned name → Route 53 change ids
  for (const [zoneId, scope] of groupByZone(profiles, removed, previous)) {
    // A handed-over profile's old name holds its switch now.
    const zone = { ...scope, names: new Set([...scope.names].filter((n) => !fast.switches.has(n))) };
    const zoneDesired = desired.filter((r) => zone.names.has(r.name));
    const outcome = await publishZone(deps, zoneId, zone, zoneDesired);
    recordChanges.push(...outcome.changes);
    const accepted = deps.now();
    for (const change of outcome.changes) submittedAt.set(change.recordSet.name, accepted);
    for (const [name, ids] of outcome.changeIds) changeIds.set(name, ids);
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
  const statuses = changedStatuses(profiles, reports, published, cidrCollections, previous, problems);
  const revisions = new Map(statuses.map((s) => [s.report.profile, s.revision]));
  const revisionOf = (name: string) => revisions.get(name) ?? previous.get(name)?.revision ?? 0;
  const publishedAt = publishedAtProfiles(profiles, previous, recordChanges, submittedAt, changeIds);
  const records = transitionRecords({
    changes,
    profiles: config.profiles,
    decidedAt: now,
    revisionOf,
    publishedAt,
    figureSettings: {
      batchingWindowSeconds: EVALUATOR_STREAM_SETTINGS.maxBatchingWindowMs / 1000,
      timeScale: deps.timeScale ?? 1,
    },
  });
  const events = [
    ...statusEvents(records),
    ...rejectionEvents(profiles, rejected, previous, { decidedAt: now, revisionOf }),
  ];
  const outbox = outboxEntries({
    events,
    decidedAt: now,
    revisionOf,
    changeIdsOf: (name) => publishedAt(name).changeIds ?? [],
  });
  if (statuses.length > 0) await deps.store.saveStatuses(statuses, outbox);
  for (const name of removed) await deps.store.deleteStatus(name);
  deps.metrics.duration(MetricName.evaluationDuration, deps.now() - started);
  deps.metrics.count(MetricName.profilesEvaluated, profiles.length);
  return config;
}
