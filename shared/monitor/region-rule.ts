/**
 * The per-region rule (SPEC §3): turns one region's series of checks of one probe
 * target into that region's verdict. Pure; the state is small and serializable so a
 * replaced worker continues where the last one stopped (see HeartbeatItem.checkpoint).
 */
import type { HealthRule } from '../profile/types.js';
import { RegionVerdict } from '../status/vocabulary.js';

export type RuleState =
  | {
      readonly kind: 'consecutiveFailures';
      /** Consecutive failed checks since the last success. */
      readonly failures: number;
      /** `undefined` until the rule has decided once (first success, or tolerated+1 failures). */
      readonly verdict: RegionVerdict | undefined;
      /** Consecutive successes while down, short of `requiredSuccessesToRecover`; absent when none. */
      readonly successes?: number;
    }
  | {
      readonly kind: 'sampleWindow';
      /** The last `sampleSize` outcomes, oldest first: '1' success, '0' failure. */
      readonly samples: string;
      readonly verdict: RegionVerdict | undefined;
      /** Consecutive successes while down, short of `requiredSuccessesToRecover`; absent when none. */
      readonly successes?: number;
    };

export function initialRuleState(rule: HealthRule): RuleState {
  return rule.kind === 'consecutiveFailures'
    ? { kind: 'consecutiveFailures', failures: 0, verdict: undefined }
    : { kind: 'sampleWindow', samples: '', verdict: undefined };
}

/**
 * Applies one check outcome.
 * - consecutive failures: a success → up and the count resets; the count becoming
 *   greater than `tolerated` → down (tolerated 0: the first failure).
 * - sample window: once `sampleSize` checks are in (or earlier, as soon as the outcome
 *   can no longer change), up iff at least `successfulSamplesRequired` of the last
 *   `sampleSize` checks succeeded.
 * - either rule: a region that says down says up again only once the last
 *   `requiredSuccesses` checks all succeeded (1, the default, is Azure's rule). An
 *   undecided region still decides up on its first success.
 */
export function applyCheck(
  rule: HealthRule,
  tolerated: number,
  state: RuleState,
  ok: boolean,
  requiredSuccesses = 1,
) {
  const base =
    rule.kind === 'consecutiveFailures'
      ? consecutiveFailures(tolerated, state, ok)
      : sampleWindow(rule, state, ok);
  const previous = state.verdict;
  const successes = ok ? (state.successes ?? 0) + 1 : 0;
  const held =
    previous === RegionVerdict.Down && base.verdict === RegionVerdict.Up && successes < requiredSuccesses;
  const verdict = held ? previous : base.verdict;
  const recovered = previous === RegionVerdict.Down && verdict === RegionVerdict.Up && requiredSuccesses > 1;
  const detail = held
    ? `${successes} of ${requiredSuccesses} successes needed to recover`
    : recovered
      ? `${requiredSuccesses} consecutive successes (${requiredSuccesses} needed to recover)`
      : base.detail;
  const counting =
    previous === RegionVerdict.Down &&
    verdict === RegionVerdict.Down &&
    successes > 0 &&
    requiredSuccesses > 1;
  const next: RuleState = { ...base.state, verdict, ...(counting ? { successes } : {}) };
  return {
    state: next,
    /** The verdict after this check; `undefined` while not yet decided. */
    verdict,
    /** True when `verdict` differs from the verdict before this check. */
    changed: verdict !== previous,
    /**
     * True when a down verdict holds but its detail moved on: a success short of
     * `requiredSuccessesToRecover` (the detail says how far recovery has come), or a failure
     * that ends such a run. The store should see it although the verdict did not change.
     */
    progressed: held || (previous === RegionVerdict.Down && !ok && (state.successes ?? 0) > 0),
    /** e.g. "4 consecutive failures (tolerated 3)", "1 of last 4 checks succeeded (2 required)", "2 of 3 successes needed to recover". */
    detail,
  };
}

interface BaseDecision {
  readonly state: RuleState;
  readonly verdict: RegionVerdict | undefined;
  readonly detail: string;
}

function consecutiveFailures(tolerated: number, state: RuleState, ok: boolean): BaseDecision {
  const previousFailures = state.kind === 'consecutiveFailures' ? state.failures : 0;
  const failures = ok ? 0 : previousFailures + 1;
  const verdict: RegionVerdict | undefined = ok
    ? RegionVerdict.Up
    : failures > tolerated
      ? RegionVerdict.Down
      : state.verdict;
  const detail = ok
    ? 'check succeeded'
    : `${failures} consecutive ${failures === 1 ? 'failure' : 'failures'} (tolerated ${tolerated})`;
  return { state: { kind: 'consecutiveFailures', failures, verdict }, verdict, detail };
}

function sampleWindow(
  rule: Extract<HealthRule, { kind: 'sampleWindow' }>,
  state: RuleState,
  ok: boolean,
): BaseDecision {
  const previousSamples = state.kind === 'sampleWindow' ? state.samples : '';
  const samples = (previousSamples + (ok ? '1' : '0')).slice(-rule.sampleSize);
  const successes = [...samples].filter((s) => s === '1').length;
  const remaining = rule.sampleSize - samples.length;
  let verdict = state.verdict;
  if (successes >= rule.successfulSamplesRequired) verdict = RegionVerdict.Up;
  else if (successes + remaining < rule.successfulSamplesRequired) verdict = RegionVerdict.Down;
  const detail = `${successes} of last ${samples.length} checks succeeded (${rule.successfulSamplesRequired} of ${rule.sampleSize} required)`;
  return { state: { kind: 'sampleWindow', samples, verdict }, verdict, detail };
}
