/** A tiny in-memory AlarmStates for tests: set an alarm's state, or remove the alarm. */
import type { AlarmStates, AlarmStateValue } from '../../infra/local/cloudwatch/alarm-states.js';

export interface FakeAlarmStates extends AlarmStates {
  set(region: string, alarmName: string, state: AlarmStateValue | undefined): void;
}

export function fakeAlarmStates(): FakeAlarmStates {
  const states = new Map<string, AlarmStateValue>();
  const key = (region: string, name: string) => `${region}\u0000${name}`;
  return {
    stateOf: (region, name) => states.get(key(region, name)),
    set: (region, name, state) => {
      if (state === undefined) states.delete(key(region, name));
      else states.set(key(region, name), state);
    },
  };
}
