/**
 * The local CloudWatch speaks the wire protocol of the production client (AWS JSON 1.0 with
 * awsQuery-compatible errors, gzip above 10 KB) and refuses what CloudWatch refuses, through a
 * client built by the production factory:
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_PutMetricData.html
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_PutMetricAlarm.html
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_DescribeAlarms.html
 */
import {
  DeleteAlarmsCommand,
  DescribeAlarmsCommand,
  GetMetricStatisticsCommand,
  PutMetricAlarmCommand,
  PutMetricDataCommand,
  type GetMetricStatisticsCommandInput,
  type MetricDatum,
  type PutMetricAlarmCommandInput,
  type PutMetricDataCommandInput,
} from '@aws-sdk/client-cloudwatch';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudWatchClient } from '../../functions/shared/aws-clients.js';
import { startLocalCloudWatch, type LocalCloudWatch } from '../../infra/local/cloudwatch/index.js';
import { rawRequest, SIGNED_ROUTE53 } from '../support/raw-http.js';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
/** Epoch ms; the stand-in's clock stands still here. */
const NOW = 1_800_000_000_000;
let cloudWatch: LocalCloudWatch;
let client: ReturnType<typeof cloudWatchClient>;

beforeAll(async () => {
  cloudWatch = await startLocalCloudWatch({ clock: { now: () => NOW }, evaluateOnTimer: false });
  client = cloudWatchClient({ endpoint: cloudWatch.endpoint, region: 'eu-west-1', credentials });
});
afterAll(async () => {
  client.destroy();
  await cloudWatch.stop();
});

interface Failure {
  readonly name: string;
  readonly code: string | undefined;
  readonly message: string;
  readonly status: number | undefined;
}

async function failure(promise: Promise<unknown>): Promise<Failure> {
  try {
    await promise;
  } catch (error) {
    const e = error as Error & { Code?: string; $metadata?: { httpStatusCode?: number } };
    return { name: e.name, code: e.Code, message: e.message, status: e.$metadata?.httpStatusCode };
  }
  throw new Error('expected the call to fail');
}

const datum = (overrides: Partial<MetricDatum> = {}): MetricDatum => ({
  MetricName: 'vote',
  Value: 1,
  ...overrides,
});
const putData = (input: Partial<PutMetricDataCommandInput>) =>
  client.send(new PutMetricDataCommand({ Namespace: 'TrafficManager', MetricData: [datum()], ...input }));

const alarm = (overrides: Partial<PutMetricAlarmCommandInput> = {}): PutMetricAlarmCommandInput => ({
  AlarmName: 'tm-shop-east',
  Namespace: 'TrafficManager',
  MetricName: 'vote',
  Dimensions: [{ Name: 'target', Value: 'shop-east' }],
  Statistic: 'Minimum',
  Period: 60,
  EvaluationPeriods: 1,
  Threshold: 1,
  ComparisonOperator: 'LessThanThreshold',
  TreatMissingData: 'missing',
  ...overrides,
});

