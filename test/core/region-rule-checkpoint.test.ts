import { describe, expect, it } from 'vitest';
import {
  cappedRuleState,
  needsCheckpoint,
  restoreRuleState,
  toCheckpoint,
} from '../../shared/monitor/checkpoint.js';
import { applyCheck, initialRuleState, type RuleState } from '../../shared/monitor/region-rule.js';
import type { HealthRule } from '../../shared/profile/types.js';
import type { RuleStateCheckpoint, VerdictItem } from '../../shared/state/items.js';
import type { RegionVerdict } from '../../shared/status/vocabulary.js';

const consecutive: HealthRule = { kind: 'consecutiveFailures' };
const window42: HealthRule = { kind: 'sampleWindow', sampleSize: 4, successfulSamplesRequired: 2 };

function stored(value: RegionVerdict): VerdictItem {
  return {
    targetKey: 'HTTP:a:80/#0',
    region: 'us-east-1',
    verdict: value,
    since: 1,
    checkedAt: 1,
    detail: '',
  };
}

describe('restoreRuleState: a restarted worker continues the counts', () => {
  it.each([
    {
      name: 'a checkpoint wins over the verdict',
      rule: consecutive,
      verdict: stored('up'),
      checkpoint: { kind: 'consecutiveFailures', failures: 2 },
      expected: { kind: 'consecutiveFailures', failures: 2, verdict: 'up' },
    },
    {
      name: 'a stored down verdict alone restores tolerated+1 failures',
      rule: consecutive,
      verdict: stored('down'),
      checkpoint: undefined,
      expected: { kind: 'consecutiveFailures', failures: 4, verdict: 'down' },
    },
    {
      name: 'a stored up verdict alone restores the clean state',
      rule: consecutive,
      verdict: stored('up'),
      checkpoint: undefined,
      expected: { kind: 'consecutiveFailures', failures: 0, verdict: 'up' },
    },
    {
      name: 'no verdict and no checkpoint restores the initial state',
      rule: consecutive,
      verdict: undefined,
      checkpoint: undefined,
      expected: { kind: 'consecutiveFailures', failures: 0, verdict: undefined },
    },
    {
      name: 'an undecided target keeps its failures',
      rule: consecutive,
      verdict: undefined,
      checkpoint: { kind: 'consecutiveFailures', failures: 3 },
      expected: { kind: 'consecutiveFailures', failures: 3, verdict: undefined },
    },
    {
      name: 'window: a checkpoint wins (trimmed to the window)',
      rule: window42,
      verdict: stored('up'),
      checkpoint: { kind: 'sampleWindow', samples: '001101' },
      expected: { kind: 'sampleWindow', samples: '1101', verdict: 'up' },
    },
    {
      name: 'window: a stored down verdict restores a window of failures',
      rule: window42,
      verdict: stored('down'),
      checkpoint: undefined,
      expected: { kind: 'sampleWindow', samples: '0000', verdict: 'down' },
    },
    {
      name: 'window: a stored up verdict restores a window of successes',
      rule: window42,
      verdict: stored('up'),
      checkpoint: undefined,
      expected: { kind: 'sampleWindow', samples: '1111', verdict: 'up' },
    },
    {
      name: 'a checkpoint of another rule kind is ignored',
      rule: window42,
      verdict: stored('down'),
      checkpoint: { kind: 'consecutiveFailures', failures: 1 },
      expected: { kind: 'sampleWindow', samples: '0000', verdict: 'down' },
    },
  ] as {
    name: string;
    rule: HealthRule;
    verdict: VerdictItem | undefined;
    checkpoint: RuleStateCheckpoint | undefined;
    expected: RuleState;
  }[])('$name', ({ rule, verdict, checkpoint, expected }) => {
    // Act
    const state = restoreRuleState(rule, 3, verdict, checkpoint);
    // Assess
    expect(state).toEqual(expected);
  });

  it('a restarted worker reaches down on the same check as one that never stopped', () => {
    // Prepare: two failures, then the worker restarts from its checkpoint
    let state = initialRuleState(consecutive);
    for (const ok of [true, false, false]) state = applyCheck(consecutive, 3, state, ok).state;
    const restored = restoreRuleState(consecutive, 3, stored('up'), toCheckpoint(state));
    // Act
    const third = applyCheck(consecutive, 3, restored, false);
    const fourth = applyCheck(consecutive, 3, third.state, false);
    // Assess
    expect(third.verdict).toBe('up');
    expect(fourth).toMatchObject({ verdict: 'down', changed: true });
  });

  it('a verdict the previous worker failed to store is written by the next check (changed is relative to the store)', () => {
    // Prepare: the checkpoint says 5 failures, but the store still says up
    const restored = restoreRuleState(consecutive, 3, stored('up'), {
      kind: 'consecutiveFailures',
      failures: 5,
    });
    // Act
    const next = applyCheck(consecutive, 3, restored, false);
    // Assess
    expect(next).toMatchObject({ verdict: 'down', changed: true });
  });
});

