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
import type { TransitionRecord } from '../evaluation/transitions.js';

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

/**
 * A DynamoDB item action, as IAM names it. A transaction's Put, Update, Delete and Get are
 * authorized as PutItem, UpdateItem, DeleteItem and GetItem.
 */
export type ItemAction =
  'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'BatchWriteItem';

/**
 * Partition keys one writer may write and read, as IAM `StringLike` patterns (`*` = any suffix),
 * and the item actions its handlers send: no role holds an action it never uses.
 */
export interface TableAccess {
  readonly writes: readonly string[];
  readonly reads: readonly string[];
  readonly actions: readonly ItemAction[];
}

/**
 * Who touches which items, by partition key: the IAM `dynamodb:LeadingKeys` conditions of
 * every role are derived from these lists (infra/cdk/table-access.ts), and the IAM
 * simulation test checks every call the handlers make against them.
 */
export const TABLE_ACCESS = {
  configWriter: {
    writes: [KeyPrefix.config, Keys.configRevision().pk],
    reads: [KeyPrefix.config],
    actions: ['Query', 'PutItem', 'DeleteItem', 'UpdateItem'],
  },
  /** A probe region: its own verdicts and heartbeat only. */
  probe: (region: string): TableAccess => {
    const own = [`${KeyPrefix.verdict}${region}#*`, `${KeyPrefix.region}${region}`];
    return { writes: own, reads: [...CONFIG_READS, ...own], actions: ['BatchGetItem', 'Query', 'PutItem'] };
  },
  /**
   * The probe tick reads the config (and the runtime controls) to plan the minute's rounds,
   * and its own region's shard capacities to size it.
   */
  probeTick: (region: string): TableAccess => ({
    writes: [],
    reads: [...CONFIG_READS, `${KeyPrefix.region}${region}`],
    actions: ['BatchGetItem', 'Query'],
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
    actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'DeleteItem', 'BatchWriteItem'],
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
    actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'DeleteItem', 'UpdateItem'],
  },
} as const satisfies Record<string, TableAccess | ((region: string) => TableAccess)>;