describe('local CloudWatch: accepted calls', () => {
  it('accepts 1,000 metrics in one PutMetricData (the SDK gzips a body that large)', async () => {
    // Act
    const out = await putData({
      MetricData: Array.from({ length: 1000 }, (_, i) =>
        datum({ Dimensions: [{ Name: 'target', Value: `t${i}` }], Timestamp: new Date(NOW - 1000) }),
      ),
    });

    // Assert
    expect(out.$metadata.httpStatusCode).toBe(200);
  });

  it('accepts 30 dimensions, StorageResolution 1 and 60', async () => {
    // Act
    const out = await putData({
      MetricData: [
        datum({ StorageResolution: 1 }),
        datum({
          Dimensions: Array.from({ length: 30 }, (_, i) => ({ Name: `d${i}`, Value: 'v' })),
          StorageResolution: 60,
        }),
      ],
    });

    // Assert
    expect(out.$metadata.httpStatusCode).toBe(200);
  });

  it('creates an alarm in INSUFFICIENT_DATA and describes it by name and state, in its region only', async () => {
    // Act
    await client.send(new PutMetricAlarmCommand(alarm({ AlarmName: 'new-alarm', DatapointsToAlarm: 1 })));
    const byName = await client.send(new DescribeAlarmsCommand({ AlarmNames: ['new-alarm'] }));
    const byState = await client.send(
      new DescribeAlarmsCommand({ AlarmNames: ['new-alarm'], StateValue: 'OK' }),
    );

    // Assert
    const described = byName.MetricAlarms?.[0];
    expect(described).toMatchObject({
      AlarmName: 'new-alarm',
      AlarmArn: 'arn:aws:cloudwatch:eu-west-1:000000000000:alarm:new-alarm',
      StateValue: 'INSUFFICIENT_DATA',
      Namespace: 'TrafficManager',
      MetricName: 'vote',
      Dimensions: [{ Name: 'target', Value: 'shop-east' }],
      Statistic: 'Minimum',
      Period: 60,
      EvaluationPeriods: 1,
      DatapointsToAlarm: 1,
      Threshold: 1,
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'missing',
    });
    expect(described?.StateUpdatedTimestamp).toEqual(new Date(NOW));
    expect(byState.MetricAlarms).toEqual([]);
    expect(cloudWatch.stateOf('eu-west-1', 'new-alarm')).toBe('INSUFFICIENT_DATA');
    expect(cloudWatch.stateOf('us-east-1', 'new-alarm')).toBeUndefined();
  });

  it('pages DescribeAlarms with MaxRecords and NextToken, and deletes alarms', async () => {
    // Prepare
    for (const name of ['page-a', 'page-b', 'page-c'])
      await client.send(new PutMetricAlarmCommand(alarm({ AlarmName: name })));

    // Act
    const first = await client.send(new DescribeAlarmsCommand({ AlarmNamePrefix: 'page-', MaxRecords: 2 }));
    const second = await client.send(
      new DescribeAlarmsCommand({ AlarmNamePrefix: 'page-', MaxRecords: 2, NextToken: first.NextToken }),
    );
    await client.send(new DeleteAlarmsCommand({ AlarmNames: ['page-a', 'page-b', 'page-c'] }));
    const after = await client.send(new DescribeAlarmsCommand({ AlarmNamePrefix: 'page-' }));

    // Assert
    expect(first.MetricAlarms?.map((a) => a.AlarmName)).toEqual(['page-a', 'page-b']);
    expect(second.MetricAlarms?.map((a) => a.AlarmName)).toEqual(['page-c']);
    expect(second.NextToken).toBeUndefined();
    expect(after.MetricAlarms).toEqual([]);
  });
});

const tooMany = (n: number) =>
  Array.from({ length: n }, (_, i) => datum({ Dimensions: [{ Name: 'i', Value: `${i}` }] }));
const hours = (h: number) => new Date(NOW + h * 3600_000);

