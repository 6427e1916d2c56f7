/**
 * The heartbeat writer: the shard's HeartbeatItem once per heartbeat period, or earlier when the
 * checkpoint (rule states the verdict alone cannot restore) changed, so that a replaced worker
 * continues the counts exactly. It carries the period's latencies as a histogram for
 * ProbeLatency (shared/monitor/latency-histogram.ts) and, after a split change, the checkpoint
 * the shard released (shared/probe/checkpoint-claims.ts). The check summaries (summary-writer.ts)
 * and, when one changed, the certificates are written beside it. A failed write is retried at
 * the end of the next round.
 */
import type { Clock } from '../../../shared/clock.js';
import { fitCertificates } from '../../../shared/monitor/certificate-summary.js';
import { periodHistogram } from '../../../shared/monitor/latency-histogram.js';
import { releasedCheckpoint } from '../../../shared/probe/checkpoint-claims.js';
import type { PlannedJudge } from '../../../shared/probe/target.js';
import type { HeartbeatItem, RuleStateCheckpoint } from '../../../shared/state/items.js';
import type { ProbeStateStore } from '../dynamodb-state-store.js';
import type { CheckRecords } from './check-records.js';
import { ITEM_BUDGET_BYTES } from './limits.js';
import { SummaryWriter } from './summary-writer.js';
import type { HeldJudges, WorkerLogger } from './types.js';

/** What the heartbeat reports of the worker, read when it is written. */
export interface HeartbeatSource {
  readonly shards: () => number;
  readonly judges: () => readonly PlannedJudge[];
  readonly held: () => HeldJudges;
  /** The checkpoint of the rule states, at most `maxEntries`. */
  readonly checkpoint: (maxEntries: number) => Record<string, RuleStateCheckpoint>;
  /** Verdict writes still pending: the checkpoint must not get ahead of them. */
  readonly pendingVerdicts: () => number;
}

export interface HeartbeatWriterOptions {
  readonly store: Pick<
    ProbeStateStore,
    'putHeartbeat' | 'putJudgeList' | 'putCheckSummaries' | 'putCertificates'
  >;
  readonly region: string;
  readonly shard: number;
  readonly clock: Clock;
  readonly periodMs: number;
  readonly maxCheckpointEntries: number;
  readonly logger: WorkerLogger;
  readonly records: CheckRecords;
  readonly source: HeartbeatSource;
}

export class HeartbeatWriter {
  private lastDueAt: number | undefined;
  private lastCheckpointJson: string | undefined;
  /** This shard's heartbeat in the table, as far as the worker knows: the next one replaces it. */
  private last: HeartbeatItem | undefined;
  private dirty = false;
  private writing = false;
  private readonly summaries: SummaryWriter;
  /** How many of the certificate changes seen the last certificates item written carried. */
  private certificateChangesWritten = 0;

  constructor(private readonly options: HeartbeatWriterOptions) {
    const { store, region, shard, periodMs } = options;
    this.summaries = new SummaryWriter(store, region, shard, periodMs);
  }

  /** No heartbeat written yet: a new worker announces itself before its first verdicts. */
  get isNew(): boolean {
    return this.lastDueAt === undefined;
  }

  /** A heartbeat failed, or the split changed: the next round writes one. */
  get isDirty(): boolean {
    return this.dirty;
  }

  markDirty(): void {
    this.dirty = true;
  }

  /** The heartbeat this shard wrote before (a new container's first heartbeat replaces it). */
  adopt(heartbeats: readonly HeartbeatItem[]): void {
    this.last ??= heartbeats.find((h) => (h.shard ?? 0) === this.options.shard);
  }

  /**
   * Writes the heartbeat when its period elapsed, it is dirty, the checkpoint or a certificate
   * changed (with the summaries and certificates when due); true when the heartbeat was written.
   */
  async writeIfDue(dueAt: number): Promise<boolean> {
    const { source, records, maxCheckpointEntries } = this.options;
    if (this.writing || source.pendingVerdicts() > 0) return false;
    const checkpoint = source.checkpoint(maxCheckpointEntries);
    const json = JSON.stringify(checkpoint);
    const periodElapsed = this.lastDueAt === undefined || dueAt - this.lastDueAt >= this.options.periodMs;
    const changes = records.certificateChanges;
    const certificatesChanged = changes !== this.certificateChangesWritten;
    if (!periodElapsed && !this.dirty && !certificatesChanged && json === this.lastCheckpointJson)
      return false;
    const period = records.closePeriod();
    const at = this.options.clock.now();
    const summariesDue = this.summaries.isDue(dueAt, records.summaries);
    const item = this.item(at, checkpoint);
    this.writing = true;
    try {
      const [heartbeat, ...rest] = await Promise.allSettled([
        this.options.store.putHeartbeat(item).then(() => {
          records.periodStored(period);
          this.lastDueAt = dueAt;
          this.lastCheckpointJson = json;
          this.last = item;
        }),
        summariesDue ? this.summaries.write(dueAt, at, source.judges(), records.summaries) : undefined,
        certificatesChanged ? this.writeCertificates(at, changes) : undefined,
      ]);
      const failed = [heartbeat, ...rest].find((r) => r.status === 'rejected');
      this.dirty = failed !== undefined;
      if (failed !== undefined)
        this.options.logger.warn('heartbeat write failed; retrying next round', {
          region: this.options.region,
          error: String(failed.reason),
        });
      return heartbeat.status === 'fulfilled';
    } finally {
      this.writing = false;
    }
  }

  /** The certificate each HTTPS judge last saw, as many as the item's budget holds. */
  private async writeCertificates(at: number, changes: number): Promise<void> {
    const { store, region, shard, records } = this.options;
    await store.putCertificates({
      region,
      ...(shard === 0 ? {} : { shard }),
      at,
      certificates: fitCertificates(records.certificates, ITEM_BUDGET_BYTES),
    });
    this.certificateChangesWritten = changes;
  }

  private item(at: number, checkpoint: Record<string, RuleStateCheckpoint>): HeartbeatItem {
    const { region, shard, periodMs, source, records, maxCheckpointEntries } = this.options;
    const shards = source.shards();
    const held = source.held();
    const released = releasedCheckpoint(
      this.last,
      { shards, at, periodMs },
      (key) => held.has(key),
      maxCheckpointEntries - Object.keys(checkpoint).length,
    );
    return {
      region,
      ...(shards === 1 && shard === 0 ? {} : { shard, shards }),
      at,
      targets: source.judges().length,
      periodMs,
      checkpoint,
      ...(released === undefined ? {} : { released }),
      latencies: periodHistogram(Object.fromEntries(records.summaries), at, periodMs),
    };
  }
}
