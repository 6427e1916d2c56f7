/**
 * One probe region's worker: runs rounds, sends each planned request once per round it is
 * due in, lets every judge due in that round judge the result by its own settings, keeps
 * each judge's rule state in memory, and writes only what the evaluator needs
 * (docs/adr/0002-table-layout.md):
 * - a VerdictItem when the region's verdict of a judge changes (also the first
 *   decision), in the same round, as soon as the deciding check ends — and, for a judge
 *   with `requiredSuccessesToRecover`, on each success of a down region short of it (the
 *   same verdict and `since`, the progress in its detail);
 * - the shard's HeartbeatItem once per heartbeat period, or earlier when the
 *   checkpoint (rule states the verdict alone cannot restore) changed, so that a
 *   replaced worker continues the counts exactly; it carries the period's latencies as a
 *   histogram for ProbeLatency (shared/monitor/latency-histogram.ts) and stays within a
 *   write unit or two whatever the number of targets;
 * - every SUMMARY_EVERY_PERIODS heartbeat periods, each judge's checks of its last period
 *   (shared/monitor/check-summary.ts) for `tm status`, positional over the shard's judge
 *   list (written when that list changes);
 * - the certificate each HTTPS judge last saw (shared/monitor/certificate-summary.ts) at the
 *   end of a round in which one changed (first seen, renewed, dropped).
 * A failed write is kept and retried at the start of the next round; a restarted worker
 * restores its rule states from the table before its first round.
 */
import type { Clock } from '../../shared/clock.js';
import {
  cappedRuleState,
  needsCheckpoint,
  restoreRuleState,
  toCheckpoint,
} from '../../shared/monitor/checkpoint.js';
import { applyCheck, initialRuleState, type RuleState } from '../../shared/monitor/region-rule.js';
import {
  addCheck,
  toStoredSummary,
  type PeriodChecks,
  type StoredCheckSummary,
} from '../../shared/monitor/check-summary.js';
import { judgeListVersion, toColumns } from '../../shared/monitor/check-summary-columns.js';
import { periodHistogram } from '../../shared/monitor/latency-histogram.js';
import {
  fitCertificates,
  sameCertificate,
  toStoredCertificate,
  type StoredCertificate,
} from '../../shared/monitor/certificate-summary.js';
import { countsAfterEnable } from '../../shared/status/reenabled.js';
import {
  dueJudgesOf,
  FAST_INTERVAL_MS,
  inStartOrder,
  roundPeriodMsOf,
  spreadWindowMs,
  startDelayMs,
  type SpreadPolicy,
} from '../../shared/probe/round-schedule.js';
import { judgedTimeout, judgeObservation } from '../../shared/probe/judge.js';
import type { ProbeObservation, ProbeResult } from '../../shared/probe/result.js';
import type { PlannedJudge, PlannedProbe, Prober } from '../../shared/probe/target.js';
import type { HeartbeatItem, RuleStateCheckpoint, VerdictItem } from '../../shared/state/items.js';
import type { RegionVerdict } from '../../shared/status/vocabulary.js';
import { isInShard } from '../../shared/probe/shards.js';
import { claimsOf, holderOf, releasedCheckpoint } from '../../shared/probe/checkpoint-claims.js';
import type { ProbeStateStore } from './state-store.js';
import { concurrencyLimit } from '../shared/concurrency.js';

/** The heartbeat period (before the time scale): staleness is judged against it (shared/monitor/staleness.ts). */
export const DEFAULT_HEARTBEAT_PERIOD_MS = 60_000;
/**
 * Probes in flight at once. A round of 10,000 targets with 10% black-holed (9 s timeout)
 * spread over a 10 s interval holds ~900 hanging probes at its end, so the local default
 * leaves room beside them; on Lambda the process has 1,024 file descriptors, so the
 * handler uses less (LAMBDA_PROBE_CONCURRENCY in handler.ts).
 */
export const DEFAULT_CONCURRENCY = 2_000;
/**
 * A heartbeat item is limited to 400 KB; a checkpoint entry is ~100 bytes (a 45-character
 * key, the count and the run's start). Beyond this many non-clean targets (a network-wide
 * outage) the rest restore from their verdict alone.
 */
