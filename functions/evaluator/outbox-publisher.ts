/**
 * Drains the outbox (shared/evaluation/outbox.ts): for each pending entry, oldest first —
 * write its transitions as history items (idempotent puts: same keys every time), ask Route 53
 * whether its changes are INSYNC (GetChange, through the evaluator's one limiter), put its
 * events on the bus once they are (the sink retries with backoff) and delete the entry last.
 * A crash anywhere leaves the entry for the next drain: nothing is lost, and what is sent twice
 * carries the same `eventId`.
 *
 * It runs after every evaluation and on the TICK/OUTBOX trigger the tick writes each minute
 * while entries are pending. It never throws: an entry that cannot be sent now waits for the
 * next drain (the first failure ends the drain: the sink has already retried, and the entries
 * after it keep their order), so a failing EventBridge never holds back the evaluations that
 * publish DNS.
 */
import { MetricName } from '../../shared/contracts/metrics.js';
import { isDue, transitionsOf, withInSyncAt } from '../../shared/evaluation/outbox.js';
import type { EvaluatorDeps } from './evaluation.js';

export type OutboxPublisherDeps = Pick<
  EvaluatorDeps,
  'store' | 'zones' | 'events' | 'metrics' | 'now' | 'onPublishError'
>;

export async function publishOutbox(deps: OutboxPublisherDeps): Promise<void> {
  /** Entries still waiting for INSYNC or for a failed delivery to be retried. */
  let pending = 0;
  let entries;
  try {
    entries = await deps.store.loadOutbox();
  } catch (error) {
    deps.onPublishError?.(error);
    return;
  }
  const inSync = new Map<string, boolean>(); // change id → INSYNC, asked once per drain
  for (const [index, entry] of entries.entries()) {
    try {
      for (const id of entry.changeIds)
        if (!inSync.has(id)) inSync.set(id, (await deps.zones.changeStatus(id)) === 'INSYNC');
      const synced = entry.changeIds.length > 0 && entry.changeIds.every((id) => inSync.get(id));
      const now = deps.now();
      const ready = synced ? withInSyncAt(entry, now) : entry;
      const transitions = transitionsOf(ready);
      if (transitions.length > 0) await deps.store.appendHistory(transitions);
      if (!isDue(entry, synced, now)) {
        pending += 1;
        continue;
      }
      await deps.events.emit(ready.events);
      await deps.store.deleteOutbox(entry);
    } catch (error) {
      // The sink already retried: the rest would most likely fail the same way. Keep them, in order.
      pending += entries.length - index;
      deps.onPublishError?.(error);
      break;
    }
  }
  deps.metrics.count(MetricName.outboxPending, pending);
}
