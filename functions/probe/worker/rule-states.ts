/**
 * The rule-state keeper: each judge's rule state (shared/monitor/region-rule.ts), the run of
 * like checks it is in, and the verdict the store holds from this region. It applies a judged
 * check and says which verdict item to write (a change, also the first decision; or, for a judge
 * with `requiredSuccessesToRecover`, the progress of a down region's recovery), restores a
 * judge from its stored verdict and checkpoint, and gives the checkpoint of the states the
 * verdict alone cannot restore. No I/O.
 */
import {
  cappedRuleState,
  needsCheckpoint,
  restoreRuleState,
  toCheckpoint,
} from '../../../shared/monitor/checkpoint.js';
import { applyCheck, initialRuleState, type RuleState } from '../../../shared/monitor/region-rule.js';
import type { ProbeResult } from '../../../shared/probe/result.js';
import type { PlannedJudge, PlannedProbe } from '../../../shared/probe/target.js';
import type { RuleStateCheckpoint, VerdictItem } from '../../../shared/state/items.js';
import { countsAfterEnable } from '../../../shared/status/reenabled.js';
import type { VerdictChange } from './types.js';

/** A judged check's outcome: the verdict item to write, and the change it is (none for a recovery's progress). */
export interface Judgement {
  readonly item?: VerdictItem;
  readonly change?: VerdictChange;
}

export class RuleStates {
  private readonly states = new Map<string, RuleState>();
  /** Per judge: the outcome of the current run of like checks and when its first check started. */
  private readonly runs = new Map<string, { readonly ok: boolean; readonly startedAt: number }>();
  /** Per judge: `checkedAt` of the verdict the store holds from this region (restored or written). */
  private readonly decidedAt = new Map<string, number>();
  /** Per judge: the verdict item last restored or written (a recovery's progress rewrites it). */
  private readonly storedVerdicts = new Map<string, VerdictItem>();

  constructor(private readonly region: string) {}

  get(verdictKey: string): RuleState | undefined {
    return this.states.get(verdictKey);
  }

  has(verdictKey: string): boolean {
    return this.states.has(verdictKey);
  }

  /** Forgets the judges not in `held`. */
  retain(held: ReadonlyMap<string, unknown>): void {
    for (const map of [this.states, this.decidedAt, this.storedVerdicts, this.runs])
      for (const key of map.keys()) if (!held.has(key)) map.delete(key);
  }

  /** Drops the rule states and what this region decided, so that they restore from the table. */
  forget(): void {
    this.states.clear();
    this.decidedAt.clear();
  }

  /**
   * Restores a judge from its stored verdict and from the checkpoint of `holder`, the heartbeat
   * that claimed its request last. Nothing judged before the judge's endpoints were (re-)enabled
   * carries over: the judge starts afresh.
   */
  restore(
    judge: PlannedJudge,
    verdict: VerdictItem | undefined,
    holder: { readonly at: number } | undefined,
    checkpoint: RuleStateCheckpoint | undefined,
  ): void {
    const stale =
      (verdict !== undefined && !countsAfterEnable(verdict, judge.freshAfter)) ||
      (holder !== undefined &&
        checkpoint !== undefined &&
        !countsAfterEnable({ checkedAt: holder.at }, judge.freshAfter));
    if (verdict !== undefined && !stale) {
      this.decidedAt.set(judge.key, verdict.checkedAt);
      this.storedVerdicts.set(judge.key, verdict);
    }
    if (!stale && checkpoint?.kind === 'consecutiveFailures' && checkpoint.runStartedAt !== undefined)
      this.runs.set(judge.key, { ok: false, startedAt: checkpoint.runStartedAt });
    this.states.set(
      judge.key,
      stale
        ? initialRuleState(judge.healthRule)
        : restoreRuleState(judge.healthRule, judge.toleratedNumberOfFailures, verdict, checkpoint),
    );
  }

  /** Applies one judged check to its judge's rule. */
  apply(probe: PlannedProbe, judge: PlannedJudge, result: ProbeResult): Judgement {
    const known = this.states.get(judge.key) ?? initialRuleState(judge.healthRule);
    // A verdict decided before the judge's endpoints were (re-)enabled does not count for them:
    // forget it, so this region's next decision is a change and gets written, after that moment.
    const before = countsAfterEnable(
      { checkedAt: this.decidedAt.get(judge.key) ?? -Infinity },
      judge.freshAfter,
    )
      ? known
      : { ...known, verdict: undefined };
    const decision = applyCheck(
      judge.healthRule,
      judge.toleratedNumberOfFailures,
      before,
      result.ok,
      judge.requiredSuccessesToRecover,
    );
    this.states.set(judge.key, cappedRuleState(decision.state, judge.toleratedNumberOfFailures));
    const runStartedAt = this.runStartOf(judge.key, result);
    const detail = result.ok ? decision.detail : `${decision.detail}: ${result.detail}`;
    const stored = this.storedVerdicts.get(judge.key);
    if (decision.progressed && stored !== undefined) {
      // Still down: the same verdict since the same check, with how far recovery has come.
      const progress: VerdictItem = {
        ...stored,
        checkedAt: result.startedAt,
        ...(result.ok ? {} : { reason: result.reason }),
        detail,
      };
      return { item: this.decided(progress) };
    }
    if (!decision.changed || decision.verdict === undefined) return {};
    const item: VerdictItem = {
      targetKey: judge.key,
      region: this.region,
      verdict: decision.verdict,
      since: result.startedAt,
      checkedAt: result.startedAt,
      runStartedAt,
      ...(result.latencyMs === undefined ? {} : { latencyMs: Math.round(result.latencyMs * 1000) / 1000 }),
      ...(result.ok ? {} : { reason: result.reason }),
      detail,
    };
    const change: VerdictChange = {
      probe,
      judge,
      region: this.region,
      verdict: decision.verdict,
      previous: before.verdict,
      detail,
      runStartedAt,
      result,
    };
    return { item: this.decided(item), change };
  }

  /** The checkpoint of these judges' states that their verdict alone cannot restore, at most `maxEntries`. */
  checkpoint(judges: readonly PlannedJudge[], maxEntries: number): Record<string, RuleStateCheckpoint> {
    const checkpoint: Record<string, RuleStateCheckpoint> = {};
    let entries = 0;
    for (const judge of judges) {
      const state = this.states.get(judge.key);
      if (state === undefined || !needsCheckpoint(judge.healthRule, judge.toleratedNumberOfFailures, state))
        continue;
      if (entries++ >= maxEntries) break;
      const run = this.runs.get(judge.key);
      checkpoint[judge.key] = toCheckpoint(state, run?.ok === false ? run.startedAt : undefined);
    }
    return checkpoint;
  }

  /** The start of the run of like checks `result` belongs to (a new run when its outcome differs). */
  private runStartOf(verdictKey: string, result: ProbeResult): number {
    const run = this.runs.get(verdictKey);
    if (run?.ok === result.ok) return run.startedAt;
    this.runs.set(verdictKey, { ok: result.ok, startedAt: result.startedAt });
    return result.startedAt;
  }

  private decided(item: VerdictItem): VerdictItem {
    this.decidedAt.set(item.targetKey, item.checkedAt);
    this.storedVerdicts.set(item.targetKey, item);
    return item;
  }
}