export const MAX_CHECKPOINT_ENTRIES = 3_000;
/**
 * JSON bytes a heartbeat's checkpoint, a certificates item's certificates or a judge list's
 * keys may take: DynamoDB's 400 KB item limit, less room for the rest of the item (the stored
 * encoding is compressed, never larger). A judge list holds some 6,000 keys; judges beyond it
 * (a shard far above its planned size) have no check summary and show their verdict's check.
 */
export const ITEM_BUDGET_BYTES = 350_000;
/**
 * The check summaries are written every this many heartbeat periods (5 min at 60 s): about
 * 4 bytes per judge compressed, ~9 write units for a full shard of 2,000 judges, against 1 for
 * the heartbeat — written every period they would cost ~0.3 write units per target-hour.
 */
export const SUMMARY_EVERY_PERIODS = 5;

export interface VerdictChange {
  readonly probe: PlannedProbe;
  readonly judge: PlannedJudge;
  readonly region: string;
  readonly verdict: RegionVerdict;
  readonly previous: RegionVerdict | undefined;
  readonly detail: string;
  /** Start of the first check of the run that led to this verdict (VerdictItem.runStartedAt). */
  readonly runStartedAt: number;
  readonly result: ProbeResult;
}

export interface RoundReport {
  readonly dueAt: number;
  readonly startedAt: number;
  readonly finishedAt: number;
  /** Requests sent in this round (one per due probe, however many judges it served). */
  readonly probed: number;
  /** Checks judged in this round (one per due judge). */
  readonly judged: number;
  /** Due checks skipped because the judge's previous check had not ended yet. */
  readonly skipped: number;
  /** How late the latest probe started against its own due time (its round's due time + its place in the spread), ms. */
  readonly latestStartMs: number;
  /** The window the round's probes were spread over (their own due times: spreadWindowMs), ms. */
  readonly windowMs: number;
  readonly changes: readonly VerdictChange[];
  /** Verdict items written (including retried ones), and whether the heartbeat was. */
  readonly verdictWrites: number;
  readonly heartbeatWritten: boolean;
  /** Writes that failed and wait for the next round. */
  readonly pendingWrites: number;
  /** The round did not probe because the restore from the table failed (retried next round). */
  readonly restoreFailed: boolean;
}

export interface WorkerLogger {
  warn(message: string, fields: Record<string, unknown>): void;
}

export interface ProbeWorkerOptions {
  readonly region: string;
  /** The shard of the region this worker is (docs/adr/0001-probe-cadence.md, "Sharded regions"). @default 0 */
  readonly shard?: number;
  readonly store: ProbeStateStore;
  readonly prober: Prober;
  readonly clock: Clock;
  /** Multiplies intervals, offsets, timeouts and the heartbeat period (the local stack's `--time-scale`). @default 1 */
  readonly timeScale?: number;
  /** @default DEFAULT_HEARTBEAT_PERIOD_MS (60 s) */
  readonly heartbeatPeriodMs?: number;
  /** @default DEFAULT_CONCURRENCY */
  readonly concurrency?: number;
  /** @default { kind: 'interval' } */
  readonly spread?: SpreadPolicy;
  /** @default setTimeout */
  readonly sleep?: (ms: number) => Promise<void>;
  /** @default MAX_CHECKPOINT_ENTRIES */
  readonly maxCheckpointEntries?: number;
  readonly onVerdictChange?: (change: VerdictChange) => void;
  /** @default console */
  readonly logger?: WorkerLogger;
}

