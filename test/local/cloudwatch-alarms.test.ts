/**
 * The local CloudWatch evaluates metric alarms as CloudWatch does, on time-scaled periods, with
 * an injected clock: datapoints aggregated per period with the alarm's statistic, M out of N,
 * each TreatMissingData mode, new alarms in INSUFFICIENT_DATA; and a region that is down answers
 * 503 and stops evaluating. Through the production client:
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/alarm-evaluation.html
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/alarms-and-missing-data.html
 */
import {
  DescribeAlarmsCommand,
  PutMetricAlarmCommand,
  PutMetricDataCommand,
  type PutMetricAlarmCommandInput,
} from '@aws-sdk/client-cloudwatch';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cloudWatchClient } from '../../functions/shared/aws-clients.js';
import { startLocalCloudWatch, type LocalCloudWatch } from '../../infra/local/cloudwatch/index.js';
import type { AlarmStateValue } from '../../infra/local/cloudwatch/alarm-states.js';
import { eventually } from '../support/eventually.js';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const REGION = 'ap-southeast-1';
/** A 60 s period lasts 12 s of the (injected) clock. */
const TIME_SCALE = 0.2;
const PERIOD_MS = 60_000 * TIME_SCALE;
/** Epoch ms at the start of a period. */
const T0 = 1_800_000_000_000;
let now = T0;
let cloudWatch: LocalCloudWatch;
let client: ReturnType<typeof cloudWatchClient>;
let alarmCount = 0;

beforeAll(async () => {
  cloudWatch = await startLocalCloudWatch({
    clock: { now: () => now },
    timeScale: TIME_SCALE,
    evaluateOnTimer: false,
  });
  client = cloudWatchClient({ endpoint: cloudWatch.endpoint, region: REGION, credentials });
});
afterAll(async () => {
  client.destroy();
  await cloudWatch.stop();
});
beforeEach(() => {
  now = T0;
});

/** A new alarm on a metric of its own: a vote of 1 is up, 0 is down; ALARM when the minimum is under 1. */
async function newAlarm(
  overrides: Partial<PutMetricAlarmCommandInput> = {},
): Promise<{ name: string; target: string }> {
  alarmCount += 1;
  const name = `vote-${alarmCount}`;
  await client.send(
    new PutMetricAlarmCommand({
      AlarmName: name,
      Namespace: 'TrafficManager',
      MetricName: 'vote',
      Dimensions: [{ Name: 'target', Value: name }],
      Statistic: 'Minimum',
      Period: 60,
      EvaluationPeriods: 1,
      Threshold: 1,
      ComparisonOperator: 'LessThanThreshold',
      ...overrides,
    }),
  );
  return { name, target: name };
}

async function put(target: string, values: readonly number[]): Promise<void> {
  await client.send(
    new PutMetricDataCommand({
      Namespace: 'TrafficManager',
      MetricData: values.map((Value) => ({
        MetricName: 'vote',
        Dimensions: [{ Name: 'target', Value: target }],
        Value,
      })),
    }),
  );
}

/**
 * Period by period from T0: publishes the period's values (none for `null`) in its middle, then
 * evaluates at its end; returns the alarm's state after each evaluation.
 */
async function run(
  alarm: { name: string; target: string },
  periods: readonly (number | readonly number[] | null)[],
) {
  const states: AlarmStateValue[] = [];
  for (const [index, values] of periods.entries()) {
    now = T0 + index * PERIOD_MS + PERIOD_MS / 2;
    if (values !== null) await put(alarm.target, typeof values === 'number' ? [values] : values);
    cloudWatch.evaluate(T0 + (index + 1) * PERIOD_MS);
    states.push(cloudWatch.stateOf(REGION, alarm.name) as AlarmStateValue);
  }
  return states;
}

const OK = 'OK';
const ALARM = 'ALARM';
const NODATA = 'INSUFFICIENT_DATA';