describe('local CloudWatch: PutMetricData refuses what CloudWatch refuses (HTTP 400)', () => {
  it.each([
    {
      name: 'a namespace beginning with AWS/',
      input: { Namespace: 'AWS/EC2' },
      code: 'InvalidParameterValue',
      message: /AWS\/EC2 for parameter Namespace is invalid/,
    },
    {
      name: 'no Namespace',
      input: { Namespace: undefined },
      code: 'MissingParameter',
      message: /Namespace is required/,
    },
    {
      name: 'no MetricData',
      input: { MetricData: undefined },
      code: 'MissingParameter',
      message: /MetricData is required/,
    },
    {
      name: '1,001 metrics',
      input: { MetricData: tooMany(1001) },
      code: 'InvalidParameterValue',
      message: /MetricData must not have a size greater than 1000/,
    },
    {
      name: 'a datum without MetricName',
      input: { MetricData: [{ Value: 1 } as MetricDatum] },
      code: 'MissingParameter',
      message: /MetricData.member.1.MetricName is required/,
    },
    {
      name: '31 dimensions',
      input: {
        MetricData: [
          datum({ Dimensions: Array.from({ length: 31 }, (_, i) => ({ Name: `d${i}`, Value: 'v' })) }),
        ],
      },
      code: 'InvalidParameterValue',
      message: /Dimensions must not have a size greater than 30/,
    },
    {
      name: 'two dimensions of one name',
      input: {
        MetricData: [
          datum({
            Dimensions: [
              { Name: 'a', Value: '1' },
              { Name: 'a', Value: '2' },
            ],
          }),
        ],
      },
      code: 'InvalidParameterValue',
      message: /must be unique/,
    },
    {
      name: 'StorageResolution 5',
      input: { MetricData: [datum({ StorageResolution: 5 })] },
      code: 'InvalidParameterValue',
      message: /The value 5 for parameter MetricData.member.1.StorageResolution is invalid/,
    },
    {
      name: 'a NaN value',
      input: { MetricData: [datum({ Value: Number.NaN })] },
      code: 'InvalidParameterValue',
      message: /MetricData.member.1.Value is invalid/,
    },
    {
      name: 'a value over 2^360',
      input: { MetricData: [datum({ Value: 2 ** 361 })] },
      code: 'InvalidParameterValue',
      message: /-2\^360 to 2\^360/,
    },
    {
      name: 'no value at all',
      input: { MetricData: [{ MetricName: 'vote' }] },
      code: 'MissingParameter',
      message: /MetricData.member.1.Value is required/,
    },
    {
      name: 'a timestamp 3 hours ahead',
      input: { MetricData: [datum({ Timestamp: hours(3) })] },
      code: 'InvalidParameterValue',
      message: /no more than two hours in the future/,
    },
    {
      name: 'a timestamp 15 days old',
      input: { MetricData: [datum({ Timestamp: hours(-15 * 24) })] },
      code: 'InvalidParameterValue',
      message: /no more than two weeks in the past/,
    },
    {
      name: 'an unknown unit',
      input: { MetricData: [datum({ Unit: 'Parsecs' as never })] },
      code: 'ValidationError',
      message: /Member must satisfy enum value set/,
    },
    {
      name: 'StatisticValues (not supported here)',
      input: {
        MetricData: [
          datum({ Value: undefined, StatisticValues: { SampleCount: 2, Sum: 1, Minimum: 0, Maximum: 1 } }),
        ],
      },
      code: 'UnsupportedOperation',
      message: /local CloudWatch does not support StatisticValues in PutMetricData/,
    },
    {
      name: 'Values with Counts (not supported here)',
      input: { MetricData: [datum({ Value: undefined, Values: [0, 1], Counts: [1, 3] })] },
      code: 'UnsupportedOperation',
      message: /local CloudWatch does not support Values in PutMetricData/,
    },
    {
      name: 'EntityMetricData (not supported here)',
      input: { EntityMetricData: [{ MetricData: [datum()] }] },
      code: 'UnsupportedOperation',
      message: /local CloudWatch does not support EntityMetricData/,
    },
  ])('refuses $name: $code', async ({ input, code, message }) => {
    // Act
    const refused = await failure(putData(input as Partial<PutMetricDataCommandInput>));

    // Assert
    expect(refused.code).toBe(code);
    expect(refused.message).toMatch(message);
    expect(refused.status).toBe(400);
  });

  it('raises the SDK exception CloudWatch models for the code', async () => {
    // Act
    const refused = await failure(putData({ Namespace: 'AWS/Lambda' }));

    // Assert
    expect(refused.name).toBe('InvalidParameterValueException');
  });

  it('accepts the edges: a timestamp 2 hours ahead and 14 days old', async () => {
    // Act
    const out = await putData({
      MetricData: [datum({ Timestamp: hours(2) }), datum({ Timestamp: hours(-14 * 24) })],
    });

    // Assert
    expect(out.$metadata.httpStatusCode).toBe(200);
  });
});

