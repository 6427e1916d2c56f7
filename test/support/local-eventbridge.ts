/**
 * A local EventBridge for the tests (the local stack does not start one: its evaluator logs its events): `PutEvents` over the real wire
 * protocol (AWS JSON 1.1, `X-Amz-Target: AWSEvents.PutEvents`), so the real SDK client runs
 * against it with an endpoint override. It refuses what EventBridge refuses:
 *
 * - more than 10 entries, or none (`ValidationException`);
 * - entries whose total size is over 256 KB, counted as EventBridge counts it (Time 14 bytes,
 *   the UTF-8 bytes of Source, DetailType, Detail and each Resource) (`ValidationException`);
 * - per entry: a missing Source, DetailType or Detail (`InvalidArgument`), a Detail that is
 *   not a JSON object (`MalformedDetail`), a bus that does not exist (`ResourceNotFoundException`).
 *
 * Faults for tests: `failNext(n)` answers the next n requests with a 500 InternalException,
 * `failNextEntries(n)` fails every entry of the next n requests with `InternalFailure`
 * (a partial failure the SDK does not retry). Accepted events are kept in order.
 */
import { randomUUID } from 'node:crypto';
import {
  PUT_EVENTS_MAX_BYTES,
  PUT_EVENTS_MAX_ENTRIES,
  putEventsEntrySize,
} from '../../functions/evaluator/event-sinks.js';
import { AwsJsonError } from '../../infra/local/aws-json.js';
import { startGuardedHttpServer, type HttpReply } from '../../infra/local/http-guard.js';

interface PutEventsEntry {
  readonly Source?: string;
  readonly DetailType?: string;
  readonly Detail?: string;
  readonly EventBusName?: string;
  readonly Resources?: string[];
}

/** An event EventBridge accepted. */
export interface DeliveredEvent {
  readonly id: string;
  readonly eventBusName: string;
  readonly source: string;
  readonly detailType: string;
  readonly detail: Record<string, unknown>;
}

export interface LocalEventBridge {
  readonly endpoint: string;
  /** Accepted events, in order. */
  readonly events: readonly DeliveredEvent[];
  /** PutEvents requests received (accepted or not). */
  readonly requests: () => number;
  /** The next `n` requests fail with HTTP 500 InternalException. */
  failNext(n: number): void;
  /** Every entry of the next `n` requests fails with ErrorCode InternalFailure (HTTP 200). */
  failNextEntries(n: number): void;
  stop(): Promise<void>;
}

export interface LocalEventBridgeOptions {
  /** Buses that exist besides `default`. */
  readonly eventBuses?: readonly string[];
  /** @default 0 (any free port) */
  readonly port?: number;
}

export async function startLocalEventBridge(
  options: LocalEventBridgeOptions = {},
): Promise<LocalEventBridge> {
  const buses = new Set(['default', ...(options.eventBuses ?? [])]);
  const events: DeliveredEvent[] = [];
  let requests = 0;
  let failRequests = 0;
  let failEntries = 0;

  const server = await startGuardedHttpServer({
    ...(options.port === undefined ? {} : { port: options.port }),
    caller: { sigv4Service: 'events' },
    // EventBridge refuses a request whose entries are over 256 KB; the JSON around them is small.
    maxBodyBytes: 2 * PUT_EVENTS_MAX_BYTES,
    handle: ({ method, headers, body }) => {
      try {
        if (method !== 'POST')
          throw new AwsJsonError('UnknownOperationException', `${method} is not supported`, 400);
        const target = String(headers['x-amz-target'] ?? '');
        if (target !== 'AWSEvents.PutEvents')
          throw new AwsJsonError('UnknownOperationException', `Unknown operation ${target}`, 400);
        requests += 1;
        return json(200, putEvents(parse(body.toString('utf8'))));
      } catch (error) {
        return errorReply(error);
      }
    },
    errorReply: (error) => errorReply(new AwsJsonError(error.code, error.message, error.status)),
  });

  function putEvents(input: { Entries?: unknown }) {
    const entries = input.Entries;
    if (!Array.isArray(entries) || entries.length === 0)
      throw new AwsJsonError(
        'ValidationException',
        "1 validation error detected: Value at 'entries' failed to satisfy constraint: Member must have length greater than or equal to 1",
        400,
      );
    if (entries.length > PUT_EVENTS_MAX_ENTRIES)
      throw new AwsJsonError(
        'ValidationException',
        `1 validation error detected: Value at 'entries' failed to satisfy constraint: Member must have length less than or equal to ${PUT_EVENTS_MAX_ENTRIES}`,
        400,
      );
    const typed = entries as PutEventsEntry[];
    if (typed.reduce((sum, e) => sum + putEventsEntrySize(e), 0) > PUT_EVENTS_MAX_BYTES)
      throw new AwsJsonError(
        'ValidationException',
        'Total size of the entries in the request is over the limit.',
        400,
      );
    if (failRequests > 0) {
      failRequests -= 1;
      throw new AwsJsonError('InternalException', 'Injected failure', 500);
    }
    const failAll = failEntries > 0;
    if (failAll) failEntries -= 1;
    const results = typed.map((entry) =>
      failAll ? failure('InternalFailure', 'Injected failure') : accept(entry),
    );
    return { FailedEntryCount: results.filter((r) => 'ErrorCode' in r).length, Entries: results };
  }

  function accept(entry: PutEventsEntry) {
    if (!entry.Source || !entry.DetailType || entry.Detail === undefined)
      return failure('InvalidArgument', 'Parameters Source, DetailType and Detail are required.');
    const bus = entry.EventBusName ?? 'default';
    if (!buses.has(bus)) return failure('ResourceNotFoundException', `Event bus ${bus} does not exist.`);
    let detail: unknown;
    try {
      detail = JSON.parse(entry.Detail);
    } catch {
      detail = undefined;
    }
    if (typeof detail !== 'object' || detail === null || Array.isArray(detail))
      return failure('MalformedDetail', 'Detail is malformed.');
    const id = randomUUID();
    events.push({
      id,
      eventBusName: bus,
      source: entry.Source,
      detailType: entry.DetailType,
      detail: detail as Record<string, unknown>,
    });
    return { EventId: id };
  }

  return {
    endpoint: server.endpoint,
    events,
    requests: () => requests,
    failNext: (n) => {
      failRequests = n;
    },
    failNextEntries: (n) => {
      failEntries = n;
    },
    stop: () => server.stop(),
  };
}

function parse(body: string): { Entries?: unknown } {
  try {
    const value: unknown = JSON.parse(body);
    if (typeof value === 'object' && value !== null) return value as { Entries?: unknown };
  } catch {
    // answered below
  }
  throw new AwsJsonError('SerializationException', 'The request body is not a JSON object', 400);
}

function failure(code: string, message: string) {
  return { ErrorCode: code, ErrorMessage: message };
}

function json(status: number, body: unknown): HttpReply {
  return { status, headers: { 'content-type': 'application/x-amz-json-1.1' }, body: JSON.stringify(body) };
}

function errorReply(error: unknown): HttpReply {
  const api =
    error instanceof AwsJsonError
      ? error
      : new AwsJsonError('InternalException', (error as Error).message, 500);
  return {
    status: api.status,
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-errortype': api.code },
    body: JSON.stringify({ __type: api.code, message: api.message }),
  };
}
