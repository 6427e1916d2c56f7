/**
 * Drift repair: once per reconcile interval (TICK/RECONCILE, written by the tick, reaches the
 * evaluator through the stream) every hosted zone that has owned names is read — whole-zone
 * pages when that is fewer calls, name by name otherwise (`ZoneGateway.readRecords`) — and
 * compared with what the evaluator last published there (the status items' `published`).
 * Whatever someone else changed or deleted at an owned name is put back, one batch per zone
 * (more only past Route 53's batch limits); other names are never touched. Each repaired
 * record set is a `DriftRepaired` event with what was found and what was written; the events
 * go through the outbox like every other event, so the publisher stamps `inSyncAt` once
 * GetChange answers INSYNC and delivers them with retries. The zone's outcome is kept for
 * `tm status`. The decisions are shared/evaluation/drift.ts; this is the I/O sequence.
 */
import { EventDetailType } from '../../shared/contracts/events.js';
import { MetricName } from '../../shared/contracts/metrics.js';
import { driftEvents, repairsOf, zonesToReconcile } from '../../shared/evaluation/drift.js';
import { repairOutboxEntries, type OutboxEntry } from '../../shared/evaluation/outbox.js';
import type { ZoneReconcileItem } from '../../shared/state/items.js';
import type { EvaluatorDeps } from './evaluation.js';
import { publishZone } from './publish-zone.js';

export async function reconcileZones(deps: EvaluatorDeps): Promise<void> {
  const statuses = await deps.store.loadStatuses();
  const results: ZoneReconcileItem[] = [];
  const outbox: OutboxEntry[] = [];
  for (const [hostedZoneId, zone] of zonesToReconcile(statuses)) {
    const at = deps.now();
    const actual = await deps.zones.readRecords(hostedZoneId, zone.names);
    const outcome = await publishZone(deps, hostedZoneId, { names: zone.names, actual }, zone.desired);
    const submittedAt = deps.now();
    const repairs = repairsOf(outcome.changes, actual, zone.desired);
    const changeIds = [...new Set([...outcome.changeIds.values()].flat())];
    const [changeId] = changeIds;
    deps.metrics.count(MetricName.driftRepaired, repairs.length);
    results.push({
      hostedZoneId,
      at,
      names: zone.names.size,
      repaired: repairs.length,
      ...(changeId === undefined ? {} : { changeId, submittedAt }),
    });
    const repaired =
      changeId === undefined
        ? []
        : driftEvents(repairs, zone.owners, {
            hostedZoneId,
            reconciledAt: at,
            changeId,
            changeSubmittedAt: submittedAt,
          });
    const rejected = outcome.rejected.map((refused) => {
      const profile = zone.owners.get(refused.name) ?? '';
      return {
        kind: EventDetailType.publishRejected,
        eventId: `${profile}/rejected/reconcile@${at}`,
        profile,
        hostedZoneId,
        name: refused.name,
        reasons: refused.reasons,
        changes: refused.changes,
      } as const;
    });
    const zoneEvents = [...repaired, ...rejected];
    outbox.push(...repairOutboxEntries({ hostedZoneId, reconciledAt: at, changeIds, events: zoneEvents }));
  }
  if (results.length > 0) await deps.store.saveZoneReconciles(results, outbox);
}
