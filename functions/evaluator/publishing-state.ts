/**
 * Whether the evaluator is publishing (docs/adr/0011-static-failover.md, "Guard"): its last
 * Route 53 call succeeded and no change waits. One evaluation's Route 53 calls are watched
 * through the zone gateway (and the health-check calls); a refused or failed call, or an
 * evaluation that fails (its changes wait for the retry), makes it false; the next call that
 * succeeds makes it true again. The evaluator stores it on change (STATIC / PUBLISHING) and the
 * tick publishes it every minute as `EvaluatorPublishing`.
 */
import { InvalidChangeBatchError } from './errors.js';
import type { ZoneGateway } from './ports.js';

export class Route53Outcome {
  /** What this evaluation showed; undefined when it made no Route 53 call. */
  result: { readonly ok: boolean; readonly reason?: string } | undefined;

  failed(error: unknown): void {
    this.result = { ok: false, reason: reasonOf(error) };
  }

  /** Runs one Route 53 call and notes how it went. */
  async watch<T>(call: () => Promise<T>): Promise<T> {
    try {
      const result = await call();
      this.result = { ok: true };
      return result;
    } catch (error) {
      // Route 53 answered a rejected change batch: the API works, the problem is the change's.
      if (error instanceof InvalidChangeBatchError) this.result = { ok: true };
      else this.failed(error);
      throw error;
    }
  }
}

export function reasonOf(error: unknown): string {
  const e = error as { name?: string; message?: string } | undefined;
  return `${e?.name ?? 'Error'}: ${e?.message ?? String(error)}`;
}

/** The zone gateway with each call watched. */
export function watchedZones(zones: ZoneGateway, outcome: Route53Outcome): ZoneGateway {
  return {
    readRecords: (zoneId, names) => outcome.watch(() => zones.readRecords(zoneId, names)),
    publish: (zoneId, batch) => outcome.watch(() => zones.publish(zoneId, batch)),
    changeStatus: (changeId) => outcome.watch(() => zones.changeStatus(changeId)),
    syncCidrCollections: (desired) => outcome.watch(() => zones.syncCidrCollections(desired)),
  };
}