describe('local CloudWatch: alarm evaluation', () => {
  it('a new alarm is INSUFFICIENT_DATA until evaluated, and DescribeAlarms shows the state it reaches', async () => {
    // Prepare
    const alarm = await newAlarm();

    // Act
    const before = cloudWatch.stateOf(REGION, alarm.name);
    const states = await run(alarm, [0]);
    const described = await client.send(
      new DescribeAlarmsCommand({ AlarmNames: [alarm.name], StateValue: 'ALARM' }),
    );

    // Assert
    expect(before).toBe(NODATA);
    expect(states).toEqual([ALARM]);
    expect(described.MetricAlarms?.[0]?.StateReason).toMatch(/1 out of the last 1 datapoints was breaching/);
    expect(described.MetricAlarms?.[0]?.StateUpdatedTimestamp).toEqual(new Date(T0 + PERIOD_MS));
  });

  it('a period lasts Period × timeScale: data of the current period counts only once the period has ended', async () => {
    // Prepare
    const alarm = await newAlarm();
    now = T0 + PERIOD_MS / 2;
    await put(alarm.target, [0]);

    // Act
    cloudWatch.evaluate(T0 + PERIOD_MS - 1);
    const inPeriod = cloudWatch.stateOf(REGION, alarm.name);
    cloudWatch.evaluate(T0 + PERIOD_MS);
    const afterPeriod = cloudWatch.stateOf(REGION, alarm.name);

    // Assert
    expect(inPeriod).toBe(NODATA);
    expect(afterPeriod).toBe(ALARM);
  });

  it('a datapoint counts in the period of its Timestamp, whatever the order of arrival', async () => {
    // Prepare: a vote stamped in the next period arrives before this period's
    const alarm = await newAlarm();
    now = T0 + PERIOD_MS / 2;
    const vote = (Value: number, at: number) =>
      client.send(
        new PutMetricDataCommand({
          Namespace: 'TrafficManager',
          MetricData: [
            {
              MetricName: 'vote',
              Dimensions: [{ Name: 'target', Value: alarm.target }],
              Value,
              Timestamp: new Date(at),
            },
          ],
        }),
      );
    await vote(1, T0 + PERIOD_MS + PERIOD_MS / 2);
    await vote(0, T0 + PERIOD_MS / 2);

    // Act
    cloudWatch.evaluate(T0 + PERIOD_MS);
    const first = cloudWatch.stateOf(REGION, alarm.name);
    cloudWatch.evaluate(T0 + 2 * PERIOD_MS);
    const second = cloudWatch.stateOf(REGION, alarm.name);

    // Assert
    expect([first, second]).toEqual([ALARM, OK]);
  });

  it('a 10 s alarm sees high-resolution data in its period, standard-resolution data at the start of its minute', async () => {
    // Prepare: Period 10 lasts 2 s here; both votes are sent 9 s into the scaled minute
    const highResolution = await newAlarm({ Period: 10 });
    const standard = await newAlarm({ Period: 10 });
    now = T0 + 9_000;
    for (const [alarm, StorageResolution] of [
      [highResolution, 1],
      [standard, 60],
    ] as const)
      await client.send(
        new PutMetricDataCommand({
          Namespace: 'TrafficManager',
          MetricData: [
            {
              MetricName: 'vote',
              Dimensions: [{ Name: 'target', Value: alarm.target }],
              Value: 0,
              StorageResolution,
            },
          ],
        }),
      );

    // Act: the range is the three 2 s periods before T0 + 10 s
    cloudWatch.evaluate(T0 + 10_000);

    // Assert
    expect(cloudWatch.stateOf(REGION, highResolution.name)).toBe(ALARM);
    expect(cloudWatch.stateOf(REGION, standard.name)).toBe(NODATA);
  });

  it('Minimum takes the lowest datum of the period, Maximum the highest, Average the mean', async () => {
    // Prepare
    const minimum = await newAlarm({ Statistic: 'Minimum' });
    const maximum = await newAlarm({ Statistic: 'Maximum' });
    const average = await newAlarm({
      Statistic: 'Average',
      Threshold: 0.5,
      ComparisonOperator: 'LessThanOrEqualToThreshold',
    });

    // Act: three regions voted in the same period, one of them down
    const minStates = await run(minimum, [[1, 0, 1]]);
    const maxStates = await run(maximum, [[1, 0, 1]]);
    const avgStates = await run(average, [[1, 0, 1]]);

    // Assert
    expect(minStates).toEqual([ALARM]);
    expect(maxStates).toEqual([OK]);
    expect(avgStates).toEqual([OK]);
  });

  it.each([
    {
      name: '3 of 3: ALARM only when the last three periods breach',
      n: 3,
      m: 3,
      periods: [0, 0, 1, 0, 0, 0, 1],
      states: [NODATA, NODATA, OK, OK, OK, ALARM, OK],
    },
    {
      name: '2 of 3: OK once two good votes make two breaches impossible; ALARM on two of the last three, not in a row',
      n: 3,
      m: 2,
      periods: [1, 1, 1, 0, 1, 0, 1, 1],
      states: [NODATA, OK, OK, OK, OK, ALARM, OK, OK],
    },
    { name: '1 of 1: every period decides', n: 1, m: 1, periods: [0, 1, 0], states: [ALARM, OK, ALARM] },
  ])('M out of N — $name', async ({ n, m, periods, states }) => {
    // Prepare
    const alarm = await newAlarm({ EvaluationPeriods: n, DatapointsToAlarm: m });

    // Act
    const seen = await run(alarm, periods);

    // Assert
    expect(seen).toEqual(states);
  });

  it.each([
    { treatment: 'missing', states: [OK, OK, OK, NODATA, NODATA] },
    { treatment: 'ignore', states: [OK, OK, OK, OK, OK] },
    { treatment: 'breaching', states: [OK, OK, OK, ALARM, ALARM] },
    { treatment: 'notBreaching', states: [OK, OK, OK, OK, OK] },
  ])(
    'TreatMissingData $treatment: a good vote, then silence (the last datapoint decides while it is in the N + 2 range)',
    async ({ treatment, states }) => {
      // Prepare
      const alarm = await newAlarm({ TreatMissingData: treatment });

      // Act
      const seen = await run(alarm, [1, null, null, null, null]);

      // Assert
      expect(seen).toEqual(states);
    },
  );

  it.each([
    { treatment: 'missing', states: [ALARM, ALARM, ALARM, NODATA] },
    { treatment: 'ignore', states: [ALARM, ALARM, ALARM, ALARM] },
    { treatment: 'breaching', states: [ALARM, ALARM, ALARM, ALARM] },
    { treatment: 'notBreaching', states: [ALARM, ALARM, ALARM, OK] },
  ])('TreatMissingData $treatment: a bad vote, then silence', async ({ treatment, states }) => {
    // Prepare
    const alarm = await newAlarm({ TreatMissingData: treatment });

    // Act
    const seen = await run(alarm, [0, null, null, null]);

    // Assert
    expect(seen).toEqual(states);
  });

  it.each([
    // CloudWatch's documented table for 3 of 3 over a range of 5 (- missing, 0 good, X breaching).
    {
      row: '0 - X - X',
      periods: [1, null, 0, null, 0],
      missing: OK,
      ignore: OK,
      breaching: OK,
      notBreaching: OK,
    },
    {
      row: '- - - - 0',
      periods: [null, null, null, null, 1],
      missing: OK,
      ignore: OK,
      breaching: OK,
      notBreaching: OK,
    },
    {
      row: '- - - - -',
      periods: [null, null, null, null, null],
      missing: NODATA,
      ignore: NODATA,
      breaching: ALARM,
      notBreaching: OK,
    },
    {
      row: '0 X X - X',
      periods: [1, 0, 0, null, 0],
      missing: ALARM,
      ignore: ALARM,
      breaching: ALARM,
      notBreaching: ALARM,
    },
    {
      row: '- - X - -',
      periods: [null, null, 0, null, null],
      missing: ALARM,
      ignore: NODATA,
      breaching: ALARM,
      notBreaching: OK,
    },
  ])('3 of 3 with "$row": the documented state for each treatment', async ({ periods, ...expected }) => {
    for (const treatment of ['missing', 'ignore', 'breaching', 'notBreaching'] as const) {
      // Prepare
      const alarm = await newAlarm({
        EvaluationPeriods: 3,
        DatapointsToAlarm: 3,
        TreatMissingData: treatment,
      });

      // Act
      const seen = await run(alarm, periods);

      // Assert ("retain current state" is INSUFFICIENT_DATA for a new alarm)
      expect({ treatment, state: seen.at(-1) }).toEqual({ treatment, state: expected[treatment] });
    }
  });
});

