/**
 * PutMetricAlarm's input, checked as CloudWatch checks it
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_PutMetricAlarm.html),
 * for the one kind of alarm the stand-in evaluates: a static threshold on one metric with a
 * simple statistic. Metric math (`Metrics`), percentiles (`ExtendedStatistic`), anomaly
 * detection (`ThresholdMetricId`) and alarm actions are refused as not supported here, naming
 * what was asked for, rather than accepted and ignored.
 */
import { invalidCombination, invalidValue, unsupported } from './errors.js';
import {
  booleanMember,
  enumMember,
  integerMember,
  listMember,
  numberMember,
  stringMember,
  type JsonObject,
} from './json-fields.js';
import { dimensionsOf, metricNameOf, namespaceOf, type MetricId } from './metric.js';
import { UNITS, type Unit } from './metric-data.js';

export const STATISTICS = ['SampleCount', 'Average', 'Sum', 'Minimum', 'Maximum'] as const;
export type Statistic = (typeof STATISTICS)[number];

const THRESHOLD_OPERATORS = [
  'GreaterThanOrEqualToThreshold',
  'GreaterThanThreshold',
  'LessThanThreshold',
  'LessThanOrEqualToThreshold',
] as const;
const ANOMALY_OPERATORS = [
  'LessThanLowerOrGreaterThanUpperThreshold',
  'LessThanLowerThreshold',
  'GreaterThanUpperThreshold',
] as const;
export type ComparisonOperator = (typeof THRESHOLD_OPERATORS)[number];

const TREAT_MISSING_DATA = ['missing', 'notBreaching', 'breaching', 'ignore'] as const;
export type TreatMissingData = (typeof TREAT_MISSING_DATA)[number];

/** An alarm's whole evaluation range (Period × EvaluationPeriods): at most 7 days, at most 1 day when Period < 1 hour. */
const MAX_RANGE_SECONDS = 7 * 86_400;
const MAX_SHORT_PERIOD_RANGE_SECONDS = 86_400;

export interface AlarmDefinition {
  readonly alarmName: string;
  readonly description: string | undefined;
  readonly actionsEnabled: boolean;
  readonly metric: MetricId;
  readonly statistic: Statistic;
  /** Seconds (before the time scale). */
  readonly period: number;
  readonly evaluationPeriods: number;
  readonly datapointsToAlarm: number;
  readonly threshold: number;
  readonly comparisonOperator: ComparisonOperator;
  readonly treatMissingData: TreatMissingData;
  readonly unit: Unit | undefined;
}

export function alarmDefinitionOf(input: JsonObject): AlarmDefinition {
  refuseUnsupported(input);
  const alarmName = stringMember(input, 'AlarmName', 'AlarmName', { required: true, max: 255 }) as string;
  const description = stringMember(input, 'AlarmDescription', 'AlarmDescription', { min: 0, max: 1024 });
  const namespace = namespaceOf(input, 'Namespace', false) as string;
  const metricName = metricNameOf(input, 'MetricName', true) as string;
  const dimensions = dimensionsOf(input, 'Dimensions');
  const statistic = statisticOf(input);
  const { period, evaluationPeriods, datapointsToAlarm } = periodsOf(input);
  const threshold = numberMember(input, 'Threshold', 'Threshold', true) as number;
  if (!Number.isFinite(threshold)) throw invalidValue('Threshold', threshold);
  const comparisonOperator = enumMember(
    input,
    'ComparisonOperator',
    'ComparisonOperator',
    [...THRESHOLD_OPERATORS, ...ANOMALY_OPERATORS],
    true,
  ) as string;
  if ((ANOMALY_OPERATORS as readonly string[]).includes(comparisonOperator))
    throw unsupported(`anomaly detection alarms (ComparisonOperator ${comparisonOperator})`);
  const treatMissingData =
    stringMember(input, 'TreatMissingData', 'TreatMissingData', { max: 255 }) ?? 'missing';
  if (!(TREAT_MISSING_DATA as readonly string[]).includes(treatMissingData))
    throw invalidValue(
      'TreatMissingData',
      treatMissingData,
      `Valid values are ${TREAT_MISSING_DATA.join(', ')}.`,
    );
  return {
    alarmName,
    description,
    actionsEnabled: booleanMember(input, 'ActionsEnabled', 'ActionsEnabled') ?? true,
    metric: { namespace, metricName, dimensions },
    statistic,
    period,
    evaluationPeriods,
    datapointsToAlarm,
    threshold,
    comparisonOperator: comparisonOperator as ComparisonOperator,
    treatMissingData: treatMissingData as TreatMissingData,
    unit: enumMember(input, 'Unit', 'Unit', UNITS),
  };
}

function refuseUnsupported(input: JsonObject): void {
  if (input.Metrics !== undefined && input.Metrics !== null)
    throw unsupported('metric math alarms (Metrics)');
  if (input.ThresholdMetricId !== undefined && input.ThresholdMetricId !== null)
    throw unsupported('anomaly detection alarms (ThresholdMetricId)');
  for (const member of ['OKActions', 'AlarmActions', 'InsufficientDataActions'])
    if ((listMember(input, member, member) ?? []).length > 0) throw unsupported(`alarm actions (${member})`);
}

function statisticOf(input: JsonObject): Statistic {
  const given = ['Statistic', 'ExtendedStatistic'].filter((m) => input[m] !== undefined && input[m] !== null);
  if (given.length !== 1)
    throw invalidCombination(
      'Exactly one of the parameters Statistic or ExtendedStatistic must be specified.',
    );
  if (given[0] === 'ExtendedStatistic') {
    stringMember(input, 'ExtendedStatistic', 'ExtendedStatistic', { max: 255 });
    throw unsupported(`percentile alarms (ExtendedStatistic ${String(input.ExtendedStatistic)})`);
  }
  if (input.EvaluateLowSampleCountPercentile !== undefined && input.EvaluateLowSampleCountPercentile !== null)
    throw invalidCombination(
      'The parameter EvaluateLowSampleCountPercentile is only valid with a percentile ExtendedStatistic.',
    );
  return enumMember(input, 'Statistic', 'Statistic', STATISTICS, true) as Statistic;
}

function periodsOf(input: JsonObject) {
  const period = integerMember(input, 'Period', 'Period', { required: true, min: 1 }) as number;
  if (![10, 20, 30].includes(period) && period % 60 !== 0)
    throw invalidValue('Period', period, 'Valid values are 10, 20, 30, and any multiple of 60.');
  const evaluationPeriods = integerMember(input, 'EvaluationPeriods', 'EvaluationPeriods', {
    required: true,
    min: 1,
  }) as number;
  const datapointsToAlarm =
    integerMember(input, 'DatapointsToAlarm', 'DatapointsToAlarm', { min: 1 }) ?? evaluationPeriods;
  if (datapointsToAlarm > evaluationPeriods)
    throw invalidCombination(
      `DatapointsToAlarm (${datapointsToAlarm}) must be less than or equal to EvaluationPeriods (${evaluationPeriods}).`,
    );
  const range = period * evaluationPeriods;
  const limit = period < 3600 ? MAX_SHORT_PERIOD_RANGE_SECONDS : MAX_RANGE_SECONDS;
  if (range > limit)
    throw invalidCombination(
      `Period × EvaluationPeriods (${range} s) must not exceed ${limit} s${period < 3600 ? ' when Period is under one hour' : ''}.`,
    );
  return { period, evaluationPeriods, datapointsToAlarm };
}
