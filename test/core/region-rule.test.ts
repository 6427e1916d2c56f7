import { describe, expect, it } from 'vitest';
import type { HealthRule } from '../../shared/profile/types.js';
import { applyCheck, initialRuleState, type RuleState } from '../../shared/monitor/region-rule.js';
import type { RegionVerdict } from '../../shared/status/vocabulary.js';

const consecutive: HealthRule = { kind: 'consecutiveFailures' };
const window42: HealthRule = { kind: 'sampleWindow', sampleSize: 4, successfulSamplesRequired: 2 };

/** Runs a series of outcomes ('1' success, '0' failure) and returns the verdict after each check. */
function verdicts(
  rule: HealthRule,
  tolerated: number,
  outcomes: string,
  from?: RuleState,
): (RegionVerdict | undefined)[] {
  let state = from ?? initialRuleState(rule);
  return [...outcomes].map((o) => {
    const decision = applyCheck(rule, tolerated, state, o === '1');
    state = decision.state;
    return decision.verdict;
  });
}

describe('consecutive failures (SPEC §3)', () => {
  it.each([
    {
      name: 'tolerated 3: down exactly on the 4th consecutive failure',
      tolerated: 3,
      outcomes: '10000',
      expected: ['up', 'up', 'up', 'up', 'down'],
    },
    {
      name: 'tolerated 0: a single failed check marks it down',
      tolerated: 0,
      outcomes: '10',
      expected: ['up', 'down'],
    },
    {
      name: 'tolerated 9: down on the 10th consecutive failure only',
      tolerated: 9,
      outcomes: '1' + '0'.repeat(10),
      expected: [...Array(10).fill('up'), 'down'],
    },
    {
      name: 'a success in between resets the count',
      tolerated: 3,
      outcomes: '1000100',
      expected: Array(7).fill('up'),
    },
    {
      name: 'one success after being down reports up again',
      tolerated: 3,
      outcomes: '000001',
      expected: [undefined, undefined, undefined, 'down', 'down', 'up'],
    },
    {
      name: 'undecided until the first success',
      tolerated: 3,
      outcomes: '001',
      expected: [undefined, undefined, 'up'],
    },
    {
      name: 'undecided until tolerated+1 failures',
      tolerated: 2,
      outcomes: '000',
      expected: [undefined, undefined, 'down'],
    },
    {
      name: 'checks continue while down: still down',
      tolerated: 1,
      outcomes: '00000',
      expected: [undefined, 'down', 'down', 'down', 'down'],
    },
  ])('$name', ({ tolerated, outcomes, expected }) => {
    // Act
    const got = verdicts(consecutive, tolerated, outcomes);
    // Assess
    expect(got).toEqual(expected);
  });

  it('reports a change only when the verdict changes, with the count in the detail', () => {
    // Prepare
    const up = applyCheck(consecutive, 1, initialRuleState(consecutive), true);
    // Act
    const first = applyCheck(consecutive, 1, up.state, false);
    const second = applyCheck(consecutive, 1, first.state, false);
    // Assess
    expect(up).toMatchObject({ changed: true, verdict: 'up', detail: 'check succeeded' });
    expect(first).toMatchObject({
      changed: false,
      verdict: 'up',
      detail: '1 consecutive failure (tolerated 1)',
    });
    expect(second).toMatchObject({
      changed: true,
      verdict: 'down',
      detail: '2 consecutive failures (tolerated 1)',
    });
  });

  it('continues from a sample-window state when the rule changed, keeping its verdict', () => {
    // Prepare
    const windowState: RuleState = { kind: 'sampleWindow', samples: '11', verdict: 'up' };
    // Act
    const decision = applyCheck(consecutive, 0, windowState, false);
    // Assess
    expect(decision).toMatchObject({
      verdict: 'down',
      changed: true,
      state: { kind: 'consecutiveFailures', failures: 1 },
    });
  });
});

describe('sample window (Front Door: up if at least successfulSamplesRequired of the last sampleSize checks succeeded)', () => {
  it.each([
    { name: 'up early once enough successes are in', outcomes: '11', expected: [undefined, 'up'] },
    {
      name: 'down early once success can no longer be reached',
      outcomes: '000',
      expected: [undefined, undefined, 'down'],
    },
    { name: 'undecided while the outcome is still open', outcomes: '01', expected: [undefined, undefined] },
    {
      name: 'a full window with fewer successes than required is down',
      outcomes: '1100000',
      expected: [undefined, 'up', 'up', 'up', 'down', 'down', 'down'],
    },
    {
      name: 'old checks slide out of the window',
      outcomes: '00001010',
      expected: [undefined, undefined, 'down', 'down', 'down', 'down', 'up', 'up'],
    },
  ])('$name', ({ outcomes, expected }) => {
    // Act
    const got = verdicts(window42, 0, outcomes);
    // Assess
    expect(got).toEqual(expected);
  });

  it('keeps only the last sampleSize outcomes and explains the count', () => {
    // Act
    let state = initialRuleState(window42);
    let detail = '';
    for (const ok of [true, false, false, true, true, false])
      ({ state, detail } = applyCheck(window42, 0, state, ok));
    // Assess
    expect(state).toEqual({ kind: 'sampleWindow', samples: '0110', verdict: 'up' });
    expect(detail).toBe('2 of last 4 checks succeeded (2 of 4 required)');
  });

  it('continues from a consecutive-failures state when the rule changed, keeping its verdict', () => {
    // Prepare
    const consecutiveState: RuleState = { kind: 'consecutiveFailures', failures: 2, verdict: 'up' };
    // Act
    const decision = applyCheck(window42, 0, consecutiveState, false);
    // Assess
    expect(decision).toMatchObject({
      verdict: 'up',
      changed: false,
      state: { kind: 'sampleWindow', samples: '0' },
    });
  });
});
