/**
 * One alarm evaluation, as CloudWatch describes it
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/alarm-evaluation.html and
 * "Configuring how CloudWatch alarms treat missing data"): pure, given the alarm, its current
 * state and one aggregated value (or none) per period of the evaluation range, oldest first.
 *
 * - The evaluation range is EvaluationPeriods + 2 periods (CloudWatch retrieves "more data
 *   points than Evaluation Periods"; its documented example uses 5 for 3).
 * - At least N real datapoints in the range: the most recent N real ones decide; ALARM when
 *   at least M of them breach, else OK. How missing data is treated does not matter.
 * - No real datapoint: `missing` → INSUFFICIENT_DATA, `ignore` → the state stays,
 *   `breaching` → ALARM, `notBreaching` → OK.
 * - Fewer than N real datapoints: every real one counts, and the gaps up to N are filled with
 *   the treatment: `breaching` fills with breaching points, `notBreaching` with good ones. With
 *   `missing` and `ignore` only real points count: ALARM when M of them breach; OK when enough
 *   of them are good that M breaches are out of reach; otherwise the state stays — except that
 *   with `missing` an alarm goes to ALARM when the oldest breaching datapoint of the last N
 *   periods is at least M periods old and every more recent datapoint breaches or is missing
 *   (CloudWatch's "avoiding premature transitions to alarm state").
 */
import type { AlarmStateValue } from './alarm-states.js';
import type { AlarmDefinition, ComparisonOperator, Statistic } from './alarm-input.js';

/** Periods evaluated beyond EvaluationPeriods. */
export const EXTRA_EVALUATION_PERIODS = 2;

export interface Judgement {
  readonly state: AlarmStateValue;
  readonly reason: string;
}

/** A period's datapoint: the statistic over every datum's value in it; undefined when there is none. */
export function aggregate(values: readonly number[], statistic: Statistic): number | undefined {
  if (values.length === 0) return undefined;
  const sum = values.reduce((total, value) => total + value, 0);
  switch (statistic) {
    case 'SampleCount':
      return values.length;
    case 'Sum':
      return sum;
    case 'Average':
      return sum / values.length;
    case 'Minimum':
      return Math.min(...values);
    case 'Maximum':
      return Math.max(...values);
  }
}

function breaches(value: number, operator: ComparisonOperator, threshold: number): boolean {
  switch (operator) {
    case 'GreaterThanOrEqualToThreshold':
      return value >= threshold;
    case 'GreaterThanThreshold':
      return value > threshold;
    case 'LessThanThreshold':
      return value < threshold;
    case 'LessThanOrEqualToThreshold':
      return value <= threshold;
  }
}

/** The alarm's next state from the range's values (oldest first, EvaluationPeriods + 2 of them). */
export function judge(
  alarm: AlarmDefinition,
  current: AlarmStateValue,
  range: readonly (number | undefined)[],
): Judgement {
  const n = alarm.evaluationPeriods;
  const m = alarm.datapointsToAlarm;
  const breach = (value: number) => breaches(value, alarm.comparisonOperator, alarm.threshold);
  const real = range.filter((value): value is number => value !== undefined);
  const treatment = alarm.treatMissingData;
  const verdict = (breaching: number, of: number, filled = 0): Judgement => ({
    state: breaching >= m ? 'ALARM' : 'OK',
    reason:
      `Threshold Crossed: ${breaching} out of the last ${of} datapoints ${breaching === 1 ? 'was' : 'were'} breaching` +
      `${filled > 0 ? ` (${filled} missing treated as ${treatment})` : ''}; ${m} needed for ALARM.`,
  });
  const stay = (why: string): Judgement => ({ state: current, reason: why });

  if (real.length >= n) return verdict(real.slice(-n).filter(breach).length, n);
  if (real.length === 0) {
    const none = `no datapoints were received for ${range.length} periods`;
    if (treatment === 'missing') return { state: 'INSUFFICIENT_DATA', reason: `Insufficient Data: ${none}.` };
    if (treatment === 'ignore') return stay(`Unchanged: ${none} and missing data is ignored.`);
    return verdict(treatment === 'breaching' ? n : 0, n, n);
  }
  const breaching = real.filter(breach).length;
  const gaps = n - real.length;
  if (treatment === 'breaching') return verdict(breaching + gaps, n, gaps);
  if (treatment === 'notBreaching') return verdict(breaching, n, gaps);
  if (breaching >= m) return verdict(breaching, real.length);
  if (treatment === 'missing' && prematureAlarm(range.slice(-n), m, breach))
    return {
      state: 'ALARM',
      reason: `Threshold Crossed: every datapoint of the last ${m} or more periods was breaching or missing.`,
    };
  if (real.length - breaching > n - m) return verdict(breaching, real.length);
  return stay(`Unchanged: ${real.length} of ${n} datapoints received, not enough to decide.`);
}

/** The oldest breaching datapoint of the window is at least `m` periods old and nothing newer is good. */
function prematureAlarm(
  window: readonly (number | undefined)[],
  m: number,
  breach: (value: number) => boolean,
): boolean {
  let oldestBreachingAge = 0;
  for (let age = 1; age <= window.length; age += 1) {
    const value = window[window.length - age];
    if (value === undefined) continue;
    if (!breach(value)) break;
    oldestBreachingAge = age;
  }
  return oldestBreachingAge >= m;
}