export interface ProbeWorker {
  readonly region: string;
  readonly shard: number;
  /**
   * The plan for this region (unscaled; the worker applies the time scale), of which the
   * worker keeps the probes its shard claims among `shards` (default 1: all). Keeps the
   * states of judges that remain; judges it gains restore from the heartbeat of the shard
   * that claimed them last.
   */
  setTargets(probes: readonly PlannedProbe[], shards?: number): void;
  /**
   * Drops the in-memory rule states, so the next round restores them from the table: for a
   * worker that did not run the previous round (another shard may have counted its checks).
   */
  forgetStates(): void;
  /** The scaled probes the worker sends. */
  targets(): readonly PlannedProbe[];
  /** The scaled round period: the shortest interval among the probes (10 s × scale when there are none). */
  roundPeriodMs(): number;
  /**
   * Runs the round due at `dueAt` (epoch ms on the round grid); resolves when its checks and
   * writes are done. `startSpanMs`: how long starting its probes is expected to take (the
   * compact spread is never shorter: spreadWindowMs).
   */
  runRound(dueAt: number, roundPeriodMs?: number, startSpanMs?: number): Promise<RoundReport>;
  /** The current in-memory rule state of a judge, by verdict key (tests, `tm status` detail). */
  ruleState(verdictKey: string): RuleState | undefined;
  pendingWrites(): number;
}

