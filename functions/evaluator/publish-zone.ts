/**
 * Publishing one hosted zone: diff the desired records against what we believe is there and
 * send the change batches. When Route 53 rejects a batch, the zone is not what we last
 * published (someone changed it) or one profile's change breaks a Route 53 rule: the zone is
 * re-read and the diff recomputed once; if Route 53 still rejects it, the names are bisected
 * until each rejected name stands alone, so one profile's bad change never holds back the
 * others (k rejected names of n cost about 2·k·log₂ n extra calls, and only when it happens).
 */
import { MetricName } from '../../shared/contracts/metrics.js';
import type { RejectedName, ZoneScope } from '../../shared/evaluation/zones.js';
import { diffZone } from '../../shared/zone/diff.js';
import type { Change, RecordSet } from '../../shared/zone/record-set.js';
import { InvalidChangeBatchError } from './errors.js';
import type { EvaluatorDeps } from './evaluation.js';

export type PublishDeps = Pick<EvaluatorDeps, 'zones' | 'metrics'>;

export async function publishZone(
  deps: PublishDeps,
  zoneId: string,
  zone: ZoneScope,
  desired: readonly RecordSet[],
) {
  const actual = zone.actual ?? (await deps.zones.readRecords(zoneId, zone.names));
  const changes: Change[] = [];
  const changeIds = new Map<string, string[]>();
  const accept = acceptor(changes, changeIds);
  try {
    for (const batch of diffZone(desired, actual, zone.names))
      accept(batch, await deps.zones.publish(zoneId, batch));
    return publication(desired, actual, changes, [], changeIds);
  } catch (error) {
    if (!(error instanceof InvalidChangeBatchError)) throw error;
  }
  // The zone is not what we believed (someone changed it), or a change breaks a Route 53 rule:
  // read the zone and publish what is left, isolating the names Route 53 refuses.
  deps.metrics.count(MetricName.route53Reconciliations, 1);
  const real = await deps.zones.readRecords(zoneId, zone.names);
  const rejected: RejectedName[] = [];
  await publishIsolating(deps.zones, zoneId, desired, real, zone.names, accept, rejected);
  if (rejected.length > 0) deps.metrics.count(MetricName.changesRejected, rejected.length);
  return publication(desired, real, changes, rejected, changeIds);
}

type Accept = (batch: readonly Change[], changeId: string) => void;

/** Keeps what Route 53 accepted: the changes, and the change id of each name they touch. */
function acceptor(changes: Change[], changeIds: Map<string, string[]>): Accept {
  return (batch, id) => {
    changes.push(...batch);
    for (const change of batch) {
      const known = changeIds.get(change.recordSet.name) ?? [];
      if (id !== '' && !known.includes(id)) known.push(id);
      changeIds.set(change.recordSet.name, known);
    }
  };
}

/**
 * Publishes the diff at `names` batch by batch; a rejected batch of several names is split
 * in two (in diff order, so alias targets stay ahead of their aliases) and each half retried.
 * Names of different batches are disjoint, so a half is always diffed against the unchanged
 * zone content.
 */
async function publishIsolating(
  zones: PublishDeps['zones'],
  zoneId: string,
  desired: readonly RecordSet[],
  actual: readonly RecordSet[],
  names: ReadonlySet<string>,
  accept: Accept,
  rejected: RejectedName[],
): Promise<void> {
  for (const batch of diffZone(desired, actual, names)) {
    try {
      accept(batch, await zones.publish(zoneId, batch));
      continue;
    } catch (error) {
      if (!(error instanceof InvalidChangeBatchError)) throw error;
      const batchNames = [...new Set(batch.map((c) => c.recordSet.name))];
      const [only] = batchNames;
      if (batchNames.length === 1 && only !== undefined) {
        rejected.push({ name: only, reasons: error.messages, changes: batch });
        continue;
      }
      const half = Math.ceil(batchNames.length / 2);
      for (const part of [batchNames.slice(0, half), batchNames.slice(half)])
        await publishIsolating(zones, zoneId, desired, actual, new Set(part), accept, rejected);
    }
  }
}

function publication(
  desired: readonly RecordSet[],
  actual: readonly RecordSet[],
  changes: readonly Change[],
  rejected: readonly RejectedName[],
  changeIds: ReadonlyMap<string, readonly string[]>,
) {
  const refused = new Set(rejected.map((r) => r.name));
  return {
    /** Changes Route 53 accepted. */
    changes,
    rejected,
    /** Route 53's ids of the accepted changes, by record name (GetChange tells when they are INSYNC). */
    changeIds,
    /** What the zone holds at each owned name afterwards. */
    recordsAt: (name: string) => (refused.has(name) ? actual : desired).filter((r) => r.name === name),
  };
}
