/** The evaluator's outside world, as narrow interfaces; DynamoDB/Route 53/EventBridge adapters implement them. */
import type { RegionChecks } from '../../shared/monitor/region-checks.js';
import type { DeployedConfig } from '../shared/config-reader.js';
import { noMetrics, type MetricsSink } from '../shared/metrics-sink.js';
import type { EvaluatorEvent } from '../../shared/evaluation/events.js';
import type { OutboxEntry } from '../../shared/evaluation/outbox.js';
import type { StoredStatus } from '../../shared/evaluation/stored-status.js';
import type { TransitionRecord } from '../../shared/evaluation/transitions.js';
import type {
  CertificateWarningItem,
  HeartbeatItem,
  MonitorOverrideItem,
  ReconcileRequestItem,
  RuntimeControls,
  TickItem,
  VerdictItem,
  ZoneReconcileItem,
} from '../../shared/state/items.js';
import type { Change, CidrCollection, RecordSet } from '../../shared/zone/record-set.js';

// The stored status and the events are the core's (shared/evaluation/); the ports carry them.
export type { PublishProblem, StoredStatus } from '../../shared/evaluation/stored-status.js';
export type {
  DriftRepairedEvent,
  EvaluatorEvent,
  PublishRejectedEvent,
  StatusEvent,
} from '../../shared/evaluation/events.js';
export { isStatusEvent } from '../../shared/evaluation/events.js';

export interface EvaluatorStateStore {
  /** The deployed definitions (runtime controls are applied by the evaluation). */
  loadConfig(): Promise<DeployedConfig>;
  loadControls(): Promise<RuntimeControls>;
  /** Deletes an expired override unless it was replaced (the delete triggers an evaluation). */
  deleteExpiredOverride(override: MonitorOverrideItem): Promise<boolean>;
  loadStatuses(): Promise<Map<string, StoredStatus>>;
  loadVerdicts(targetKeys: readonly string[], regions: readonly string[]): Promise<VerdictItem[]>;
  /** Every shard's heartbeat of each region. */
  loadHeartbeats(regions: readonly string[]): Promise<HeartbeatItem[]>;
  /** The regions' check summaries and certificates, every shard's (shared/monitor/region-checks.ts). */
  loadRegionChecks(regions: readonly string[]): Promise<RegionChecks[]>;
  /**
   * Saves many statuses in as few requests as the store allows. A status with outbox entries
   * is written in one transaction with them, on the condition that its stored revision is the
   * one before (a concurrent writer makes the transaction fail rather than lose a change).
   */
  saveStatuses(statuses: readonly StoredStatus[], outbox?: readonly OutboxEntry[]): Promise<void>;
  deleteStatus(profile: string): Promise<void>;
  /** Idempotent: a record is always written to the same key. */
  appendHistory(records: readonly TransitionRecord[]): Promise<void>;
  /** Outbox entries not yet published, oldest decision first. */
  loadOutbox(): Promise<OutboxEntry[]>;
  deleteOutbox(entry: OutboxEntry): Promise<void>;
  /** Wakes the evaluator (through the stream) to publish waiting outbox entries. */
  saveOutboxTrigger(at: number): Promise<void>;
  loadTick(): Promise<TickItem | undefined>;
  /** Writing the tick item triggers an evaluation of every profile through the stream. */
  saveTick(tick: TickItem): Promise<void>;
  loadReconcileRequest(): Promise<ReconcileRequestItem | undefined>;
  /** Writing the request triggers a reconcile of every zone through the stream. */
  saveReconcileRequest(request: ReconcileRequestItem): Promise<void>;
  loadZoneReconciles(hostedZoneIds: readonly string[]): Promise<ZoneReconcileItem[]>;
  /**
   * Saves each zone's reconcile outcome; a zone with outbox entries (its repairs' events) is
   * written in one transaction with them, so a repair is never recorded without its events.
   */
  saveZoneReconciles(zones: readonly ZoneReconcileItem[], outbox?: readonly OutboxEntry[]): Promise<void>;
  /** The certificate each endpoint was last warned about (CERTIFICATE items). */
  loadCertificateWarnings(): Promise<CertificateWarningItem[]>;
  /**
   * Writes a certificate warning's outbox entry and its CERTIFICATE item in one transaction, on
   * the condition that the item does not name this certificate already; false when it did (a
   * concurrent tick warned first): nothing is written.
   */
  saveCertificateWarning(warned: CertificateWarningItem, entry: OutboxEntry): Promise<boolean>;
}

export interface ZoneGateway {
  /** The zone's current records at `names` (authoritative read; used on first sight and after a rejected batch). */
  readRecords(hostedZoneId: string, names: ReadonlySet<string>): Promise<RecordSet[]>;
  /**
   * Sends one change batch and returns Route 53's change id; throws `InvalidChangeBatchError`
   * when Route 53 rejects it.
   */
  publish(hostedZoneId: string, batch: readonly Change[]): Promise<string>;
  /** GetChange: whether a submitted change has reached every Route 53 name server. */
  changeStatus(changeId: string): Promise<'PENDING' | 'INSYNC'>;
  /** Creates or updates CIDR collections (by name) and returns them with their ids. */
  syncCidrCollections(desired: readonly CidrCollection[]): Promise<CidrCollection[]>;
}

export interface EventSink {
  emit(events: readonly EvaluatorEvent[]): Promise<void>;
}

export type EvaluatorMetrics = MetricsSink;
export { noMetrics };
