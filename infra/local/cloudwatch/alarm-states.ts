/** How the local Route 53 reads the local CloudWatch's alarm states (CLOUDWATCH_METRIC health checks). */
export type AlarmStateValue = 'OK' | 'ALARM' | 'INSUFFICIENT_DATA';

export interface AlarmStates {
  /** undefined when no such alarm */
  stateOf(region: string, alarmName: string): AlarmStateValue | undefined;
}
