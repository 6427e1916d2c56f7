/**
 * DescribeAlarms for metric alarms, and the alarm as CloudWatch's `MetricAlarm` shape
 * (timestamps in epoch seconds, as AWS JSON 1.0 carries them). Filters: `AlarmNames` (at most
 * 100) or `AlarmNamePrefix`, `StateValue`, `AlarmTypes`, `ActionPrefix`; pages of `MaxRecords`
 * (1–100, default 50) with `NextToken`. Composite alarms do not exist here, so asking for
 * their children or parents is refused as not supported.
 */
import { LOCAL_ACCOUNT } from '../ssm/server.js';
import { CloudWatchApiError, invalidCombination, unsupported, validationError } from './errors.js';
import { enumMember, integerMember, listMember, stringMember, type JsonObject } from './json-fields.js';
import type { AlarmRecord, RegionStore } from './store.js';

const MAX_NAMES = 100;
const DEFAULT_MAX_RECORDS = 50;
const STATE_VALUES = ['OK', 'ALARM', 'INSUFFICIENT_DATA'] as const;
const ALARM_TYPES = ['CompositeAlarm', 'MetricAlarm'] as const;

export function alarmNamesOf(input: JsonObject, required: boolean): string[] | undefined {
  const names = listMember(input, 'AlarmNames', 'AlarmNames', required);
  if (names === undefined) return undefined;
  if (names.length > MAX_NAMES)
    throw validationError(
      'alarmNames',
      `${names.length} names`,
      `Member must have length less than or equal to ${MAX_NAMES}`,
    );
  return names.map(
    (name, i) =>
      stringMember({ name }, 'name', `AlarmNames.member.${i + 1}`, { required: true, max: 255 }) as string,
  );
}

export function describeAlarms(store: RegionStore, input: JsonObject, region: string) {
  for (const member of ['ChildrenOfAlarmName', 'ParentsOfAlarmName'])
    if (input[member] !== undefined && input[member] !== null)
      throw unsupported(`composite alarms (${member})`);
  const names = alarmNamesOf(input, false);
  const prefix = stringMember(input, 'AlarmNamePrefix', 'AlarmNamePrefix', { max: 255 });
  if (names !== undefined && prefix !== undefined)
    throw invalidCombination(
      'The parameters AlarmNames and AlarmNamePrefix are mutually exclusive and you have specified both.',
    );
  const state = enumMember(input, 'StateValue', 'StateValue', STATE_VALUES);
  const types = (listMember(input, 'AlarmTypes', 'AlarmTypes') ?? ['MetricAlarm']).map(
    (type, i) => enumMember({ type }, 'type', `AlarmTypes.member.${i + 1}`, ALARM_TYPES, true) as string,
  );
  const actionPrefix = stringMember(input, 'ActionPrefix', 'ActionPrefix', { max: 1024 });
  const maxRecords = integerMember(input, 'MaxRecords', 'MaxRecords', { min: 1 }) ?? DEFAULT_MAX_RECORDS;
  if (maxRecords > 100)
    throw validationError('maxRecords', maxRecords, 'Member must have value less than or equal to 100');
  const after = tokenOf(stringMember(input, 'NextToken', 'NextToken', { max: 1024 }));

  const matching = store
    .allAlarms()
    .filter((alarm) => names === undefined || names.includes(alarm.definition.alarmName))
    .filter((alarm) => prefix === undefined || alarm.definition.alarmName.startsWith(prefix))
    .filter((alarm) => state === undefined || alarm.state === state)
    // No alarm here has actions, so an action prefix matches none.
    .filter(() => types.includes('MetricAlarm') && actionPrefix === undefined)
    .filter((alarm) => after === undefined || alarm.definition.alarmName > after);
  const page = matching.slice(0, maxRecords);
  const last = page.at(-1);
  return {
    MetricAlarms: page.map((alarm) => metricAlarmShape(alarm, region)),
    CompositeAlarms: [],
    ...(matching.length > page.length && last !== undefined
      ? { NextToken: Buffer.from(last.definition.alarmName).toString('base64url') }
      : {}),
  };
}

function tokenOf(token: string | undefined): string | undefined {
  if (token === undefined) return undefined;
  const name = Buffer.from(token, 'base64url').toString('utf8');
  if (name.length === 0 || Buffer.from(name).toString('base64url') !== token)
    throw new CloudWatchApiError(
      'InvalidNextToken',
      'The service returned an error with Error Code InvalidNextToken.',
    );
  return name;
}

function metricAlarmShape(
  { definition: alarm, state, reason, stateUpdatedAt, configurationUpdatedAt }: AlarmRecord,
  region: string,
) {
  return {
    AlarmName: alarm.alarmName,
    AlarmArn: `arn:aws:cloudwatch:${region}:${LOCAL_ACCOUNT}:alarm:${alarm.alarmName}`,
    ...(alarm.description === undefined ? {} : { AlarmDescription: alarm.description }),
    AlarmConfigurationUpdatedTimestamp: configurationUpdatedAt / 1000,
    ActionsEnabled: alarm.actionsEnabled,
    OKActions: [],
    AlarmActions: [],
    InsufficientDataActions: [],
    StateValue: state,
    StateReason: reason,
    StateUpdatedTimestamp: stateUpdatedAt / 1000,
    StateTransitionedTimestamp: stateUpdatedAt / 1000,
    MetricName: alarm.metric.metricName,
    Namespace: alarm.metric.namespace,
    Statistic: alarm.statistic,
    Dimensions: alarm.metric.dimensions.map((d) => ({ Name: d.Name, Value: d.Value })),
    Period: alarm.period,
    ...(alarm.unit === undefined ? {} : { Unit: alarm.unit }),
    EvaluationPeriods: alarm.evaluationPeriods,
    DatapointsToAlarm: alarm.datapointsToAlarm,
    Threshold: alarm.threshold,
    ComparisonOperator: alarm.comparisonOperator,
    TreatMissingData: alarm.treatMissingData,
  };
}
