/** The items of the table, one type per kind; their keys and who may write them: keys.ts. */
import type { OutboxEntry } from '../evaluation/outbox.js';
import type { TransitionRecord } from '../evaluation/transitions.js';
import type { RegionVerdict } from '../status/vocabulary.js';
import type { FailureReason } from '../probe/result.js';
import type { StoredCheckSummary } from '../monitor/check-summary.js';
import type { StoredCertificate } from '../monitor/certificate-summary.js';
import type { CpuScaleReading } from '../probe/cpu-scale.js';
import type { SummaryColumns } from '../monitor/check-summary-columns.js';
import type { LatencyHistogram } from '../monitor/latency-histogram.js';
import type { RecordSet } from '../zone/record-set.js';

/** How long history items live (DynamoDB TTL attribute `expiresAt`, epoch seconds). */
export const HISTORY_RETENTION_DAYS = 30;

/**
 * HISTORY#<profile> / <at>#<endpoint|*>#<eventId>: one status change, the same record the
 * event carries (`TransitionRecord`: eventId, profile, endpoint?, from, to, at, reason, stale,
 * staleBefore, votes, recordsChanged, timing), stored as plain attributes, plus its TTL.
 */
export type HistoryItem = TransitionRecord & {
  readonly pk: string;
  readonly sk: string;
  readonly expiresAt: number;
};

/**
 * OUTBOX / <profile>#<revision>#<part>: events of one status write waiting to be put on the bus
 * (`OutboxEntry`, events as JSON); written in one transaction with the status item, deleted
 * once the events are on the bus and their history items written. OUTBOX /
 * @repair#<hostedZoneId>#<reconciledAt>#<part>: the DriftRepaired events of one zone's
 * reconcile (`hostedZoneId` set), written before the zone's reconcile item.
 */
export type OutboxItem = Omit<OutboxEntry, 'events'> & {
  readonly pk: string;
  readonly sk: string;
  /** `EvaluatorEvent[]` as JSON. */
  readonly events: string;
};

/** VERDICT#<region>#<verdictKey> / VERDICT: the region's current verdict of one judge (one profile judging of one request). */
export interface VerdictItem {
  /** The verdict key (`verdictKeyOf`): the request key plus a hash of how it is judged. */
  readonly targetKey: string;
  readonly region: string;
  readonly verdict: RegionVerdict;
  /** Epoch ms of the check that produced this verdict (first check of the current verdict). */
  readonly since: number;
  /** Epoch ms of the check that last wrote this item; conditional writes only move it forward. */
  readonly checkedAt: number;
  /**
   * Epoch ms: start of the first check of the run of like outcomes that led to this verdict —
   * the first failure of the failing run for `down`, the first success of the recovering run
   * for `up`. Absent in items written before it existed.
   */
  readonly runStartedAt?: number;
  /** Latency of the deciding check, when it got one. */
  readonly latencyMs?: number;
  /** The deciding check's failure reason (down verdicts). */
  readonly reason?: FailureReason;
  /** Human text of the rule decision, e.g. "4 consecutive failures (tolerated 3)". */
  readonly detail: string;
}

/** Per-target rule state a worker needs to continue after a restart (only non-clean states are kept). */
export type RuleStateCheckpoint =
  | {
      readonly kind: 'consecutiveFailures';
      readonly failures: number;
      /** Start of the first failed check of the counted run (so a replaced worker reports it too). */
      readonly runStartedAt?: number;
      /** Consecutive successes of a down region short of `requiredSuccessesToRecover`. */
      readonly successes?: number;
    }
  | {
      readonly kind: 'sampleWindow';
      /** '1'/'0' per check, oldest first. */
      readonly samples: string;
      /** Consecutive successes of a down region short of `requiredSuccessesToRecover`. */
      readonly successes?: number;
    };

/** REGION#<region> / HEARTBEAT (shard 0) or HEARTBEAT#<shard> */
export interface HeartbeatItem {
  readonly region: string;
  /** The shard that wrote it, of `shards` (absent: 0 of 1). Its checkpoint holds the requests the shard claimed then (`isInShard`). */
  readonly shard?: number;
  readonly shards?: number;
  /** Epoch ms of the last completed probe round. */
  readonly at: number;
  /** How many targets the region (this shard) probes. */
  readonly targets: number;
  /** The period this region promises to heartbeat at (ms); staleness is judged against it. */
  readonly periodMs: number;
  /** Rule state of judges not in their clean state (failing counts, mixed windows), by verdict key. */
  readonly checkpoint: Readonly<Record<string, RuleStateCheckpoint>>;
  /**
   * After a reshard, for a heartbeat period: what this shard's previous heartbeat claimed and
   * this one no longer does (shared/probe/checkpoint-claims.ts), so that a shard gaining those
   * requests still finds their counts when it restores after this item replaced that heartbeat.
   */
  readonly released?: ReleasedCheckpoint;
  /**
   * The median latency of each judge checked in the last period, as a histogram
   * (shared/monitor/latency-histogram.ts): the evaluator tick's ProbeLatency.
   */
  readonly latencies?: LatencyHistogram;
  /**
   * Read only: heartbeats written before the SUMMARY and CERTIFICATES items carried each judge's
   * check summary and certificate here (by verdict key); a table upgraded in place may still
   * hold one until the shard writes its next heartbeat.
   */
  readonly summaries?: Readonly<Record<string, StoredCheckSummary>>;
  readonly certificates?: Readonly<Record<string, StoredCertificate>>;
}

