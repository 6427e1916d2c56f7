/**
 * The single DynamoDB table's item layout (pk/sk strings), shared by the probe
 * workers, the evaluator, the config writer, `tm status` and the CDK stream filters.
 * See docs/adr/0002-table-layout.md.
 *
 *  pk                              sk                   written by        what
 *  CONFIG                          PROFILE#<name>       config writer     one normalized Profile (JSON) + version
 *  VERDICT#<region>#<verdictKey>   VERDICT              probe (region)    the region's verdict of one judge of a probe (shared/probe/target.ts); on change only
 *  REGION#<region>                 HEARTBEAT[#<shard>]  probe (region)    once per heartbeat period: liveness + rule-state checkpoint + the period's latency histogram (per shard)
 *  REGION#<region>                 CAPACITY#<shard>     probe (region)    the shard's measured CPU scale (shared/probe/cpu-scale.ts); on a material change or every 20 min; the probe tick sizes the region by it
 *  REGION#<region>                 SUMMARY[#<shard>]    probe (region)    every SUMMARY_EVERY_PERIODS heartbeat periods: each judge's checks of its last period, positional over JUDGES
 *  REGION#<region>                 JUDGES[#<shard>]     probe (region)    when the shard's judge list changes: its sorted verdict keys
 *  REGION#<region>                 CERTIFICATES[#<shard>]  probe (region)  when a certificate changes: the certificate each HTTPS judge last saw
 *  STATUS                          PROFILE#<name>       evaluator         profile + endpoint monitor statuses (on change only)
 *  HISTORY#<profile>               <iso>#<endpoint|*>#<eventId>  evaluator  one status change (a TransitionRecord), with a TTL
 *  OUTBOX                          <profile>#<revision>#<part>  evaluator  the events of one status write, not yet on the bus (same transaction as the status)
 *  OUTBOX                          @repair#<zone>#<at>#<part>   evaluator  the DriftRepaired events of one zone's reconcile, not yet on the bus
 *  OUTBOX                          @certificate#<p>#<e>#<notAfter>  evaluator tick  one CertificateExpiring event, not yet on the bus (same transaction as the CERTIFICATE item)
 *  CERTIFICATE                     <profile>#<endpoint>  evaluator tick   the certificate last warned about (its notAfter): one warning per certificate
 *  TICK                            REGIONS              evaluator tick    the fresh/stale probe regions; written only when that set changes
 *  TICK                            OUTBOX               evaluator tick    each minute while OUTBOX items wait: wakes the evaluator to publish them
 *  CONTROL                         STATUS#<p>#<e|*>     operator (tm)     runtime Enabled/Disabled of an endpoint (or profile `*`): who, when, why
 *  CONTROL                         OVERRIDE#<p>#<e>     operator (tm)     a monitor status set by hand until a time; the evaluator tick deletes it once expired
 *  CONTROL                         VERSION#<p>#<e|*>    operator (tm)     the endpoint's (or profile's) control version: every command's write is conditioned on it
 *  TICK                            RECONCILE            evaluator tick    "reconcile now": written once per reconcile interval
 *  ZONE#<hostedZoneId>             RECONCILE            evaluator         the zone's last reconcile (for tm status)
 *  STATIC                          STRUCTURE            evaluator         static failover as applied: logical id → HealthCheckId, the records published, the plan's digest
 *  STATIC                          PUBLISHING           evaluator         whether its last Route 53 call succeeded with nothing waiting (the tick publishes it as EvaluatorPublishing)
 *  REVISION#CONFIG                 REVISION             config writer     a counter moved by every sync: readers re-read CONFIG only when it moved
 *  REVISION#CONTROL                REVISION             operator (tm), evaluator tick  likewise for CONTROL: moved by every control write or expired-override delete
 *
 * Every item a probe region writes has its region in the partition key, so IAM
 * (`dynamodb:LeadingKeys`, which sees partition keys only) can hold each region to its own
 * verdicts and heartbeat: `TABLE_ACCESS` below lists, per writer, the partition keys it
 * writes and reads, and the CDK roles are derived from it. A new item kind goes into those
 * lists, or its writer is denied.
 *
 * The evaluator's stream filter admits only CONFIG, VERDICT#, TICK and CONTROL items
 * (`EVALUATOR_TRIGGER_PREFIXES`), so its own writes and the heartbeats never trigger it;
 * the tick turns a region going silent (or coming back), an override expiring, waiting outbox
 * items and a due reconcile into one write each (the tick itself never calls Route 53).
 */
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

const HEARTBEAT_SK = 'HEARTBEAT';
/** Sort-key prefix of a shard's capacity item (REGION#<region> / CAPACITY#<shard>). */
export const CAPACITY_SK = 'CAPACITY#';

/** A probe region shard's item: shard 0 under `<kind>`, shard n > 0 under `<kind>#<n>`. */
function regionShardKey(kind: string, region: string, shard: number) {
  return { pk: `REGION#${region}`, sk: shard === 0 ? kind : `${kind}#${shard}` };
}