describe('toCheckpoint / needsCheckpoint', () => {
  it.each([
    {
      name: 'consecutive state → its failure count',
      state: { kind: 'consecutiveFailures', failures: 2, verdict: 'up' },
      expected: { kind: 'consecutiveFailures', failures: 2 },
    },
    {
      name: 'window state → its samples',
      state: { kind: 'sampleWindow', samples: '101', verdict: undefined },
      expected: { kind: 'sampleWindow', samples: '101' },
    },
  ] as { name: string; state: RuleState; expected: RuleStateCheckpoint }[])(
    '$name',
    ({ state, expected }) => {
      expect(toCheckpoint(state)).toEqual(expected);
    },
  );

  it.each([
    {
      name: 'clean up state: the verdict alone restores it',
      rule: consecutive,
      state: { kind: 'consecutiveFailures', failures: 0, verdict: 'up' },
      needed: false,
    },
    {
      name: 'down at exactly tolerated+1: the verdict alone restores it',
      rule: consecutive,
      state: { kind: 'consecutiveFailures', failures: 4, verdict: 'down' },
      needed: false,
    },
    {
      name: 'down beyond tolerated+1 behaves like the restored state: none needed',
      rule: consecutive,
      state: { kind: 'consecutiveFailures', failures: 6, verdict: 'down' },
      needed: false,
    },
    {
      name: 'a window of failures needs none',
      rule: window42,
      state: { kind: 'sampleWindow', samples: '0000', verdict: 'down' },
      needed: false,
    },
    {
      name: 'up with failures pending needs a checkpoint',
      rule: consecutive,
      state: { kind: 'consecutiveFailures', failures: 2, verdict: 'up' },
      needed: true,
    },
    {
      name: 'undecided with failures needs a checkpoint',
      rule: consecutive,
      state: { kind: 'consecutiveFailures', failures: 1, verdict: undefined },
      needed: true,
    },
    {
      name: 'initial state needs none',
      rule: consecutive,
      state: { kind: 'consecutiveFailures', failures: 0, verdict: undefined },
      needed: false,
    },
    {
      name: 'window full of successes needs none',
      rule: window42,
      state: { kind: 'sampleWindow', samples: '1111', verdict: 'up' },
      needed: false,
    },
    {
      name: 'a mixed window needs a checkpoint',
      rule: window42,
      state: { kind: 'sampleWindow', samples: '0111', verdict: 'up' },
      needed: true,
    },
    {
      name: 'a state of another rule kind needs a checkpoint',
      rule: window42,
      state: { kind: 'consecutiveFailures', failures: 0, verdict: 'up' },
      needed: true,
    },
  ] as { name: string; rule: HealthRule; state: RuleState; needed: boolean }[])(
    '$name',
    ({ rule, state, needed }) => {
      expect(needsCheckpoint(rule, 3, state)).toBe(needed);
    },
  );
});

describe('cappedRuleState', () => {
  it.each([
    {
      name: 'a count beyond tolerated+1 is held at tolerated+1 (a target that stays down stops changing)',
      state: { kind: 'consecutiveFailures', failures: 9, verdict: 'down' },
      expected: { kind: 'consecutiveFailures', failures: 4, verdict: 'down' },
    },
    {
      name: 'a count up to tolerated+1 is kept',
      state: { kind: 'consecutiveFailures', failures: 4, verdict: 'down' },
      expected: { kind: 'consecutiveFailures', failures: 4, verdict: 'down' },
    },
    {
      name: 'a window is kept',
      state: { kind: 'sampleWindow', samples: '0000', verdict: 'down' },
      expected: { kind: 'sampleWindow', samples: '0000', verdict: 'down' },
    },
  ] as { name: string; state: RuleState; expected: RuleState }[])('$name', ({ state, expected }) => {
    expect(cappedRuleState(state, 3)).toEqual(expected);
  });
});