export function createProbeWorker(options: ProbeWorkerOptions): ProbeWorker {
  const { region, store, prober, clock } = options;
  const shard = options.shard ?? 0;
  let shards = 1;
  const scale = options.timeScale ?? 1;
  const heartbeatPeriodMs = (options.heartbeatPeriodMs ?? DEFAULT_HEARTBEAT_PERIOD_MS) * scale;
  const spread = options.spread ?? { kind: 'interval' };
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const maxCheckpointEntries = options.maxCheckpointEntries ?? MAX_CHECKPOINT_ENTRIES;
  const logger = options.logger ?? console;
  const limit = concurrencyLimit(options.concurrency ?? DEFAULT_CONCURRENCY);

  let planned: PlannedProbe[] = [];
  let judges: PlannedJudge[] = [];
  /** The request key of each judge this worker holds, by verdict key. */
  let requestOf = new Map<string, string>();
  const states = new Map<string, RuleState>();
  /** Per judge: the outcome of the current run of like checks and when its first check started. */
  const runs = new Map<string, { readonly ok: boolean; readonly startedAt: number }>();
  /** Judges whose current check has not been judged yet (by verdict key). */
  const inFlight = new Set<string>();
  const pendingVerdicts = new Map<string, VerdictItem>();
  /** Per judge: `checkedAt` of the verdict the store holds from this region (restored or written). */
  const decidedAt = new Map<string, number>();
  /** Per judge: the verdict item last restored or written (a recovery's progress rewrites it). */
  const storedVerdicts = new Map<string, VerdictItem>();
  /** Per judge: its checks since the last heartbeat, and the summary the last heartbeat carried. */
  const periodChecks = new Map<string, PeriodChecks>();
  const summaries = new Map<string, StoredCheckSummary>();
  /** Per HTTPS judge: the certificate its last check saw (restored from the heartbeat). */
  const certificates = new Map<string, StoredCertificate>();
  /** Certificate changes seen, and how many of them the last heartbeat written carried. */
  let certificateChanges = 0;
  let certificateChangesWritten = 0;
  let lastHeartbeatDueAt: number | undefined;
  let lastSummaryDueAt: number | undefined;
  /** The version of the judge list last written (a new worker writes its own once). */
  let judgeListWritten: string | undefined;
  let lastCheckpointJson: string | undefined;
  /** This shard's heartbeat in the table, as far as the worker knows: the next one replaces it. */
  let lastHeartbeat: HeartbeatItem | undefined;
  let heartbeatDirty = false;
  let heartbeatWriting = false;
  /** Some judge may lack an in-memory state (set by setTargets and forgetStates, cleared by a restore). */
  let restoreDue = true;

  /** `planned` in start order for a round period (sorted once per plan and period). */
  let startOrder: { readonly periodMs: number; readonly probes: readonly PlannedProbe[] } | undefined;

  /** The probes due in the round due at `dueAt`, in start order, each with its due judges. */
  function dueInRound(
    dueAt: number,
    roundPeriodMs: number,
  ): { probes: PlannedProbe[]; judges: (readonly PlannedJudge[])[]; longestTimeoutMs: number } {
    if (startOrder?.periodMs !== roundPeriodMs)
      startOrder = { periodMs: roundPeriodMs, probes: inStartOrder(planned, roundPeriodMs) };
    const probes: PlannedProbe[] = [];
    const judges: (readonly PlannedJudge[])[] = [];
    let longestTimeoutMs = 0;
    for (const probe of startOrder.probes) {
      const due = dueJudgesOf(probe, dueAt, roundPeriodMs);
      if (due.length === 0) continue;
      probes.push(probe);
      judges.push(due);
      for (const judge of due) longestTimeoutMs = Math.max(longestTimeoutMs, judge.timeoutMs);
    }
    return { probes, judges, longestTimeoutMs };
  }

  function scaled(probe: PlannedProbe): PlannedProbe {
    if (scale === 1) return probe;
    return {
      ...probe,
      intervalMs: probe.intervalMs * scale,
      offsetMs: Math.floor(probe.offsetMs * scale),
      judges: probe.judges.map((judge) => ({
        ...judge,
        intervalMs: judge.intervalMs * scale,
        timeoutMs: Math.max(1, Math.round(judge.timeoutMs * scale)),
        ...(judge.maxLatencyMs === undefined
          ? {}
          : { maxLatencyMs: Math.max(1, Math.round(judge.maxLatencyMs * scale)) }),
      })),
    };
  }

  /**
   * Judges without an in-memory state (a new worker, a config change, a reshard) restore from
   * their verdict and from the checkpoint of the latest heartbeat whose shard claimed their
   * request when it was written — the one that counted their last checks, so nothing is lost
   * and nothing counted twice when requests move between shards.
   */
  async function restoreMissingStates(): Promise<void> {
    if (!restoreDue) return;
    const missing = planned.flatMap((probe) =>
      probe.judges.filter((j) => !states.has(j.key)).map((judge) => ({ judge, request: probe.key })),
    );
    if (missing.length === 0) {
      restoreDue = false;
      return;
    }
    const [heartbeats, stored, certificateItems] = await Promise.all([
      store.loadHeartbeats(region),
      store.loadVerdicts(
        region,
        missing.map(({ judge }) => judge.key),
      ),
      store.loadCertificates(region),
    ]);
    const verdicts = new Map(stored.map((item) => [item.targetKey, item]));
    const claims = claimsOf(heartbeats);
    // A new container's first heartbeat replaces the one its shard wrote before.
    lastHeartbeat ??= heartbeats.find((h) => (h.shard ?? 0) === shard);
    // Certificates by verdict key, whichever shard saw them (newest item first; a heartbeat of
    // an earlier version carried them itself).
    const seen = [...certificateItems, ...heartbeats]
      .sort((a, b) => b.at - a.at)
      .map((item) => item.certificates ?? {});
    const own = certificateItems.find((item) => (item.shard ?? 0) === shard)?.certificates ?? {};
    for (const { judge, request } of missing) {
      const holder = holderOf(claims, request);
      const checkpoint = holder?.checkpoint[judge.key];
      const certificate = seen.find((c) => c[judge.key] !== undefined)?.[judge.key];
      if (certificate !== undefined) {
        certificates.set(judge.key, certificate);
        // Not in this shard's own item yet (moved here, or from an older heartbeat): write it.
        if (!sameCertificate(own[judge.key], certificate)) certificateChanges++;
      }
      const verdict = verdicts.get(judge.key);
      // Nothing judged before the judge's endpoints were (re-)enabled carries over: start afresh.
      const stale =
        (verdict !== undefined && !countsAfterEnable(verdict, judge.freshAfter)) ||
        (holder !== undefined &&
          checkpoint !== undefined &&
          !countsAfterEnable({ checkedAt: holder.at }, judge.freshAfter));
      if (verdict !== undefined && !stale) {
        decidedAt.set(judge.key, verdict.checkedAt);
        storedVerdicts.set(judge.key, verdict);
      }
      if (!stale && checkpoint?.kind === 'consecutiveFailures' && checkpoint.runStartedAt !== undefined)
        runs.set(judge.key, { ok: false, startedAt: checkpoint.runStartedAt });
      states.set(
        judge.key,
        stale
          ? initialRuleState(judge.healthRule)
          : restoreRuleState(judge.healthRule, judge.toleratedNumberOfFailures, verdict, checkpoint),
      );
    }
    restoreDue = false;
  }

  async function writeVerdict(item: VerdictItem): Promise<boolean> {
    try {
      const outcome = await store.putVerdict(item);
      if (pendingVerdicts.get(item.targetKey) === item) pendingVerdicts.delete(item.targetKey);
      if (outcome === 'superseded')
        logger.warn('verdict write superseded by a newer one', { key: item.targetKey, region });
      return outcome === 'written';
    } catch (error) {
      // Keep the latest change only: an older pending one is superseded by it.
      const pending = pendingVerdicts.get(item.targetKey);
      if (pending === undefined || pending.checkedAt <= item.checkedAt)
        pendingVerdicts.set(item.targetKey, item);
      logger.warn('verdict write failed; retrying next round', {
        key: item.targetKey,
        region,
        error: String(error),
      });
      return false;
    }
  }

  /** Applies one judged check to its judge's rule; returns the verdict item to write when it changed. */
  function judged(
    probe: PlannedProbe,
    judge: PlannedJudge,
    result: ProbeResult,
    changes: VerdictChange[],
  ): VerdictItem | undefined {
    // A check that ends after its request moved to another shard (or left the plan) is not
    // this worker's to count: the new holder counts from the checkpoint.
    if (!requestOf.has(judge.key)) return undefined;
    periodChecks.set(judge.key, addCheck(periodChecks.get(judge.key), result));
    if (result.certificate !== undefined) {
      const certificate = toStoredCertificate(result.certificate);
      if (!sameCertificate(certificates.get(judge.key), certificate)) {
        certificates.set(judge.key, certificate);
        certificateChanges++;
      }
    }
    const known = states.get(judge.key) ?? initialRuleState(judge.healthRule);
    // A verdict decided before the judge's endpoints were (re-)enabled does not count for them:
    // forget it, so this region's next decision is a change and gets written, after that moment.
    const before = countsAfterEnable({ checkedAt: decidedAt.get(judge.key) ?? -Infinity }, judge.freshAfter)
      ? known
      : { ...known, verdict: undefined };
    const decision = applyCheck(
      judge.healthRule,
      judge.toleratedNumberOfFailures,
      before,
      result.ok,
      judge.requiredSuccessesToRecover,
    );
    states.set(judge.key, cappedRuleState(decision.state, judge.toleratedNumberOfFailures));
    const run = runs.get(judge.key);
    const runStartedAt = run?.ok === result.ok ? run.startedAt : result.startedAt;
    if (run?.ok !== result.ok) runs.set(judge.key, { ok: result.ok, startedAt: runStartedAt });
    const stored = storedVerdicts.get(judge.key);
    if (decision.progressed && stored !== undefined) {
      // Still down: the same verdict since the same check, with how far recovery has come.
      const progress: VerdictItem = {
        ...stored,
        checkedAt: result.startedAt,
        ...(result.ok ? {} : { reason: result.reason }),
        detail: result.ok ? decision.detail : `${decision.detail}: ${result.detail}`,
      };
      decidedAt.set(judge.key, progress.checkedAt);
      storedVerdicts.set(judge.key, progress);
      return progress;
    }
    if (!decision.changed || decision.verdict === undefined) return undefined;
    const item: VerdictItem = {
      targetKey: judge.key,
      region,
      verdict: decision.verdict,
      since: result.startedAt,
      checkedAt: result.startedAt,
      runStartedAt,
      ...(result.latencyMs === undefined ? {} : { latencyMs: Math.round(result.latencyMs * 1000) / 1000 }),
      ...(result.ok ? {} : { reason: result.reason }),
      detail: result.ok ? decision.detail : `${decision.detail}: ${result.detail}`,
    };
    const change: VerdictChange = {
      probe,
      judge,
      region,
      verdict: decision.verdict,
      previous: before.verdict,
      detail: item.detail,
      runStartedAt,
      result,
    };
    changes.push(change);
    options.onVerdictChange?.(change);
    decidedAt.set(judge.key, item.checkedAt);
    storedVerdicts.set(judge.key, item);
    return item;
  }

  /**
   * Sends the request once, with the longest timeout among the due judges, and lets each
   * judge judge it by its own settings. A judge with a shorter timeout is judged at its own
   * deadline when the probe is still running then, so its checks never overlap its next one.
   * Resolves with the verdict items written. How late the request was sent (when the
   * concurrency limit let it) against `dueStartAt` raises the round's `latestStartMs`.
   */
  async function check(
    probe: PlannedProbe,
    due: readonly PlannedJudge[],
    changes: VerdictChange[],
    dueStartAt: number,
    round: { latestStartMs: number },
  ): Promise<number> {
    if (due.length === 1) return checkOne(probe, due[0]!, changes, dueStartAt, round);
    for (const judge of due) inFlight.add(judge.key);
    let timeoutMs = 0;
    for (const judge of due) timeoutMs = Math.max(timeoutMs, judge.timeoutMs);
    let startedAt = 0;
    let markStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const observation = limit(() => {
      startedAt = clock.now();
      round.latestStartMs = Math.max(round.latestStartMs, startedAt - dueStartAt);
      markStarted();
      return prober(probe, timeoutMs);
    });
    const written = await Promise.all(
      due.map(async (judge) => {
        let item: VerdictItem | undefined;
        try {
          let result: ProbeResult;
          if (judge.timeoutMs < timeoutMs) {
            await started;
            const early = await beforeOwnDeadline(observation, judge);
            result =
              early === undefined
                ? judgedTimeout(startedAt, judge.timeoutMs)
                : judgeObservation(early, judge);
          } else {
            result = judgeObservation(await observation, judge);
          }
          item = judged(probe, judge, result, changes);
        } finally {
          // The check has ended once the rule has it; a slow verdict write must not hold the next check.
          inFlight.delete(judge.key);
        }
        return item !== undefined && (await writeVerdict(item));
      }),
    );
    return written.filter(Boolean).length;
  }

  /** `check` for a request that one judge is due on (the common case): no deadline of its own to race. */
  async function checkOne(
    probe: PlannedProbe,
    judge: PlannedJudge,
    changes: VerdictChange[],
    dueStartAt: number,
    round: { latestStartMs: number },
  ): Promise<number> {
    inFlight.add(judge.key);
    let item: VerdictItem | undefined;
    try {
      const observation = await limit(() => {
        round.latestStartMs = Math.max(round.latestStartMs, clock.now() - dueStartAt);
        return prober(probe, judge.timeoutMs);
      });
      item = judged(probe, judge, judgeObservation(observation, judge), changes);
    } finally {
      inFlight.delete(judge.key);
    }
    return item !== undefined && (await writeVerdict(item)) ? 1 : 0;
  }

  function checkpointNow(): Record<string, RuleStateCheckpoint> {
    const checkpoint: Record<string, RuleStateCheckpoint> = {};
    let entries = 0;
    for (const judge of judges) {
      const state = states.get(judge.key);
      if (state === undefined || !needsCheckpoint(judge.healthRule, judge.toleratedNumberOfFailures, state))
        continue;
      if (entries++ >= maxCheckpointEntries) break;
      const run = runs.get(judge.key);
      checkpoint[judge.key] = toCheckpoint(state, run?.ok === false ? run.startedAt : undefined);
    }
    return checkpoint;
  }

  /** The shard's judges, sorted, as many as the judge list's budget holds. */
  function judgeList(): string[] {
    let used = 0;
    return [...new Set(judges.map((j) => j.key))]
      .sort()
      .filter((key) => (used += key.length + 3) <= ITEM_BUDGET_BYTES);
  }

  /** The judge list (when it changed), then the summaries positional over it. */
  async function writeSummaries(dueAt: number, at: number): Promise<void> {
    const keys = judgeList();
    const version = judgeListVersion(keys);
    const own = shard === 0 ? {} : { shard };
    if (version !== judgeListWritten) {
      await store.putJudgeList({ region, ...own, at, version, keys });
      judgeListWritten = version;
    }
    await store.putCheckSummaries({
      region,
      ...own,
      at,
      judges: version,
      columns: toColumns(keys, summaries, at),
    });
    lastSummaryDueAt = dueAt;
  }

  async function heartbeatIfDue(dueAt: number): Promise<boolean> {
    // The checkpoint must not get ahead of a verdict that is not stored yet.
    if (heartbeatWriting || pendingVerdicts.size > 0) return false;
    const checkpoint = checkpointNow();
    const json = JSON.stringify(checkpoint);
    const periodElapsed = lastHeartbeatDueAt === undefined || dueAt - lastHeartbeatDueAt >= heartbeatPeriodMs;
    const changes = certificateChanges;
    const certificatesChanged = changes !== certificateChangesWritten;
    if (!periodElapsed && !heartbeatDirty && !certificatesChanged && json === lastCheckpointJson)
      return false;
    const period = [...periodChecks];
    for (const [key, checks] of period) summaries.set(key, toStoredSummary(checks));
    const at = clock.now();
    const summariesDue =
      summaries.size > 0 &&
      (lastSummaryDueAt === undefined ||
        dueAt - lastSummaryDueAt >= SUMMARY_EVERY_PERIODS * heartbeatPeriodMs);
    const released = releasedCheckpoint(
      lastHeartbeat,
      { shards, at, periodMs: heartbeatPeriodMs },
      (key) => requestOf.has(key),
      maxCheckpointEntries - Object.keys(checkpoint).length,
    );
    const item: HeartbeatItem = {
      region,
      ...(shards === 1 && shard === 0 ? {} : { shard, shards }),
      at,
      targets: judges.length,
      periodMs: heartbeatPeriodMs,
      checkpoint,
      ...(released === undefined ? {} : { released }),
      latencies: periodHistogram(Object.fromEntries(summaries), at, heartbeatPeriodMs),
    };
    heartbeatWriting = true;
    try {
      const [heartbeat, ...rest] = await Promise.allSettled([
        store.putHeartbeat(item).then(() => {
          // Checks judged while the write was in flight belong to the next period.
          for (const [key, checks] of period) if (periodChecks.get(key) === checks) periodChecks.delete(key);
          lastHeartbeatDueAt = dueAt;
          lastCheckpointJson = json;
          lastHeartbeat = item;
        }),
        summariesDue ? writeSummaries(dueAt, at) : undefined,
        certificatesChanged
          ? store
              .putCertificates({
                region,
                ...(shard === 0 ? {} : { shard }),
                at,
                certificates: fitCertificates(certificates, ITEM_BUDGET_BYTES),
              })
              .then(() => (certificateChangesWritten = changes))
          : undefined,
      ]);
      const failed = [heartbeat, ...rest].find((r) => r.status === 'rejected');
      heartbeatDirty = failed !== undefined;
      if (failed !== undefined)
        logger.warn('heartbeat write failed; retrying next round', { region, error: String(failed.reason) });
      return heartbeat.status === 'fulfilled';
    } finally {
      heartbeatWriting = false;
    }
  }

  const worker: ProbeWorker = {
    region,
    shard,
    setTargets(probes, shardCount = 1) {
      if (shard >= shardCount)
        throw new RangeError(`shard ${shard} is not one of ${shardCount} shards of ${region}`);
      if (shardCount !== shards) heartbeatDirty = true;
      shards = shardCount;
      planned = probes.filter((p) => isInShard(p.key, shard, shards)).map(scaled);
      startOrder = undefined;
      restoreDue = true;
      judges = planned.flatMap((p) => p.judges);
      requestOf = new Map(planned.flatMap((p) => p.judges.map((j) => [j.key, p.key])));
      const keep = requestOf;
      for (const key of states.keys()) if (!keep.has(key)) states.delete(key);
      for (const key of decidedAt.keys()) if (!keep.has(key)) decidedAt.delete(key);
      for (const key of storedVerdicts.keys()) if (!keep.has(key)) storedVerdicts.delete(key);
      for (const key of runs.keys()) if (!keep.has(key)) runs.delete(key);
      for (const key of summaries.keys()) if (!keep.has(key)) summaries.delete(key);
      for (const key of certificates.keys())
        if (!keep.has(key)) {
          certificates.delete(key);
          certificateChanges++;
        }
      for (const key of periodChecks.keys()) if (!keep.has(key)) periodChecks.delete(key);
      for (const key of pendingVerdicts.keys()) if (!keep.has(key)) pendingVerdicts.delete(key);
    },
    forgetStates() {
      restoreDue = true;
      states.clear();
      decidedAt.clear();
    },
    targets: () => planned,
    roundPeriodMs: () => roundPeriodMsOf(planned) ?? FAST_INTERVAL_MS * scale,
    ruleState: (key) => states.get(key),
    pendingWrites: () => pendingVerdicts.size + (heartbeatDirty ? 1 : 0),

    async runRound(dueAt, roundPeriodMs = worker.roundPeriodMs(), startSpanMs = 0) {
      const startedAt = clock.now();
      const changes: VerdictChange[] = [];
      const report = (fields: Partial<RoundReport>): RoundReport => ({
        dueAt,
        startedAt,
        finishedAt: clock.now(),
        probed: 0,
        judged: 0,
        skipped: 0,
        latestStartMs: 0,
        windowMs: 0,
        changes,
        verdictWrites: 0,
        heartbeatWritten: false,
        pendingWrites: worker.pendingWrites(),
        restoreFailed: false,
        ...fields,
      });
      try {
        await restoreMissingStates();
      } catch (error) {
        logger.warn('restoring rule state failed; the round is skipped', { region, error: String(error) });
        return report({ restoreFailed: true });
      }

      // A new worker announces itself before its first verdicts, so the evaluator never sees a
      // verdict from a region that has not heartbeat yet (it would count that vote as stale).
      const announced = lastHeartbeatDueAt === undefined && (await heartbeatIfDue(dueAt));
      // Writes that failed last round are retried beside the probes, not before them (a newer
      // verdict of the same judge supersedes its retry: writes are conditional).
      const retrying = Promise.all([...pendingVerdicts.values()].map(writeVerdict));
      const due = dueInRound(dueAt, roundPeriodMs);
      const windowMs = spreadWindowMs(
        spread,
        roundPeriodMs,
        due.probes.length,
        due.longestTimeoutMs,
        startSpanMs,
      );
      const counts = { probed: 0, judged: 0, skipped: 0, latestStartMs: 0 };
      const checks: Promise<number>[] = [];
      const startAt = (i: number): number => dueAt + startDelayMs(due.probes[i]!, roundPeriodMs, windowMs);
      // In start order, one wait per distinct start time: each wait ends with every probe whose start has come.
      for (let i = 0; i < due.probes.length;) {
        const wait = startAt(i) - clock.now();
        if (wait > 0) await sleep(wait);
        const now = clock.now();
        do {
          const probe = due.probes[i]!;
          const judges = due.judges[i]!;
          // Decided at the probe's own start: its previous check (one period earlier) has ended by now.
          const runnable = judges.some((j) => inFlight.has(j.key))
            ? judges.filter((j) => !inFlight.has(j.key))
            : judges;
          counts.skipped += judges.length - runnable.length;
          if (runnable.length > 0) {
            counts.probed++;
            counts.judged += runnable.length;
            checks.push(check(probe, runnable, changes, startAt(i), counts));
          }
          i++;
        } while (i < due.probes.length && startAt(i) <= now);
      }
      const written = await Promise.all(checks);
      const retried = await retrying;
      const heartbeatWritten = (await heartbeatIfDue(dueAt)) || announced;
      return report({
        ...counts,
        windowMs,
        verdictWrites: retried.filter(Boolean).length + written.reduce((sum, n) => sum + n, 0),
        heartbeatWritten,
        pendingWrites: worker.pendingWrites(),
      });
    },
  };
  return worker;
}

/**
 * The observation if it arrives before the judge's own deadline (plus a grace for event-loop
 * lag, so an answer the prober measured inside the timeout is judged by its measurement);
 * `undefined` when the deadline passed first. The grace is a quarter of the gap between the
 * judge's timeout and its interval, so the judgement always lands before its next check.
 */
async function beforeOwnDeadline(
  observation: Promise<ProbeObservation>,
  judge: PlannedJudge,
): Promise<ProbeObservation | undefined> {
  const graceMs = Math.max(0, (judge.intervalMs - judge.timeoutMs) / 4);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, judge.timeoutMs + graceMs, undefined);
  });
  try {
    return await Promise.race([observation, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
