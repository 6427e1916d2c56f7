/** The evaluator's outside world, as narrow interfaces; DynamoDB/Route 53/EventBridge adapters implement them. */
import { EventDetailType } from '../../shared/contracts/events.js';
import type { MetricName } from '../../shared/contracts/metrics.js';
import type { Profile } from '../../shared/profile/types.js';
import type { ProfileStatusReport, StatusChange } from '../../shared/status/evaluate.js';
import type { HeartbeatItem, TickItem, VerdictItem } from '../../shared/state/items.js';
import type { Change, CidrCollection, RecordSet } from '../../shared/zone/record-set.js';

export interface LoadedConfig {
  readonly profiles: readonly Profile[];
  readonly defaultProbeRegions: readonly string[];
}

/** What the evaluator last published for one profile, kept beside its status. */
export interface StoredStatus {
  readonly report: ProfileStatusReport;
  readonly hostedZoneId: string;
  /** The profile's fqdn: the only name its records live at. */
  readonly ownedName: string;
  readonly published: readonly RecordSet[];
  /** CIDR collections as published, with their Route 53 ids (Subnet profiles). */
  readonly cidrCollections: readonly CidrCollection[];
  /** Route 53 rejected this profile's last change (InvalidChangeBatch): `published` is then what the zone holds. */
  readonly publishProblem?: PublishProblem;
}

export interface PublishProblem {
  /** Epoch ms of the rejected attempt. */
  readonly at: number;
  /** Route 53's reasons, as it gave them. */
  readonly reasons: readonly string[];
}

export interface EvaluatorStateStore {
  loadConfig(): Promise<LoadedConfig>;
  loadStatuses(): Promise<Map<string, StoredStatus>>;
  loadVerdicts(targetKeys: readonly string[], regions: readonly string[]): Promise<VerdictItem[]>;
  loadHeartbeats(regions: readonly string[]): Promise<HeartbeatItem[]>;
  /** Saves many statuses in as few requests as the store allows. */
  saveStatuses(statuses: readonly StoredStatus[]): Promise<void>;
  deleteStatus(profile: string): Promise<void>;
  appendHistory(changes: readonly StatusChange[], now: number): Promise<void>;
  loadTick(): Promise<TickItem | undefined>;
  /** Writing the tick item triggers an evaluation of every profile through the stream. */
  saveTick(tick: TickItem): Promise<void>;
}

export interface ZoneGateway {
  /** The zone's current records at `names` (authoritative read; used on first sight and after a rejected batch). */
  readRecords(hostedZoneId: string, names: ReadonlySet<string>): Promise<RecordSet[]>;
  /** Sends the batches in order; throws `InvalidChangeBatchError` when Route 53 rejects one. */
  publish(hostedZoneId: string, batches: readonly (readonly Change[])[]): Promise<void>;
  /** Creates or updates CIDR collections (by name) and returns them with their ids. */
  syncCidrCollections(desired: readonly CidrCollection[]): Promise<CidrCollection[]>;
}

export interface StatusEvent {
  /** The event's `detail-type`. */
  readonly kind: typeof EventDetailType.endpointStatusChanged | typeof EventDetailType.profileStatusChanged;
  readonly change: StatusChange;
  readonly recordsChanged: readonly Change[];
}

/** Route 53 refused one profile's change; the rest of its zone was published without it. */
export interface PublishRejectedEvent {
  readonly kind: typeof EventDetailType.publishRejected;
  readonly profile: string;
  readonly hostedZoneId: string;
  /** The profile's DNS name: the only name its changes touch. */
  readonly name: string;
  readonly reasons: readonly string[];
  /** The changes that were refused (nothing of them was applied). */
  readonly changes: readonly Change[];
}

export type EvaluatorEvent = StatusEvent | PublishRejectedEvent;

export function isStatusEvent(event: EvaluatorEvent): event is StatusEvent {
  return event.kind !== EventDetailType.publishRejected;
}

export interface EventSink {
  emit(events: readonly EvaluatorEvent[]): Promise<void>;
}

export interface EvaluatorMetrics {
  count(name: MetricName, value: number, dimensions?: Record<string, string>): void;
  duration(name: MetricName, ms: number, dimensions?: Record<string, string>): void;
  flush(): void;
}

export const noMetrics: EvaluatorMetrics = {
  count: () => undefined,
  duration: () => undefined,
  flush: () => undefined,
};
