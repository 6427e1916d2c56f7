/**
 * Where static failover meets one evaluation (functions/evaluator/evaluation.ts): which
 * profiles publish today's records at `_fast.<fqdn>`, when the structure is synced, and the
 * publishing state the guard reads. Without static failover configured each is a no-op.
 */
import type { Trigger } from '../../shared/evaluation/triggers.js';
import { VOTE_PERIOD_SECONDS } from '../../shared/monitor/failover-time.js';
import type { Profile } from '../../shared/profile/types.js';
import { fastNameOf } from '../../shared/static-failover/identity.js';
import type { DeployedConfig } from '../shared/config-reader.js';
import { fastPathRecords } from '../../shared/static-failover/records.js';
import type { RecordSet } from '../../shared/zone/record-set.js';
import { publishGuard } from './guard.js';
import type { Route53Outcome } from './publishing-state.js';
import {
  handedOverNames,
  planStatic,
  syncStaticFailover,
  type SyncDeps,
} from './static-failover-publisher.js';
import type { StaticFailoverDeps } from './static-failover-deps.js';

export interface FastView {
  /** The profile as the record bookkeeping sees it: a switched profile owns `_fast.<fqdn>`. */
  readonly profile: (profile: Profile) => Profile;
  /** Today's records, those of switched profiles moved to `_fast.<fqdn>` (`fastPathRecords`). */
  readonly records: <R extends RecordSet>(records: readonly R[]) => R[];
  /** The fqdns that hold a switch: the static publisher's, never the evaluator's to change. */
  readonly switches: ReadonlySet<string>;
}

const SAME: FastView = { profile: (p) => p, records: (records) => [...records], switches: new Set() };

/**
 * A profile is switched once the stored structure holds its switch (the static publisher
 * handed its name over): until then its records stay at the fqdn, so a structure that cannot
 * be applied never leaves the name unanswered.
 */
export async function fastView(
  failover: StaticFailoverDeps | undefined,
  config: DeployedConfig,
): Promise<FastView> {
  if (failover === undefined) return SAME;
  const { switched: planned } = planStatic(failover.deployment, config);
  if (planned.size === 0) return SAME;
  const handed = handedOverNames(await failover.store.loadStructure());
  const isSwitched = (p: Profile) => planned.has(p.name) && handed.has(p.dnsConfig.fqdn);
  const fqdns = new Set(config.profiles.filter(isSwitched).map((p) => p.dnsConfig.fqdn));
  if (fqdns.size === 0) return SAME;
  return {
    profile: (p) =>
      isSwitched(p) ? { ...p, dnsConfig: { ...p.dnsConfig, fqdn: fastNameOf(p.dnsConfig.fqdn) } } : p,
    records: <R extends RecordSet>(records: readonly R[]) =>
      records.map((r) => (fqdns.has(r.name) ? ({ ...r, ...fastPathRecords([r])[0] } as R) : r)),
    switches: fqdns,
  };
}

/**
 * What can change the structure: definitions and runtime controls (config, control), and the
 * tick's and the reconcile's triggers, which also retry an apply that failed.
 */
const SYNC_TRIGGERS: ReadonlySet<Trigger['kind']> = new Set(['config', 'control', 'tick', 'reconcile']);

/**
 * Applies the structure when a trigger can change it; the profiles it handed over. An apply
 * also gives the guard its datum at once, on this period and the two before it: a guard alarm
 * just created would read the periods before the tick's first datum as "not publishing"
 * (missing data is breaching) and turn the switch to `_static` — whose new checks have not
 * heard a vote yet — for a minute or two. The evaluator is running: the value is the one the
 * tick would publish.
 */
export async function syncIfDue(
  deps: SyncDeps,
  failover: StaticFailoverDeps,
  config: DeployedConfig,
  triggers: readonly Trigger[],
  route53: Route53Outcome,
): Promise<readonly string[]> {
  if (!triggers.some((t) => SYNC_TRIGGERS.has(t.kind))) return [];
  const outcome = await syncStaticFailover(deps, failover, config, {
    reconcile: triggers.some((t) => t.kind === 'reconcile'),
    route53,
  });
  if (!outcome.skipped)
    // The guard alarm's period is the votes' (shared/static-failover/checks.ts).
    await publishGuard(failover, config, deps.now(), VOTE_PERIOD_SECONDS * 1000 * (deps.timeScale ?? 1));
  return outcome.handedOver ?? [];
}

/**
 * Stores whether the evaluator is publishing when this evaluation showed it (it made a
 * Route 53 call, or failed) and it differs from what is stored: one GetItem, a PutItem on change.
 */
export async function recordPublishing(
  failover: StaticFailoverDeps,
  result: Route53Outcome['result'],
  now: number,
): Promise<void> {
  if (result === undefined) return;
  try {
    const stored = await failover.store.loadPublishing();
    if (stored !== undefined && stored.publishing === result.ok && stored.reason === result.reason) return;
    await failover.store.savePublishing({
      publishing: result.ok,
      at: now,
      ...(result.reason === undefined ? {} : { reason: result.reason }),
    });
  } catch (error) {
    // The table is unreachable: the tick cannot read it either, and a tick that cannot read it
    // publishes 0 (functions/evaluator/guard.ts).
    failover.onError?.(error);
  }
}
