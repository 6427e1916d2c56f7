/**
 * Applies static failover (docs/adr/0011-static-failover.md) for the profiles with
 * `staticFailover: true`: plan the structure (`planStaticFailover`, configuration only), read
 * what exists (our health checks by CallerReference, our alarms by name prefix in each probe
 * region), diff (`diffAlarms`, `diffHealthChecks`) and apply in the order Route 53 and
 * CloudWatch accept: alarms put, checks created (children first) and updated, then the
 * records (`_static.<fqdn>` with the real HealthCheckIds and the switch at the fqdn), then
 * checks deleted (calculated first), then alarms deleted. The mapping logical id →
 * HealthCheckId and what was published are kept in STATIC / STRUCTURE.
 *
 * Today's records of these profiles move to `_fast.<fqdn>` (`fastNames`, used by the
 * evaluation); profiles with `staticFailover: false` publish exactly as before.
 *
 * Runs on a config or control change and on the tick's and the reconcile's triggers; a plan
 * equal to the one last applied (and applied without a problem) costs one GetItem and no AWS
 * call (a reconcile reads and repairs everything). Failures are never dropped: a region whose
 * CloudWatch fails is skipped and the rest applied, the problem logged (`onError`) and kept in
 * the item, so the next trigger applies again; a Route 53 failure is kept likewise, makes the
 * evaluator report that it is not publishing (the guard), and fails the evaluation, so the
 * stream retries the batch as for any Route 53 failure (the statuses are saved by then).
 */
import { createHash } from 'node:crypto';
import { withCollectionIds } from '../../shared/evaluation/cidr-collections.js';
import { groupBy } from '../../shared/group-by.js';
import type { Profile } from '../../shared/profile/types.js';
import { cidrCollectionOf } from '../../shared/routing/cidr-collections.js';
import type { DeployedConfig } from '../shared/config-reader.js';
import { diffAlarms, diffHealthChecks } from '../../shared/static-failover/diff.js';
import { fastNameOf, staticNameOf } from '../../shared/static-failover/identity.js';
import { fastPathRecords } from '../../shared/static-failover/records.js';
import { planStaticFailover } from '../../shared/static-failover/plan.js';
import type { AlarmSpec, StaticRecord, StaticStructure } from '../../shared/static-failover/types.js';
import type { AppliedHealthCheck, StaticStructureItem } from '../../shared/state/items.js';
import type { RecordSet } from '../../shared/zone/record-set.js';
import { StaticFailoverError } from './errors.js';
import type { EvaluatorDeps } from './evaluation.js';
import { publishZone } from './publish-zone.js';
import { reasonOf, type Route53Outcome } from './publishing-state.js';
import type { StaticFailoverDeps } from './static-failover-deps.js';

/** The plan and the profiles it publishes a switch for (their records move to `_fast`). */
export function planStatic(deployment: string, config: DeployedConfig) {
  const profiles = config.profiles.filter((p) => p.staticFailover);
  const structure = planStaticFailover(profiles, {
    deployment,
    defaultProbeRegions: config.defaultProbeRegions,
  });
  const switches = new Set(structure.records.filter((r) => r.setIdentifier === 'fast').map((r) => r.name));
  return {
    structure,
    /** Names of the profiles the structure switches (a switch at their fqdn). */
    switched: new Set(profiles.filter((p) => switches.has(p.dnsConfig.fqdn)).map((p) => p.name)),
  };
}

export type SyncDeps = Pick<EvaluatorDeps, 'zones' | 'metrics' | 'now' | 'timeScale'>;

/**
 * The fqdns whose switch the stored structure holds: their profiles' records are at
 * `_fast.<fqdn>`. A profile planned to switch but not in here still answers today's records
 * at its fqdn, until an apply hands it over (`syncStaticFailover`).
 */
export function handedOverNames(stored: Pick<StaticStructureItem, 'zones'> | undefined): Set<string> {
  const names = new Set<string>();
  for (const records of Object.values(stored?.zones ?? {}))
    for (const record of records) if (isSwitch(record)) names.add(record.name);
  return names;
}

function isSwitch(record: RecordSet): boolean {
  const target = record.aliasTarget?.dnsName;
  return target === fastNameOf(record.name) || target === staticNameOf(record.name);
}

/**
 * Brings Route 53 and CloudWatch to the plan. `reconcile`: read and repair everything even
 * when the plan did not change. An AWS failure is stored as the structure's problem (Route 53's also thrown).
 * `skipped`: nothing to do, the plan is the one last applied; `handedOver`: the profiles whose
 * name this apply handed over to the switch (their records are now at `_fast`).
 */