/** The checkpoint a shard's last heartbeat under its previous split held of the judges it no longer holds. */
export interface ReleasedCheckpoint {
  /** The previous split: the requests of this shard of `shards` are claimed, as of `at`. */
  readonly shards: number;
  /** `at` of the heartbeat the checkpoint was taken from. */
  readonly at: number;
  /** Epoch ms of the first heartbeat that carried it (it is dropped a heartbeat period later). */
  readonly releasedAt: number;
  readonly checkpoint: Readonly<Record<string, RuleStateCheckpoint>>;
}

/** REGION#<region> / CAPACITY#<shard>: what a shard measured its rounds' CPU to be, against the constants' prediction. */
export type CapacityItem = CpuScaleReading & { readonly region: string };

/** REGION#<region> / JUDGES[#<shard>]: the shard's verdict keys, sorted, that its SUMMARY item is positional over. */
export interface JudgeListItem {
  readonly region: string;
  readonly shard?: number;
  /** Epoch ms of the write. */
  readonly at: number;
  /** `judgeListVersion(keys)`: the SUMMARY item names the list it was written against. */
  readonly version: string;
  readonly keys: readonly string[];
}

/**
 * REGION#<region> / SUMMARY[#<shard>]: each judge's checks of its last heartbeat period
 * (shared/monitor/check-summary.ts), by position in the JUDGES list named `judges`
 * (shared/monitor/check-summary-columns.ts): what `tm status` shows between verdict changes.
 */
export interface CheckSummariesItem {
  readonly region: string;
  readonly shard?: number;
  /** Epoch ms of the write: the columns' times count back from it. */
  readonly at: number;
  /** The version of the JUDGES list the columns follow. */
  readonly judges: string;
  readonly columns: SummaryColumns;
}

/**
 * REGION#<region> / CERTIFICATES[#<shard>]: the certificate each HTTPS judge of the shard last
 * saw, by verdict key (shared/monitor/certificate-summary.ts); written when one changes.
 */
export interface CertificatesItem {
  readonly region: string;
  readonly shard?: number;
  /** Epoch ms of the write. */
  readonly at: number;
  readonly certificates: Readonly<Record<string, StoredCertificate>>;
}

/**
 * CONFIG / PROFILE#<name>: one normalized profile, written by the config writer
 * (custom resource at deploy, or `tm local` at start). `definition` is the Profile as
 * JSON; `version` a hash of it, so an unchanged profile is not rewritten.
 */
export interface ConfigItem {
  readonly name: string;
  readonly definition: string;
  readonly version: string;
  /** The deployment's default probe regions (for profiles without `probeRegions`). */
  readonly defaultProbeRegions: readonly string[];
}

/**
 * REVISION#CONFIG / REVISION and REVISION#CONTROL / REVISION: a counter the writers of that
 * partition move (UpdateItem ADD) after each write, so a warm reader checks one small item
 * a minute and re-reads the partition only when the counter moved.
 */
export interface RevisionItem {
  readonly revision: number;
  /** Epoch ms of the last move. */
  readonly at: number;
}

/** TICK / REGIONS */
export interface TickItem {
  readonly fresh: readonly string[];
  readonly stale: readonly string[];
  readonly at: number;
}

/** Who set a runtime control, when and why. */
export interface ControlAuthor {
  /** The caller's identity: the AWS principal ARN where AWS gives one, else the OS user. */
  readonly by: string;
  /** Epoch ms. */
  readonly at: number;
  readonly reason?: string;
}

/**
 * CONTROL / STATUS#<profile>#<endpoint|*>: an endpoint's (or, with `*`, a profile's)
 * Enabled/Disabled set at runtime (`tm endpoint disable|enable`, `tm profile
 * disable|enable`). `status` wins over the deployed definitions until `tm endpoint clear`;
 * absent, the definitions decide. `enabledAt` is the last time a runtime action enabled it
 * again: checks made before it never count (the endpoint is CheckingEndpoint until newer
 * checks decide).
 */
