/**
 * Desired against actual health checks and alarms → the changes, in an order Route 53 and
 * CloudWatch accept. Health checks: create children before the calculated checks that use
 * them, delete calculated checks before their children (Route 53 refuses to delete a check in
 * use). Records come between: the publisher creates and updates checks, then changes the
 * records, then deletes checks no record uses any more. A check's Type cannot change after
 * creation, so a changed type is a delete and a create.
 */
import { isHeld } from './override.js';
import type { AlarmSpec, HealthCheckSpec } from './types.js';

const leavesFirst = (a: HealthCheckSpec, b: HealthCheckSpec) => rank(a) - rank(b);
const rank = (check: HealthCheckSpec) => (check.type === 'CALCULATED' ? 1 : 0);

/** What Route 53 keeps of a check (the description is ours: a tag, not a setting). */
function settingsOf(check: HealthCheckSpec): string {
  return check.type === 'CALCULATED'
    ? JSON.stringify([check.type, [...check.children].sort(), check.healthThreshold])
    : JSON.stringify([check.type, check.alarm.region, check.alarm.name, check.insufficientDataHealthStatus]);
}

export function diffHealthChecks(desired: readonly HealthCheckSpec[], actual: readonly HealthCheckSpec[]) {
  const actualById = new Map(actual.map((c) => [c.id, c]));
  const desiredIds = new Set(desired.map((c) => c.id));
  const create: HealthCheckSpec[] = [];
  const update: HealthCheckSpec[] = [];
  const remove = actual.filter((c) => !desiredIds.has(c.id));
  for (const check of desired) {
    const current = actualById.get(check.id);
    if (current === undefined) create.push(check);
    else if (current.type !== check.type) {
      remove.push(current);
      create.push(check);
    } else if (settingsOf(current) !== settingsOf(check)) update.push(check);
  }
  return {
    create: create.sort(leavesFirst),
    update: update.sort(leavesFirst),
    delete: remove.sort((a, b) => leavesFirst(b, a)),
  };
}

const alarmKey = (alarm: Pick<AlarmSpec, 'region' | 'name'>) => `${alarm.region}|${alarm.name}`;

/**
 * An alarm an operator's outage-time override holds (override.ts) is left as it is until the
 * override ends (its `until`, or a command that puts the planned alarm back): putting the planned
 * alarm back would undo the override while the control plane may still be down.
 */
export function diffAlarms(desired: readonly AlarmSpec[], actual: readonly AlarmSpec[], now: number) {
  const actualByKey = new Map(actual.map((a) => [alarmKey(a), a]));
  const desiredKeys = new Set(desired.map(alarmKey));
  const held = (alarm: AlarmSpec | undefined) => alarm?.override !== undefined && isHeld(alarm.override, now);
  return {
    /** PutMetricAlarm creates or replaces. */
    put: desired.filter((a) => {
      const current = actualByKey.get(alarmKey(a));
      if (held(current)) return false;
      return current === undefined || JSON.stringify(normalized(current)) !== JSON.stringify(normalized(a));
    }),
    delete: actual.filter((a) => !desiredKeys.has(alarmKey(a))).map(({ region, name }) => ({ region, name })),
  };
}

function normalized(alarm: AlarmSpec): unknown[] {
  const dimensions = [...alarm.dimensions].sort((a, b) => a.name.localeCompare(b.name));
  return [
    alarm.region,
    alarm.name,
    alarm.namespace,
    alarm.metricName,
    dimensions,
    alarm.statistic,
    alarm.periodSeconds,
    alarm.evaluationPeriods,
    alarm.datapointsToAlarm,
    alarm.threshold,
    alarm.comparisonOperator,
    alarm.treatMissingData,
  ];
}
