/**
 * The local CloudWatch: the part of CloudWatch the probe regions' votes use (PutMetricData,
 * PutMetricAlarm, DescribeAlarms, DeleteAlarms), over the protocol the production client
 * `@aws-sdk/client-cloudwatch` speaks: AWS JSON 1.0 (`POST /`, `X-Amz-Target:
 * GraniteServiceVersion20100801.<Operation>`, SigV4 for `monitoring`), bodies of 10 KB and more
 * gzip-compressed by the SDK, errors in the awsQuery-compatible shape (errors.ts).
 *
 * One server serves every region: the region is the one the request is signed for (the SigV4
 * credential scope), as each real region has its own endpoint; the client factory signs for the
 * region it is built for. Each region has its own metrics and alarms (store.ts), evaluated
 * once a (time-scaled) minute, or by `evaluate(now)` in tests. `setRegionDown` stops a region:
 * every call signed for it is answered 503 ServiceUnavailable and its alarms are no longer
 * evaluated (they keep the state they had).
 */
import { gunzipSync } from 'node:zlib';
import type { Clock } from '../../../shared/clock.js';
import { awsJsonReply, jsonObjectOf, signedRegionOf } from '../aws-json.js';
import { startGuardedHttpServer, type GuardedRequest, type HttpReply } from '../http-guard.js';
import type { AlarmStates } from './alarm-states.js';
import { alarmDefinitionOf } from './alarm-input.js';
import { alarmNamesOf, describeAlarms } from './describe-alarms.js';
import { CloudWatchApiError } from './errors.js';
import type { JsonObject } from './json-fields.js';
import { metricDataOf, type Datapoint } from './metric-data.js';
import { metricStatistics } from './metric-statistics.js';
import { RegionStore } from './store.js';

export interface LocalCloudWatchOptions {
  /** @default - the system clock */
  readonly clock?: Clock;
  /** Every CloudWatch duration (periods, the evaluation minute, the timestamp window) is multiplied by it. @default 1 */
  readonly timeScale?: number;
  /** Evaluate every region's alarms once a (scaled) minute on a timer; tests turn it off and call `evaluate`. @default true */
  readonly evaluateOnTimer?: boolean;
  /** Handler failures (answered 500), for the log. @default - ignored */
  readonly onError?: (error: unknown) => void;
}

/** The local CloudWatch as startLocalCloudWatch returns it; the AlarmStates the local Route 53 reads. */
export type LocalCloudWatch = Awaited<ReturnType<typeof startLocalCloudWatch>>;

/** The SDK's service target and the operations served. */
const TARGET_PREFIX = 'GraniteServiceVersion20100801';
/** PutMetricData's request limit (1 MB), on the body as sent and once decompressed. */
const MAX_BODY_BYTES = 1024 * 1024;
const EVALUATION_MINUTE_MS = 60_000;

/** An operation's result; one with none answers `{}`. */
type Operation = (input: JsonObject, store: RegionStore, region: string) => unknown;