export async function syncStaticFailover(
  deps: SyncDeps,
  failover: StaticFailoverDeps,
  config: DeployedConfig,
  options: { readonly reconcile: boolean; readonly route53: Route53Outcome },
) {
  const { structure, switched } = planStatic(failover.deployment, config);
  // The fqdn of a profile that is not switched (now) belongs to today's records: never ours to change.
  const fastOwned = new Set(
    config.profiles.filter((p) => !switched.has(p.name)).map((p) => p.dnsConfig.fqdn),
  );
  const zoneOf = zoneLookup(config.profiles.filter((p) => p.staticFailover));
  const desiredZones = groupBy(structure.records, (record) => zoneOf(record.name));
  const digest = digestOf(structure, desiredZones);
  const stored = await failover.store.loadStructure();
  // Switched in the plan, still answering today's records at the fqdn: handed over below.
  const handed = handedOverNames(stored);
  const handing = config.profiles.filter((p) => switched.has(p.name) && !handed.has(p.dnsConfig.fqdn));
  if (!options.reconcile && stored?.digest === digest && stored.problem === undefined && handing.length === 0)
    return { skipped: true };
  if (stored === undefined && structure.alarms.length === 0 && desiredZones.size === 0)
    return { skipped: true };
  const now = deps.now();
  let applied: Record<string, AppliedHealthCheck> = { ...stored?.checks };
  try {
    const { call: cloudWatch, problems: cloudWatchProblems } = regionalCloudWatch(failover);
    const alarmRegions = [...new Set(structure.alarms.map((a) => a.region))].sort();
    const alarmChanges = await putAlarms(
      failover,
      cloudWatch,
      structure.alarms,
      [...new Set([...alarmRegions, ...(stored?.alarmRegions ?? [])])],
      now,
    );

    const route53 = options.route53;
    const known = new Set([...structure.healthChecks.map((c) => c.id), ...Object.keys(stored?.checks ?? {})]);
    const existing = await route53.watch(() => failover.healthChecks.list(known));
    const existingById = new Map(existing.map((e) => [e.spec.id, e]));
    applied = Object.fromEntries(
      existing.map((e) => [e.spec.id, { healthCheckId: e.healthCheckId, generation: e.generation }]),
    );
    const idOf = (logicalId: string) => {
      const id = applied[logicalId]?.healthCheckId;
      if (id === undefined) throw new StaticFailoverError(`health check ${logicalId} has no Route 53 id`);
      return id;
    };
    const checkChanges = diffHealthChecks(
      structure.healthChecks,
      existing.map((e) => e.spec),
    );
    // A check whose type changed is deleted (below) and created anew: the delete takes the old
    // id from existingById, applied keeps the new one.
    for (const check of checkChanges.create) {
      const old = existingById.get(check.id);
      const generation = Math.max(now, (old?.generation ?? 0) + 1);
      const healthCheckId = await route53.watch(() => failover.healthChecks.create(check, generation, idOf));
      applied[check.id] = { healthCheckId, generation };
    }
    for (const check of checkChanges.update) {
      const current = existingById.get(check.id);
      if (current !== undefined)
        await route53.watch(() => failover.healthChecks.update(current, check, idOf));
    }

    // A Subnet profile's `_static` records name its CIDR collection (today's path keeps it);
    // Route 53 wants the collection's id.
    const collections = config.profiles
      .filter((p) => switched.has(p.name))
      .flatMap((p) => cidrCollectionOf(p) ?? []);
    const collectionIds =
      collections.length === 0 ? [] : await route53.watch(() => deps.zones.syncCidrCollections(collections));

    const published: Record<string, RecordSet[]> = {};
    const rejected: string[] = [];
    for (const zoneId of new Set([...desiredZones.keys(), ...Object.keys(stored?.zones ?? {})])) {
      const desired = withCollectionIds(
        (desiredZones.get(zoneId) ?? []).map((r) => resolved(r, idOf)),
        collectionIds,
      );
      const before = stored?.zones[zoneId];
      const names = new Set(
        [...desired, ...(before ?? [])].map((r) => r.name).filter((name) => !fastOwned.has(name)),
      );
      // A handover, in one zone publish: today's records at the fqdn are copied to `_fast`
      // (ahead of the aliases to it) and replaced by the switch, one batch per name, so the
      // name answers throughout. Until it succeeds, the evaluator keeps publishing at the fqdn.
      const handingHere = handing.map((p) => p.dnsConfig.fqdn).filter((fqdn) => zoneOf(fqdn) === zoneId);
      const copies = new Set(handingHere.map(fastNameOf));
      for (const name of copies) names.add(name);
      const actual =
        options.reconcile || handingHere.length > 0 ? await deps.zones.readRecords(zoneId, names) : before;
      const today = (actual ?? []).filter((r) => handingHere.includes(r.name) && !isSwitch(r));
      const outcome = await publishZone(deps, zoneId, { names, actual }, [
        ...fastPathRecords(today),
        ...desired,
      ]);
      for (const refused of outcome.rejected) rejected.push(`${refused.name}: ${refused.reasons.join('; ')}`);
      // `_fast` belongs to the evaluator once the switch is there.
      const records = [...names]
        .filter((name) => !copies.has(name))
        .flatMap((name) => outcome.recordsAt(name));
      if (records.length > 0) published[zoneId] = records;
    }
    const nowHanded = handedOverNames({ zones: published });
    const handedOver = handing.filter((p) => nowHanded.has(p.dnsConfig.fqdn)).map((p) => p.name);

    for (const check of checkChanges.delete) {
      const old = existingById.get(check.id);
      if (old === undefined) continue;
      await route53.watch(() => failover.healthChecks.delete(old.healthCheckId));
      if (applied[check.id]?.healthCheckId === old.healthCheckId) delete applied[check.id];
    }
    for (const [region, alarms] of groupBy(alarmChanges.delete, (alarm) => alarm.region)) {
      const names = alarms.map((alarm) => alarm.name);
      await cloudWatch(region, () => failover.alarms.delete(region, names));
    }

    const problems = [
      ...(rejected.length === 0 ? [] : [`Route 53 refused: ${rejected.join(' | ')}`]),
      ...cloudWatchProblems,
    ];
    const problem = problems.length === 0 ? undefined : problems.join(' | ');
    await failover.store.saveStructure({
      digest,
      checks: applied,
      alarmRegions,
      zones: published,
      appliedAt: now,
      ...(problem === undefined ? {} : { problem: { at: now, reason: problem } }),
    });
    return { skipped: false, handedOver };
  } catch (error) {
    failover.onError?.(error);
    // What exists is read again next time; keep what is known of the checks so none is lost.
    await failover.store.saveStructure({
      digest: stored?.digest ?? '',
      checks: applied,
      alarmRegions: stored?.alarmRegions ?? [],
      zones: stored?.zones ?? {},
      appliedAt: stored?.appliedAt ?? 0,
      problem: { at: now, reason: reasonOf(error) },
    });
    // Route 53 failed: the evaluation fails as for any Route 53 failure, and its batch is retried.
    if (options.route53.result?.ok === false) throw error;
    return { skipped: false };
  }
}