/** Sort keys of a probe region's partition besides the heartbeats. */
export const RegionItemKind = {
  heartbeat: HEARTBEAT_SK,
  checkSummaries: 'SUMMARY',
  judgeList: 'JUDGES',
  certificates: 'CERTIFICATES',
} as const;

export const Keys = {
  config: (profile: string) => ({ pk: 'CONFIG', sk: `PROFILE#${profile}` }),
  verdict: (targetKey: string, region: string) => ({ pk: `VERDICT#${region}#${targetKey}`, sk: 'VERDICT' }),
  /** Shard 0 writes `HEARTBEAT`, shard n > 0 `HEARTBEAT#<n>`: one Query on the prefix reads every shard's. */
  heartbeat: (region: string, shard = 0) => regionShardKey(RegionItemKind.heartbeat, region, shard),
  checkSummaries: (region: string, shard = 0) => regionShardKey(RegionItemKind.checkSummaries, region, shard),
  judgeList: (region: string, shard = 0) => regionShardKey(RegionItemKind.judgeList, region, shard),
  certificates: (region: string, shard = 0) => regionShardKey(RegionItemKind.certificates, region, shard),
  /** One Query on the `CAPACITY#` prefix reads every shard's measured CPU scale (never matched by the heartbeat prefix). */
  capacity: (region: string, shard: number) => ({ pk: `REGION#${region}`, sk: `${CAPACITY_SK}${shard}` }),
  status: (profile: string) => ({ pk: 'STATUS', sk: `PROFILE#${profile}` }),
  tick: () => ({ pk: 'TICK', sk: 'REGIONS' }),
  /** Written by the tick while outbox items wait; its stream record wakes the evaluator to publish them. */
  outboxTrigger: () => ({ pk: 'TICK', sk: 'OUTBOX' }),
  /** The events of one status write (`revision`), in parts when they are large. */
  outbox: (profile: string, revision: number, part: number) => ({
    pk: 'OUTBOX',
    sk: `${profile}#${String(revision).padStart(10, '0')}#${part}`,
  }),
  /** The events of one reconcile's repairs in a zone (`@` never starts a profile name, so never a status write's key). */
  repairOutbox: (hostedZoneId: string, reconciledAt: number, part: number) => ({
    pk: 'OUTBOX',
    sk: `@repair#${hostedZoneId}#${reconciledAt}#${part}`,
  }),
  statusControl: (profile: string, endpoint: string | undefined) => ({
    pk: 'CONTROL',
    sk: `STATUS#${profile}#${endpoint ?? '*'}`,
  }),
  monitorOverride: (profile: string, endpoint: string) => ({
    pk: 'CONTROL',
    sk: `OVERRIDE#${profile}#${endpoint}`,
  }),
  /** One endpoint's (or, endpoint absent, one profile's) ControlVersionItem. */
  controlVersion: (profile: string, endpoint: string | undefined) => ({
    pk: 'CONTROL',
    sk: `VERSION#${profile}#${endpoint ?? '*'}`,
  }),
  /** Written by the tick once per reconcile interval; its stream record makes the evaluator reconcile every zone. */
  reconcileRequest: () => ({ pk: 'TICK', sk: 'RECONCILE' }),
  zoneReconcile: (hostedZoneId: string) => ({ pk: `ZONE#${hostedZoneId}`, sk: 'RECONCILE' }),
  /** The static-failover structure as the evaluator last applied it (docs/adr/0011-static-failover.md). */
  staticStructure: () => ({ pk: 'STATIC', sk: 'STRUCTURE' }),
  /** The evaluator's publishing state, read by the tick for the guard metric. */
  evaluatorPublishing: () => ({ pk: 'STATIC', sk: 'PUBLISHING' }),
  /** Moved after every write of the CONFIG partition (RevisionItem). */
  configRevision: () => ({ pk: `${KeyPrefix.revision}CONFIG`, sk: 'REVISION' }),
  /** Moved after every write of the CONTROL partition (RevisionItem). */
  controlRevision: () => ({ pk: `${KeyPrefix.revision}CONTROL`, sk: 'REVISION' }),
  /** The certificate of an endpoint the tick last warned about; written with the warning's outbox entry. */
  certificateWarning: (profile: string, endpoint: string) => ({
    pk: 'CERTIFICATE',
    sk: `${profile}#${endpoint}`,
  }),
  /** One CertificateExpiring event (`@` never starts a profile name, so never a status write's key). */
  certificateOutbox: (profile: string, endpoint: string, notAfter: number) => ({
    pk: 'OUTBOX',
    sk: `@certificate#${profile}#${endpoint}#${notAfter}`,
  }),
  /** Sorted by time; the event id keeps two changes of one endpoint within a millisecond apart. */
  history: (record: Pick<TransitionRecord, 'profile' | 'endpoint' | 'at' | 'eventId'>) => ({
    pk: `HISTORY#${record.profile}`,
    sk: `${record.at}#${record.endpoint ?? '*'}#${record.eventId}`,
  }),
} as const;