export interface StatusControlItem {
  readonly profile: string;
  /** Absent for the profile itself. */
  readonly endpoint?: string;
  readonly status?: 'Enabled' | 'Disabled';
  /** Who wrote this control last (set `status`, or cleared it). */
  readonly set: ControlAuthor;
  readonly enabledAt?: number;
}

/**
 * CONTROL / OVERRIDE#<profile>#<endpoint>: the endpoint's monitor status set by hand
 * (`tm endpoint override --status Online|Degraded --for 30m`) until `until` (epoch ms),
 * for maintenance or a drain; probing goes on meanwhile. Deleted by `tm endpoint clear`,
 * or by the evaluator tick once expired (the delete re-evaluates the profile).
 */
export interface MonitorOverrideItem {
  readonly profile: string;
  readonly endpoint: string;
  readonly status: 'Online' | 'Degraded';
  readonly until: number;
  readonly set: ControlAuthor & { readonly reason: string };
}

/**
 * CONTROL / VERSION#<profile>#<endpoint|*>: how many commands have changed this endpoint's
 * (or profile's) controls. Every `tm endpoint|profile` command is conditioned on the version
 * it read — its write moves it, in the same transaction; a command that changes nothing
 * checks it — and reads again when another command got there first, so the state after
 * racing commands is what the one that committed last asked for.
 */
export interface ControlVersionItem {
  readonly version: number;
  /** Epoch ms of the last move. */
  readonly at: number;
}

/** Every runtime control in the table (one query of the CONTROL partition). */
export interface RuntimeControls {
  readonly statuses: readonly StatusControlItem[];
  readonly overrides: readonly MonitorOverrideItem[];
}

/** TICK / RECONCILE: written by the tick once per reconcile interval; its stream record makes the evaluator reconcile. */
export interface ReconcileRequestItem {
  /** Epoch ms the tick asked for this reconcile. */
  readonly requestedAt: number;
}

/** A health check the evaluator created: its Route 53 id and the generation of its CallerReference. */
export interface AppliedHealthCheck {
  readonly healthCheckId: string;
  readonly generation: number;
}

/** STATIC / STRUCTURE: the static-failover structure as the evaluator last applied it. */
export interface StaticStructureItem {
  /** Digest of the planned structure last applied in full; another plan is applied again. */
  readonly digest: string;
  /** Logical id (shared/static-failover/identity.ts) → the Route 53 health check. */
  readonly checks: Readonly<Record<string, AppliedHealthCheck>>;
  /** Probe regions that hold our alarms (a region dropped later is still read, to delete them). */
  readonly alarmRegions: readonly string[];
  /** The static records published (`_static.*` and the switch at each fqdn), by hosted zone. */
  readonly zones: Readonly<Record<string, readonly RecordSet[]>>;
  /** Epoch ms of the last complete apply. */
  readonly appliedAt: number;
  /** The last apply failed part way (retried on the next evaluation and reconcile). */
  readonly problem?: { readonly at: number; readonly reason: string };
}

/** STATIC / PUBLISHING: what the evaluator tick publishes as EvaluatorPublishing (1 when `publishing`). */
export interface EvaluatorPublishingItem {
  /** The last Route 53 call succeeded and no change waits. */
  readonly publishing: boolean;
  /** Epoch ms of the evaluation that set it. */
  readonly at: number;
  /** Why not, when not. */
  readonly reason?: string;
}

/** ZONE#<hostedZoneId> / RECONCILE: how the zone's last reconcile went. */
export interface ZoneReconcileItem {
  readonly hostedZoneId: string;
  /** Epoch ms the zone was read. */
  readonly at: number;
  /** Owned names compared. */
  readonly names: number;
  /** Record sets at those names that differed from what was published (and were repaired). */
  readonly repaired: number;
  /** The repair's Route 53 change, when there was one (its DriftRepaired events carry when it was INSYNC). */
  readonly changeId?: string;
  readonly submittedAt?: number;
}

/**
 * CERTIFICATE / <profile>#<endpoint>: the certificate the evaluator tick last warned about for
 * an endpoint (CertificateExpiring), written in one transaction with the event's outbox entry
 * on the condition that it names another certificate: one warning per certificate, however many
 * ticks see it, and a renewed certificate that expires soon again warns again.
 */
export interface CertificateWarningItem {
  readonly profile: string;
  readonly endpoint: string;
  /** The certificate's notAfter, epoch ms: what identifies it here. */
  readonly notAfter: number;
  /** Epoch ms of the tick that warned. */
  readonly warnedAt: number;
  readonly eventId: string;
}
