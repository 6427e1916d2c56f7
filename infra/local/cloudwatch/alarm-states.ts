/**
 * What the local Route 53 reads of the local CloudWatch, in-process: the state of an alarm in
 * a region, as a `CLOUDWATCH_METRIC` health check follows it.
 */

/** A metric alarm's state, as CloudWatch names it. */
export type AlarmStateValue = 'OK' | 'ALARM' | 'INSUFFICIENT_DATA';

export interface AlarmStates {
  /** undefined when no such alarm */
  stateOf(region: string, alarmName: string): AlarmStateValue | undefined;
}
