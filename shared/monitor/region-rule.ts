/**
 * The per-region rule (SPEC §3): turns one region's series of checks of one probe
 * target into that region's verdict. Pure; the state is small and serializable so a
 * replaced worker continues where the last one stopped (see HeartbeatItem.checkpoint).
 */
import type { HealthRule } from '../profile/types.js';
import type { RegionVerdict } from '../status/vocabulary.js';

export type RuleState =
  | {
      readonly kind: 'consecutiveFailures';
      /** Consecutive failed checks since the last success. */
      readonly failures: number;
      /** `undefined` until the rule has decided once (first success, or tolerated+1 failures). */
      readonly verdict: RegionVerdict | undefined;
    }
  | {
      readonly kind: 'sampleWindow';
      /** The last `sampleSize` outcomes, oldest first: '1' success, '0' failure. */
      readonly samples: string;
      readonly verdict: RegionVerdict | undefined;
    };

export interface RuleDecision {
  readonly state: RuleState;
  /** The verdict after this check; `undefined` while not yet decided. */
  readonly verdict: RegionVerdict | undefined;
  /** True when `verdict` differs from the verdict before this check. */
  readonly changed: boolean;
  /** e.g. "4 consecutive failures (tolerated 3)", "1 of last 4 checks succeeded (2 required)". */
  readonly detail: string;
}

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
 */
export function applyCheck(rule: HealthRule, tolerated: number, state: RuleState, ok: boolean): RuleDecision {
  if (rule.kind === 'consecutiveFailures') {
    const previous =
      state.kind === 'consecutiveFailures'
        ? state
        : { kind: 'consecutiveFailures' as const, failures: 0, verdict: state.verdict };
    const failures = ok ? 0 : previous.failures + 1;
    const verdict: RegionVerdict | undefined = ok ? 'up' : failures > tolerated ? 'down' : previous.verdict;
    const detail = ok
      ? 'check succeeded'
      : `${failures} consecutive ${failures === 1 ? 'failure' : 'failures'} (tolerated ${tolerated})`;
    return {
      state: { kind: 'consecutiveFailures', failures, verdict },
      verdict,
      changed: verdict !== previous.verdict,
      detail,
    };
  }
  const previous =
    state.kind === 'sampleWindow'
      ? state
      : { kind: 'sampleWindow' as const, samples: '', verdict: state.verdict };
  const samples = (previous.samples + (ok ? '1' : '0')).slice(-rule.sampleSize);
  const successes = [...samples].filter((s) => s === '1').length;
  const remaining = rule.sampleSize - samples.length;
  let verdict = previous.verdict;
  if (successes >= rule.successfulSamplesRequired) verdict = 'up';
  else if (successes + remaining < rule.successfulSamplesRequired) verdict = 'down';
  const detail = `${successes} of last ${samples.length} checks succeeded (${rule.successfulSamplesRequired} of ${rule.sampleSize} required)`;
  return {
    state: { kind: 'sampleWindow', samples, verdict },
    verdict,
    changed: verdict !== previous.verdict,
    detail,
  };
}