describe('local CloudWatch: a region that is down', () => {
  it('answers every call 503 ServiceUnavailable, stops evaluating, and resumes when up; other regions carry on', async () => {
    // Prepare
    const alarm = await newAlarm({ TreatMissingData: 'breaching' });
    const other = cloudWatchClient({ endpoint: cloudWatch.endpoint, region: 'us-east-1', credentials });
    await run(alarm, [1]);

    // Act
    cloudWatch.setRegionDown(REGION, true);
    let refused: unknown;
    try {
      await client.send(new DescribeAlarmsCommand({ AlarmNames: [alarm.name] }));
    } catch (error) {
      refused = error;
    }
    const otherRegion = await other.send(new DescribeAlarmsCommand({}));
    const listed = cloudWatch.regionsDown();
    cloudWatch.evaluate(T0 + 10 * PERIOD_MS);
    const whileDown = cloudWatch.stateOf(REGION, alarm.name);
    cloudWatch.setRegionDown(REGION, false);
    cloudWatch.evaluate(T0 + 10 * PERIOD_MS);
    const afterwards = cloudWatch.stateOf(REGION, alarm.name);
    other.destroy();

    // Assert
    expect(refused).toMatchObject({
      name: 'ServiceUnavailable',
      Code: 'ServiceUnavailable',
      $metadata: { httpStatusCode: 503 },
    });
    expect(otherRegion.$metadata.httpStatusCode).toBe(200);
    expect(listed).toEqual([REGION]);
    expect(cloudWatch.regionsDown()).toEqual([]);
    expect(whileDown).toBe(OK);
    expect(afterwards).toBe(ALARM);
  });
});

describe('local CloudWatch: the evaluation timer', () => {
  it('evaluates every region once a scaled minute on its own', async () => {
    // Prepare: a real clock, a minute of 60 ms
    const timed = await startLocalCloudWatch({ timeScale: 0.001 });
    const timedClient = cloudWatchClient({ endpoint: timed.endpoint, region: REGION, credentials });
    try {
      await timedClient.send(
        new PutMetricAlarmCommand({
          AlarmName: 'timed',
          Namespace: 'TrafficManager',
          MetricName: 'vote',
          Statistic: 'Minimum',
          Period: 60,
          EvaluationPeriods: 1,
          Threshold: 1,
          ComparisonOperator: 'LessThanThreshold',
          TreatMissingData: 'notBreaching',
        }),
      );

      // Act
      const state = await eventually(
        () => timed.stateOf(REGION, 'timed'),
        (value) => value === 'OK',
        10_000,
      );

      // Assert
      expect(state).toBe(OK);
    } finally {
      timedClient.destroy();
      await timed.stop();
    }
  });
});
