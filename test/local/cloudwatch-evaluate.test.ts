/**
 * Properties of the local CloudWatch's alarm judgement (infra/local/cloudwatch/evaluate.ts), over
 * random alarms and ranges: with a datapoint in every period, only M of N decides; breaching and
 * notBreaching never leave the state to the previous one; missing with no data is
 * INSUFFICIENT_DATA.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AlarmDefinition } from '../../infra/local/cloudwatch/alarm-input.js';
import type { AlarmStateValue } from '../../infra/local/cloudwatch/alarm-states.js';
import { EXTRA_EVALUATION_PERIODS, judge } from '../../infra/local/cloudwatch/evaluate.js';

const TREATMENTS = ['missing', 'notBreaching', 'breaching', 'ignore'] as const;
const STATES: AlarmStateValue[] = ['OK', 'ALARM', 'INSUFFICIENT_DATA'];

const alarmArbitrary = fc
  .record({
    n: fc.integer({ min: 1, max: 6 }),
    mFraction: fc.double({ min: 0, max: 1, noNaN: true }),
    treatMissingData: fc.constantFrom(...TREATMENTS),
  })
  .map(({ n, mFraction, treatMissingData }): AlarmDefinition => ({
    alarmName: 'a',
    description: undefined,
    actionsEnabled: true,
    metric: { namespace: 'TM', metricName: 'vote', dimensions: [] },
    statistic: 'Minimum',
    period: 60,
    evaluationPeriods: n,
    datapointsToAlarm: Math.max(1, Math.ceil(mFraction * n)),
    threshold: 1,
    comparisonOperator: 'LessThanThreshold',
    treatMissingData,
    unit: undefined,
  }));

/** A range of N + 2 periods: 0 (breaching), 1 (good) or missing. */
const rangeOf = (alarm: AlarmDefinition, present: fc.Arbitrary<number | undefined>) =>
  fc.array(present, {
    minLength: alarm.evaluationPeriods + EXTRA_EVALUATION_PERIODS,
    maxLength: alarm.evaluationPeriods + EXTRA_EVALUATION_PERIODS,
  });

describe('local CloudWatch: alarm judgement properties', () => {
  it('with a datapoint in every period, ALARM exactly when M of the last N breach, whatever the treatment and state', () => {
    fc.assert(
      fc.property(
        alarmArbitrary.chain((alarm) =>
          fc.tuple(fc.constant(alarm), rangeOf(alarm, fc.constantFrom(0, 1)), fc.constantFrom(...STATES)),
        ),
        ([alarm, range, current]) => {
          const breaching = range.slice(-alarm.evaluationPeriods).filter((v) => v === 0).length;
          expect(judge(alarm, current, range).state).toBe(
            breaching >= alarm.datapointsToAlarm ? 'ALARM' : 'OK',
          );
        },
      ),
    );
  });

  it('breaching and notBreaching decide OK or ALARM from the range alone, never from the previous state', () => {
    fc.assert(
      fc.property(
        alarmArbitrary
          .filter(
            (alarm) => alarm.treatMissingData === 'breaching' || alarm.treatMissingData === 'notBreaching',
          )
          .chain((alarm) => fc.tuple(fc.constant(alarm), rangeOf(alarm, fc.constantFrom(0, 1, undefined)))),
        ([alarm, range]) => {
          const states = STATES.map((current) => judge(alarm, current, range).state);
          expect(new Set(states).size).toBe(1);
          expect(states[0]).not.toBe('INSUFFICIENT_DATA');
        },
      ),
    );
  });

  it('missing with no datapoint in the range is INSUFFICIENT_DATA; ignore keeps the state', () => {
    fc.assert(
      fc.property(alarmArbitrary, fc.constantFrom(...STATES), (alarm, current) => {
        const empty = Array.from(
          { length: alarm.evaluationPeriods + EXTRA_EVALUATION_PERIODS },
          () => undefined,
        );
        const { state } = judge(alarm, current, empty);
        if (alarm.treatMissingData === 'missing') expect(state).toBe('INSUFFICIENT_DATA');
        if (alarm.treatMissingData === 'ignore') expect(state).toBe(current);
      }),
    );
  });
});