describe('local CloudWatch: PutMetricAlarm, DescribeAlarms and DeleteAlarms refuse what CloudWatch refuses', () => {
  it.each([
    {
      name: 'Period 45',
      input: { Period: 45 },
      code: 'InvalidParameterValue',
      message: /10, 20, 30, and any multiple of 60/,
    },
    {
      name: 'no Period',
      input: { Period: undefined },
      code: 'MissingParameter',
      message: /Period is required/,
    },
    {
      name: 'no Threshold',
      input: { Threshold: undefined },
      code: 'MissingParameter',
      message: /Threshold is required/,
    },
    {
      name: 'no MetricName',
      input: { MetricName: undefined },
      code: 'MissingParameter',
      message: /MetricName is required/,
    },
    {
      name: 'a Statistic outside the set',
      input: { Statistic: 'Median' as never },
      code: 'ValidationError',
      message: /\[SampleCount, Average, Sum, Minimum, Maximum\]/,
    },
    {
      name: 'Statistic and ExtendedStatistic together',
      input: { ExtendedStatistic: 'p99' },
      code: 'InvalidParameterCombination',
      message: /Exactly one of the parameters Statistic or ExtendedStatistic/,
    },
    {
      name: 'ExtendedStatistic (not supported here)',
      input: { Statistic: undefined, ExtendedStatistic: 'p99' },
      code: 'UnsupportedOperation',
      message: /does not support percentile alarms \(ExtendedStatistic p99\)/,
    },
    {
      name: 'metric math (not supported here)',
      input: {
        Namespace: undefined,
        MetricName: undefined,
        Statistic: undefined,
        Period: undefined,
        Metrics: [{ Id: 'e1', Expression: 'MIN(METRICS())' }],
      },
      code: 'UnsupportedOperation',
      message: /does not support metric math alarms/,
    },
    {
      name: 'an anomaly band operator (not supported here)',
      input: { ComparisonOperator: 'LessThanLowerThreshold' as const },
      code: 'UnsupportedOperation',
      message: /anomaly detection/,
    },
    {
      name: 'alarm actions (not supported here)',
      input: { AlarmActions: ['arn:aws:sns:eu-west-1:000000000000:t'] },
      code: 'UnsupportedOperation',
      message: /alarm actions \(AlarmActions\)/,
    },
    {
      name: 'TreatMissingData "sometimes"',
      input: { TreatMissingData: 'sometimes' },
      code: 'InvalidParameterValue',
      message: /sometimes for parameter TreatMissingData is invalid/,
    },
    {
      name: 'DatapointsToAlarm over EvaluationPeriods',
      input: { EvaluationPeriods: 3, DatapointsToAlarm: 4 },
      code: 'InvalidParameterCombination',
      message: /DatapointsToAlarm \(4\) must be less than or equal to EvaluationPeriods \(3\)/,
    },
    {
      name: 'a one-minute alarm evaluating more than a day',
      input: { EvaluationPeriods: 1441 },
      code: 'InvalidParameterCombination',
      message: /must not exceed 86400 s/,
    },
    {
      name: '31 dimensions',
      input: { Dimensions: Array.from({ length: 31 }, (_, i) => ({ Name: `d${i}`, Value: 'v' })) },
      code: 'InvalidParameterValue',
      message: /must not have a size greater than 30/,
    },
  ])('PutMetricAlarm refuses $name: $code', async ({ input, code, message }) => {
    // Act
    const refused = await failure(
      client.send(new PutMetricAlarmCommand(alarm(input as Partial<PutMetricAlarmCommandInput>))),
    );

    // Assert
    expect(refused.code).toBe(code);
    expect(refused.message).toMatch(message);
    expect(refused.status).toBe(400);
  });

  it('accepts an alarm on an AWS/ namespace (alarms may watch AWS metrics; only publishing there is refused)', async () => {
    // Act
    const out = await client.send(
      new PutMetricAlarmCommand(alarm({ AlarmName: 'aws-ns', Namespace: 'AWS/Lambda' })),
    );

    // Assert
    expect(out.$metadata.httpStatusCode).toBe(200);
  });

  it('DeleteAlarms of an unknown alarm is ResourceNotFound (404) and deletes none of the others', async () => {
    // Prepare
    await client.send(new PutMetricAlarmCommand(alarm({ AlarmName: 'kept' })));

    // Act
    const refused = await failure(
      client.send(new DeleteAlarmsCommand({ AlarmNames: ['kept', 'no-such-alarm'] })),
    );

    // Assert
    expect(refused).toMatchObject({ name: 'ResourceNotFound', code: 'ResourceNotFound', status: 404 });
    expect(cloudWatch.stateOf('eu-west-1', 'kept')).toBe('INSUFFICIENT_DATA');
  });

  it('DescribeAlarms refuses AlarmNames with AlarmNamePrefix, and a forged NextToken', async () => {
    // Act
    const both = await failure(
      client.send(new DescribeAlarmsCommand({ AlarmNames: ['a'], AlarmNamePrefix: 'a' })),
    );
    const forged = await failure(client.send(new DescribeAlarmsCommand({ NextToken: '%%%' })));

    // Assert
    expect(both.code).toBe('InvalidParameterCombination');
    expect(forged.code).toBe('InvalidNextToken');
  });
});

