/** The evaluator's outside world, as narrow interfaces; DynamoDB/Route 53/EventBridge adapters implement them. */
import { noMetrics, type MetricsSink } from '../shared/metrics-sink.js';
import type { EvaluatorEvent } from '../../shared/evaluation/events.js';
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

/** The evaluator's table: one implementation, the port is its type. */
export type { DynamoDbEvaluatorStore as EvaluatorStateStore } from './dynamodb-state-store.js';

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