type RegionalCall = (region: string, call: () => Promise<void>) => Promise<boolean>;

/**
 * CloudWatch is regional: a region whose CloudWatch fails is left for the next apply, the
 * others and Route 53 go ahead (its checks read a missing alarm as their last known status).
 */
function regionalCloudWatch(failover: StaticFailoverDeps): { call: RegionalCall; problems: string[] } {
  const problems: string[] = [];
  const call: RegionalCall = async (region, fn) => {
    try {
      await fn();
      return true;
    } catch (error) {
      failover.onError?.(error);
      problems.push(`CloudWatch in ${region}: ${reasonOf(error)}`);
      return false;
    }
  };
  return { call, problems };
}

/** Reads the alarms of every region that has or had ours, and puts what differs from the plan where the read succeeded. */
async function putAlarms(
  failover: StaticFailoverDeps,
  cloudWatch: RegionalCall,
  desired: readonly AlarmSpec[],
  regions: readonly string[],
  now: number,
): Promise<ReturnType<typeof diffAlarms>> {
  const actual: AlarmSpec[] = [];
  const readable = new Set<string>();
  for (const region of regions) {
    const read = await cloudWatch(region, async () => {
      actual.push(...(await failover.alarms.describe(region, failover.deployment)));
    });
    if (read) readable.add(region);
  }
  const changes = diffAlarms(
    desired.filter((a) => readable.has(a.region)),
    actual,
    now,
  );
  for (const alarm of changes.put) await cloudWatch(alarm.region, () => failover.alarms.put(alarm));
  return changes;
}

/** The record as Route 53 takes it: the logical check replaced by its HealthCheckId. */
function resolved(record: StaticRecord, idOf: (logicalId: string) => string): RecordSet {
  const { healthCheckRef, ...rest } = record;
  return healthCheckRef === undefined ? rest : { ...rest, healthCheckId: idOf(healthCheckRef) };
}

/**
 * The hosted zone of a structure record: the switch is at a profile's fqdn, the rest under its
 * `_static.<fqdn>` (the root, chain links `_<i>.` and Performance regions `_<region>.`).
 */
function zoneLookup(profiles: readonly Profile[]): (name: string) => string {
  const zones = new Map<string, string>();
  for (const p of profiles) {
    const zoneId = p.dnsConfig.hostedZoneId ?? p.dnsConfig.zoneName;
    zones.set(p.dnsConfig.fqdn, zoneId);
    zones.set(staticNameOf(p.dnsConfig.fqdn), zoneId);
  }
  return (name) => {
    const direct = zones.get(name);
    if (direct !== undefined) return direct;
    const root = name.slice(name.indexOf('._static.') + 1);
    const zone = zones.get(root);
    if (zone === undefined) throw new StaticFailoverError(`static record ${name} belongs to no profile`);
    return zone;
  };
}

function digestOf(structure: StaticStructure, zones: ReadonlyMap<string, readonly StaticRecord[]>): string {
  return createHash('sha256')
    .update(JSON.stringify([structure.alarms, structure.healthChecks, [...zones]]))
    .digest('hex');
}