describe('local CloudWatch: the guard', () => {
  it.each([
    { name: 'no Authorization header', authorization: undefined, code: 'MissingAuthenticationToken' },
    {
      name: 'a signature for another service (route53)',
      authorization: SIGNED_ROUTE53,
      code: 'IncompleteSignature',
    },
  ])(
    'refuses a request with $name (403, in CloudWatch JSON error shape)',
    async ({ authorization, code }) => {
      // Act
      const reply = await rawRequest(
        Number(new URL(cloudWatch.endpoint).port),
        [
          'POST / HTTP/1.1',
          'Host: 127.0.0.1',
          'Content-Type: application/x-amz-json-1.0',
          'X-Amz-Target: GraniteServiceVersion20100801.DescribeAlarms',
          ...(authorization === undefined ? [] : [`Authorization: ${authorization}`]),
          'Content-Length: 2',
          'Connection: close',
          '',
          '{}',
        ].join('\r\n'),
      );

      // Assert
      expect(reply.status).toBe(403);
      expect(reply.headers['x-amzn-query-error']).toBe(`${code};Sender`);
      expect(JSON.parse(reply.body)).toMatchObject({ __type: `com.amazonaws.cloudwatch#${code}` });
    },
  );

  it('refuses a gzip body that inflates past 1 MB (413), without inflating the rest', async () => {
    // Prepare: 2 MB of JSON whitespace, a few KB compressed
    const body = gzipSync(Buffer.alloc(2 * 1024 * 1024, ' '));
    const head = [
      'POST / HTTP/1.1',
      'Host: 127.0.0.1',
      'Content-Type: application/x-amz-json-1.0',
      'Content-Encoding: gzip',
      'X-Amz-Target: GraniteServiceVersion20100801.PutMetricData',
      `Authorization: ${SIGNED_ROUTE53.replace('/route53/', '/monitoring/')}`,
      `Content-Length: ${body.length}`,
      'Connection: close',
      '',
      '',
    ].join('\r\n');

    // Act
    const reply = await rawRequest(
      Number(new URL(cloudWatch.endpoint).port),
      Buffer.concat([Buffer.from(head), body]),
    );

    // Assert
    expect(reply.status).toBe(413);
    expect(reply.headers['x-amzn-query-error']).toBe('RequestEntityTooLarge;Sender');
  });
});

describe('local CloudWatch: GetMetricStatistics', () => {
  const query = (overrides: Partial<GetMetricStatisticsCommandInput> = {}) =>
    client.send(
      new GetMetricStatisticsCommand({
        Namespace: 'TM/Stats',
        MetricName: 'vote',
        Dimensions: [{ Name: 'Target', Value: 't-1' }],
        StartTime: new Date(NOW - 5 * 60_000),
        EndTime: new Date(NOW),
        Period: 60,
        Statistics: ['Minimum', 'SampleCount'],
        ...overrides,
      }),
    );

  it('answers each period holding data, with the statistics asked for, and an AWS/ namespace services publish to', async () => {
    const minute = (n: number) => new Date(NOW - n * 60_000);
    await client.send(
      new PutMetricDataCommand({
        Namespace: 'TM/Stats',
        MetricData: [
          { ...datum({ Value: 1, Timestamp: minute(4) }), Dimensions: [{ Name: 'Target', Value: 't-1' }] },
          { ...datum({ Value: 0, Timestamp: minute(2) }), Dimensions: [{ Name: 'Target', Value: 't-1' }] },
          { ...datum({ Value: 1, Timestamp: minute(2) }), Dimensions: [{ Name: 'Target', Value: 't-1' }] },
          { ...datum({ Value: 0, Timestamp: minute(2) }), Dimensions: [{ Name: 'Target', Value: 'other' }] },
        ],
      }),
    );
    const { Datapoints = [] } = await query();
    expect(
      Datapoints.map((d) => [d.Timestamp?.getTime(), d.Minimum, d.SampleCount]).sort(
        (a, b) => Number(a[0]) - Number(b[0]),
      ),
    ).toEqual([
      [minute(4).getTime(), 1, 1],
      [minute(2).getTime(), 0, 2],
    ]);
    const aws = await query({ Namespace: 'AWS/Route53', MetricName: 'HealthCheckStatus', Dimensions: [] });
    expect(aws.Datapoints).toEqual([]);
  });

  it.each<[string, Partial<GetMetricStatisticsCommandInput>, string, RegExp]>([
    [
      'StartTime not before EndTime',
      { StartTime: new Date(NOW) },
      'InvalidParameterValue',
      /StartTime must be less than/,
    ],
    [
      'a Period of 45 s',
      { Period: 45 },
      'InvalidParameterValue',
      /Period must be 1, 5, 10, 30 or a multiple of 60/,
    ],
    ['no statistic', { Statistics: [] }, 'MissingParameter', /Statistics/],
    [
      'more than 1,440 datapoints',
      { StartTime: new Date(NOW - 2 * 86_400_000) },
      'InvalidParameterCombination',
      /exceeds the limit of 1440/,
    ],
  ])('refuses %s', async (_name, overrides, code, message) => {
    const failed = await failure(query(overrides));
    expect(failed.status).toBe(400);
    expect(failed.code ?? failed.name).toBe(code);
    expect(failed.message).toMatch(message);
  });

  it('refuses percentiles as not supported here', async () => {
    const failed = await failure(query({ Statistics: undefined, ExtendedStatistics: ['p99'] }));
    expect(failed.message).toMatch(/does not support percentile statistics/);
  });
});