export async function startLocalCloudWatch(options: LocalCloudWatchOptions = {}) {
  const clock: Clock = options.clock ?? { now: () => Date.now() };
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale > 0)) throw new RangeError(`timeScale must be a positive number, got ${timeScale}`);
  const stores = new Map<string, RegionStore>();
  const down = new Set<string>();
  const storeOf = (region: string) => {
    let store = stores.get(region);
    if (store === undefined) stores.set(region, (store = new RegionStore(timeScale)));
    return store;
  };

  const operations: Readonly<Record<string, Operation>> = {
    PutMetricData: (input, store) =>
      store.putMetricData(metricDataOf(input, { now: clock.now(), timeScale })),
    PutMetricAlarm: (input, store) => store.putAlarm(alarmDefinitionOf(input), clock.now()),
    DescribeAlarms: (input, store, region) => describeAlarms(store, input, region),
    GetMetricStatistics: (input, store) => metricStatistics(store, input, timeScale),
    DeleteAlarms: (input, store) => store.deleteAlarms(alarmNamesOf(input, true) as string[]),
  };

  function serve(request: GuardedRequest): HttpReply {
    try {
      const region = signedRegionOf(request);
      if (down.has(region))
        throw new CloudWatchApiError(
          'ServiceUnavailable',
          `Service Unavailable (region ${region} is down in the local CloudWatch)`,
        );
      const target = String(request.headers['x-amz-target'] ?? '');
      const [prefix, name = ''] = target.split('.');
      if (
        request.method !== 'POST' ||
        request.url.pathname !== '/' ||
        prefix !== TARGET_PREFIX ||
        !Object.hasOwn(operations, name)
      )
        throw new CloudWatchApiError(
          'UnknownOperationException',
          `Unknown operation ${JSON.stringify(target)}`,
        );
      const operation = operations[name] as Operation;
      return awsJsonReply('1.0', 200, operation(inputOf(request), storeOf(region), region) ?? {});
    } catch (error) {
      if (error instanceof CloudWatchApiError)
        return errorReply(error.code, error.shape, error.status, error.message);
      throw error;
    }
  }

  const server = await startGuardedHttpServer({
    ...(options.onError === undefined ? {} : { onError: options.onError }),
    caller: { sigv4Service: 'monitoring' },
    maxBodyBytes: MAX_BODY_BYTES,
    handle: serve,
    errorReply: (error) => errorReply(error.code, error.code, error.status, error.message),
  });

  /** Evaluates the alarms of every region that is up, at `now` (epoch ms). @default now - the clock */
  const evaluate = (now = clock.now()) => {
    for (const [region, store] of stores) if (!down.has(region)) store.evaluate(now);
  };
  const timer =
    options.evaluateOnTimer === false
      ? undefined
      : setInterval(() => evaluate(), EVALUATION_MINUTE_MS * timeScale);
  timer?.unref();

  return {
    /** `http://127.0.0.1:<port>`, for the SDK's `endpoint`. */
    endpoint: server.endpoint,
    stateOf: ((region, alarmName) =>
      stores.get(region)?.alarm(alarmName)?.state) satisfies AlarmStates['stateOf'],
    evaluate,
    /** A datapoint an AWS service publishes itself (e.g. Route 53's `AWS/Route53` HealthCheckStatus), in `region`. */
    publishServiceMetric: (region: string, point: Datapoint) => storeOf(region).putMetricData([point]),
    /** A down region answers every call 503 ServiceUnavailable and its alarms are not evaluated. */
    setRegionDown: (region: string, isDown: boolean) => {
      if (isDown) down.add(region);
      else down.delete(region);
    },
    regionsDown: () => [...down].sort(),
    stop: () => {
      if (timer !== undefined) clearInterval(timer);
      return server.stop();
    },
  };
}

/** The JSON body, gunzipped when the SDK compressed it, bounded by the request limit. */
function inputOf(request: GuardedRequest): JsonObject {
  const encoding = String(request.headers['content-encoding'] ?? 'identity').toLowerCase();
  let body = request.body;
  if (encoding === 'gzip') {
    try {
      body = gunzipSync(body, { maxOutputLength: MAX_BODY_BYTES });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        throw new CloudWatchApiError(
          'RequestEntityTooLarge',
          `Request body larger than ${MAX_BODY_BYTES} bytes once decompressed`,
        );
      throw new CloudWatchApiError('SerializationException', 'The request body is not valid gzip');
    }
  } else if (encoding !== 'identity')
    throw new CloudWatchApiError(
      'SerializationException',
      `Content-Encoding ${encoding} is not supported (gzip is)`,
    );
  return jsonObjectOf(body, (message) => new CloudWatchApiError('SerializationException', message));
}

/** `__type` names the exception shape; `x-amzn-query-error` the query code and fault, which the SDK reads first. */
function errorReply(code: string, shape: string, status: number, message: string): HttpReply {
  return awsJsonReply(
    '1.0',
    status,
    { __type: `com.amazonaws.cloudwatch#${shape}`, message },
    { 'x-amzn-query-error': `${code};${status >= 500 ? 'Receiver' : 'Sender'}` },
  );
}