export const KeyPrefix = {
  config: 'CONFIG',
  verdict: 'VERDICT#',
  region: 'REGION#',
  status: 'STATUS',
  history: 'HISTORY#',
  outbox: 'OUTBOX',
  tick: 'TICK',
  control: 'CONTROL',
  zone: 'ZONE#',
  revision: 'REVISION#',
  certificate: 'CERTIFICATE',
  static: 'STATIC',
} as const;

/** Sort-key prefixes of the CONTROL partition. */
export const ControlKind = { status: 'STATUS#', override: 'OVERRIDE#', version: 'VERSION#' } as const;

/** Partition-key prefixes whose stream records trigger the evaluator (CDK filter and local poller). */
export const EVALUATOR_TRIGGER_PREFIXES = [
  KeyPrefix.config,
  KeyPrefix.verdict,
  KeyPrefix.tick,
  KeyPrefix.control,
] as const;

/** The region and target of a verdict item's partition key (regions never contain `#`). */
export function verdictKeyParts(pk: string): { region: string; targetKey: string } | undefined {
  if (!pk.startsWith(KeyPrefix.verdict)) return undefined;
  const rest = pk.slice(KeyPrefix.verdict.length);
  const split = rest.indexOf('#');
  if (split < 1 || split === rest.length - 1) return undefined;
  return { region: rest.slice(0, split), targetKey: rest.slice(split + 1) };
}

/** What a reader of the effective config reads: CONFIG, CONTROL and their revisions (functions/shared/config-cache.ts). */
const CONFIG_READS = [
  KeyPrefix.config,
  KeyPrefix.control,
  Keys.configRevision().pk,
  Keys.controlRevision().pk,
] as const;

/** Partition keys one writer may write and read, as IAM `StringLike` patterns (`*` = any suffix). */
export interface TableAccess {
  readonly writes: readonly string[];
  readonly reads: readonly string[];
}

/**
 * Who touches which items, by partition key: the IAM `dynamodb:LeadingKeys` conditions of
 * every role are derived from these lists (infra/cdk/table-access.ts), and the IAM
 * simulation test checks every call the handlers make against them.
 */
export const TABLE_ACCESS = {
  configWriter: { writes: [KeyPrefix.config, Keys.configRevision().pk], reads: [KeyPrefix.config] },
  /** A probe region: its own verdicts and heartbeat only. */
  probe: (region: string): TableAccess => {
    const own = [`${KeyPrefix.verdict}${region}#*`, `${KeyPrefix.region}${region}`];
    return { writes: own, reads: [...CONFIG_READS, ...own] };
  },
  /**
   * The probe tick reads the config (and the runtime controls) to plan the minute's rounds,
   * and its own region's shard capacities to size it.
   */
  probeTick: (region: string): TableAccess => ({
    writes: [],
    reads: [...CONFIG_READS, `${KeyPrefix.region}${region}`],
  }),
  /**
   * The stream-triggered evaluator: statuses, their outbox, history and zone reconciles out;
   * config, controls, verdicts, heartbeats in.
   */
  evaluator: {
    writes: [
      KeyPrefix.status,
      KeyPrefix.outbox,
      `${KeyPrefix.history}*`,
      `${KeyPrefix.zone}*`,
      KeyPrefix.static,
    ],
    reads: [
      KeyPrefix.static,
      KeyPrefix.config,
      KeyPrefix.control,
      `${KeyPrefix.verdict}*`,
      `${KeyPrefix.region}*`,
      KeyPrefix.status,
      KeyPrefix.outbox,
    ],
  },
  /**
   * The evaluator tick: heartbeats, statuses (for the health gauges) and whether outbox items
   * wait in; the TICK items (regions, outbox trigger, reconcile request) out; it deletes the
   * monitor overrides that have expired (CONTROL); it writes a certificate warning (CERTIFICATE)
   * with its event (OUTBOX) in one transaction.
   */
  evaluatorTick: {
    writes: [
      KeyPrefix.tick,
      KeyPrefix.control,
      Keys.controlRevision().pk,
      KeyPrefix.outbox,
      KeyPrefix.certificate,
    ],
    reads: [
      KeyPrefix.config,
      KeyPrefix.control,
      `${KeyPrefix.region}*`,
      KeyPrefix.tick,
      KeyPrefix.status,
      KeyPrefix.outbox,
      KeyPrefix.certificate,
      KeyPrefix.static,
    ],
  },
  /**
   * An operator running `tm` (no role of ours: the operator's own credentials need this):
   * runtime controls out; config, controls, statuses, zone reconciles and history in.
   */
  operator: {
    writes: [KeyPrefix.control, Keys.controlRevision().pk],
    reads: [
      KeyPrefix.config,
      KeyPrefix.control,
      KeyPrefix.status,
      `${KeyPrefix.zone}*`,
      `${KeyPrefix.history}*`,
    ],
  },
} as const satisfies Record<string, TableAccess | ((region: string) => TableAccess)>;

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
