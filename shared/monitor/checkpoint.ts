/**
 * Restarting a probe worker must not reset a region's counts: the worker restores each
 * target's rule state from the last heartbeat's checkpoint (exact) or, for targets in a
 * clean state, from the stored verdict alone.
 */
import type { HealthRule } from '../profile/types.js';
import type { RuleStateCheckpoint, VerdictItem } from '../state/items.js';
import { RegionVerdict } from '../status/vocabulary.js';
import { initialRuleState, type RuleState } from './region-rule.js';

/**
 * The state a restarted worker continues from.
 * - A checkpoint of the rule's kind wins (its counts are exact).
 * - Else a stored 'down' verdict → the smallest state that is down (tolerated+1 failures,
 *   or a window of failures); 'up' → the clean state; no verdict → the initial state.
 * The verdict is always the stored one, so the next check's `changed` is relative to
 * what the store holds and a verdict the previous worker failed to write is written.
 */
export function restoreRuleState(
  rule: HealthRule,
  tolerated: number,
  verdict: VerdictItem | undefined,
  checkpoint: RuleStateCheckpoint | undefined,
): RuleState {
  const stored = verdict?.verdict;
  // Successes towards recovery count only while the stored verdict is down.
  const successes =
    stored === RegionVerdict.Down && checkpoint?.successes !== undefined
      ? { successes: checkpoint.successes }
      : {};
  if (checkpoint?.kind === 'consecutiveFailures' && rule.kind === 'consecutiveFailures') {
    return { kind: 'consecutiveFailures', failures: checkpoint.failures, verdict: stored, ...successes };
  }
  if (checkpoint?.kind === 'sampleWindow' && rule.kind === 'sampleWindow') {
    return {
      kind: 'sampleWindow',
      samples: checkpoint.samples.slice(-rule.sampleSize),
      verdict: stored,
      ...successes,
    };
  }
  return stateFromVerdict(rule, tolerated, stored);
}

/** The serializable part of a rule state (the verdict itself lives in the VerdictItem). */
export function toCheckpoint(state: RuleState, failingRunStartedAt?: number): RuleStateCheckpoint {
  const successes = state.successes === undefined ? {} : { successes: state.successes };
  return state.kind === 'consecutiveFailures'
    ? {
        kind: 'consecutiveFailures',
        failures: state.failures,
        ...(failingRunStartedAt === undefined ? {} : { runStartedAt: failingRunStartedAt }),
        ...successes,
      }
    : { kind: 'sampleWindow', samples: state.samples, ...successes };
}

/**
 * A target that stays down stops changing its count (every count beyond tolerated+1 behaves
 * alike: down until one success), so it stops changing the checkpoint.
 */
export function cappedRuleState(state: RuleState, tolerated: number): RuleState {
  if (state.kind !== 'consecutiveFailures' || state.failures <= tolerated + 1) return state;
  return { ...state, failures: tolerated + 1 };
}

/**
 * False when the stored verdict alone restores a state that behaves the same, so the
 * heartbeat need not carry it (clean up states, consecutive-failure down states, windows
 * entirely of successes or of failures).
 */
export function needsCheckpoint(rule: HealthRule, tolerated: number, state: RuleState): boolean {
  if (state.successes !== undefined) return true;
  const restored = stateFromVerdict(rule, tolerated, state.verdict);
  if (restored.kind === 'consecutiveFailures' && state.kind === 'consecutiveFailures') {
    return restored.failures !== Math.min(state.failures, tolerated + 1);
  }
  if (restored.kind === 'sampleWindow' && state.kind === 'sampleWindow') {
    return restored.samples !== state.samples;
  }
  return true;
}

function stateFromVerdict(
  rule: HealthRule,
  tolerated: number,
  verdict: RegionVerdict | undefined,
): RuleState {
  if (verdict === undefined) return initialRuleState(rule);
  if (rule.kind === 'consecutiveFailures') {
    return {
      kind: 'consecutiveFailures',
      failures: verdict === RegionVerdict.Down ? tolerated + 1 : 0,
      verdict,
    };
  }
  return {
    kind: 'sampleWindow',
    samples: (verdict === RegionVerdict.Down ? '0' : '1').repeat(rule.sampleSize),
    verdict,
  };
}
