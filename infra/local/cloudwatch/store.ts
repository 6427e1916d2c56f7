/**
 * One region's CloudWatch: the datapoints published there and its metric alarms, each alarm
 * evaluated by `evaluate(now)` over (time-scaled) periods aligned to the epoch, as CloudWatch
 * aligns them to the minute. CloudWatch alarms read only their own region's metrics; so does
 * this store.
 */
import type { AlarmStateValue } from './alarm-states.js';
import type { AlarmDefinition, Statistic } from './alarm-input.js';
import { CloudWatchApiError } from './errors.js';
import { aggregate, EXTRA_EVALUATION_PERIODS, judge } from './evaluate.js';
import { metricKey, type MetricId } from './metric.js';
import { compareAscii } from '../route53/names.js';
import type { Datapoint } from './metric-data.js';

export interface AlarmRecord {
  readonly definition: AlarmDefinition;
  readonly state: AlarmStateValue;
  readonly reason: string;
  /** Epoch ms of the last state change (creation counts). */
  readonly stateUpdatedAt: number;
  readonly configurationUpdatedAt: number;
}

/** Data older than this (times the time scale) is dropped: PutMetricData takes nothing older either. */
const RETENTION_MS = 14 * 24 * 3600_000;

export class RegionStore {
  private readonly datapoints = new Map<string, Datapoint[]>();
  private readonly alarms = new Map<string, AlarmRecord>();

  constructor(private readonly timeScale: number) {}

  /** Keeps each metric's datapoints in time order (they mostly arrive in order: an append). */
  putMetricData(points: readonly Datapoint[]): void {
    for (const point of points) {
      const key = metricKey(point.metric);
      const list = this.datapoints.get(key);
      if (list === undefined) this.datapoints.set(key, [point]);
      else list.splice(firstAtOrAfter(list, point.at, true), 0, point);
    }
  }

  /** Creates an alarm (INSUFFICIENT_DATA) or replaces its configuration, keeping its state, as CloudWatch does. */
  putAlarm(definition: AlarmDefinition, now: number): void {
    const existing = this.alarms.get(definition.alarmName);
    this.alarms.set(definition.alarmName, {
      definition,
      state: existing?.state ?? 'INSUFFICIENT_DATA',
      reason: existing?.reason ?? 'Unchecked: Initial alarm creation',
      stateUpdatedAt: existing?.stateUpdatedAt ?? now,
      configurationUpdatedAt: now,
    });
  }

  alarm(name: string): AlarmRecord | undefined {
    return this.alarms.get(name);
  }

  /** Alarms sorted by name. */
  allAlarms(): AlarmRecord[] {
    return [...this.alarms.values()].sort((a, b) =>
      compareAscii(a.definition.alarmName, b.definition.alarmName),
    );
  }

  /** Deletes every named alarm, or none when one of them does not exist (ResourceNotFound). */
  deleteAlarms(names: readonly string[]): void {
    const unknown = names.filter((name) => !this.alarms.has(name));
    if (unknown.length > 0)
      throw new CloudWatchApiError(
        'ResourceNotFound',
        `${unknown.map((n) => `'${n}'`).join(', ')} not found`,
      );
    for (const name of names) this.alarms.delete(name);
  }

  /** Evaluates every alarm at `now` (epoch ms) and drops datapoints past retention. */
  evaluate(now: number): void {
    for (const [name, record] of this.alarms) {
      const judgement = judge(record.definition, record.state, this.rangeOf(record.definition, now));
      if (judgement.state !== record.state)
        this.alarms.set(name, {
          ...record,
          state: judgement.state,
          reason: judgement.reason,
          stateUpdatedAt: now,
        });
    }
    const oldest = now - RETENTION_MS * this.timeScale;
    for (const [key, list] of this.datapoints) {
      list.splice(0, firstAtOrAfter(list, oldest));
      if (list.length === 0) this.datapoints.delete(key);
    }
  }

  /**
   * GetMetricStatistics: per period of `periodMs` from `start` (up to `end`) that holds data, the
   * statistics asked for, oldest first.
   */
  statistics(
    metric: MetricId,
    start: number,
    end: number,
    periodMs: number,
    statistics: readonly Statistic[],
  ): { at: number; values: Partial<Record<Statistic, number>> }[] {
    const buckets = new Map<number, number[]>();
    const series = this.datapoints.get(metricKey(metric)) ?? [];
    for (let i = firstAtOrAfter(series, start); i < series.length; i += 1) {
      const point = series[i] as Datapoint;
      if (point.at >= end) break;
      const at = start + Math.floor((point.at - start) / periodMs) * periodMs;
      buckets.set(at, [...(buckets.get(at) ?? []), point.value]);
    }
    return [...buckets].map(([at, sets]) => ({
      at,
      values: Object.fromEntries(statistics.map((s) => [s, aggregate(sets, s) as number])),
    }));
  }

  /** One value per complete period of the evaluation range, oldest first. */
  private rangeOf(alarm: AlarmDefinition, now: number): (number | undefined)[] {
    const periodMs = alarm.period * 1000 * this.timeScale;
    const end = Math.floor(now / periodMs) * periodMs;
    const count = alarm.evaluationPeriods + EXTRA_EVALUATION_PERIODS;
    const start = end - count * periodMs;
    const periods: number[][] = Array.from({ length: count }, () => []);
    const series = this.datapoints.get(metricKey(alarm.metric)) ?? [];
    for (let i = firstAtOrAfter(series, start); i < series.length; i += 1) {
      const point = series[i] as Datapoint;
      if (point.at >= end) break;
      if (alarm.unit === undefined || point.unit === alarm.unit)
        periods[Math.min(count - 1, Math.floor((point.at - start) / periodMs))]?.push(point.value);
    }
    return periods.map((sets) => aggregate(sets, alarm.statistic));
  }
}

/** The index of the first datapoint at or after `at` (`strictly`: after it) in a time-ordered series. */
function firstAtOrAfter(series: readonly Datapoint[], at: number, strictly = false): number {
  let low = 0;
  let high = series.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const value = (series[middle] as Datapoint).at;
    if (value < at || (strictly && value === at)) low = middle + 1;
    else high = middle;
  }
  return low;
}
