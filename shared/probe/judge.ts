/**
 * How one profile judges what a shared probe observed (SPEC §2): its own timeout (an
 * answer after it counts as no answer), then the probe's own failure, then its expected
 * status codes, then its expected body (`expectedBody`, when set), then its latency limit
 * (`maxLatencyMs`, when set). The probe runs with the longest timeout among the profiles it
 * serves, so every profile's judgement is exact for its own settings.
 */
import type { ExpectedBody, StatusCodeRange } from '../profile/types.js';
import { bodyMatches, describeExpectedBody } from './body-match.js';
import { FailureReason, type ObservedBody, type ProbeObservation, type ProbeResult } from './result.js';
import type { ProbeJudging } from './target.js';

export function judgeObservation(observation: ProbeObservation, judging: ProbeJudging): ProbeResult {
  if (observation.durationMs > judging.timeoutMs) {
    const ownDeadline =
      !observation.answered &&
      observation.reason === FailureReason.Timeout &&
      observation.timeoutMs === judging.timeoutMs;
    return resultOf(
      observation,
      undefined,
      FailureReason.Timeout,
      ownDeadline ? observation.detail : noAnswerWithin(judging.timeoutMs),
    );
  }
  if (!observation.answered)
    return resultOf(observation, observation.latencyMs, observation.reason, observation.detail);
  const ranges = judging.expectedStatusCodeRanges;
  if (observation.statusCode !== undefined && !inRanges(observation.statusCode, ranges)) {
    const detail = `status ${observation.statusCode}, expected ${rangesText(ranges)}`;
    return resultOf(observation, observation.latencyMs, FailureReason.Status, detail);
  }
  const expected = judging.expectedBody;
  const body = observation.body ?? { text: '', bytes: 0, capped: false };
  if (expected !== undefined && !bodyMatches(expected, body.text))
    return resultOf(observation, observation.latencyMs, FailureReason.Body, bodyNotFound(expected, body));
  const max = judging.maxLatencyMs;
  if (max !== undefined && observation.latencyMs !== undefined && observation.latencyMs > max) {
    const detail = `slow: ${Math.round(observation.latencyMs)} ms > ${max} ms`;
    return resultOf(observation, observation.latencyMs, FailureReason.Slow, detail);
  }
  return resultOf(observation, observation.latencyMs);
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The result of one check of `observation`: passed without a `reason`, failed with one. Built
 * as one object (a check is judged for every probe of every round), the status code and the
 * certificate only when the probe saw them.
 */
function resultOf(
  observation: ProbeObservation,
  latencyMs: number | undefined,
  reason?: FailureReason,
  detail = '',
): ProbeResult {
  const { startedAt, timings } = observation;
  const result: Writable<ProbeResult> =
    reason === undefined
      ? { startedAt, timings, latencyMs, ok: true }
      : { startedAt, timings, latencyMs, ok: false, reason, detail };
  if (observation.statusCode !== undefined) result.statusCode = observation.statusCode;
  if (observation.certificate !== undefined) result.certificate = observation.certificate;
  return result;
}

/** The judgement when a judge's own deadline passed before the probe (running to a longer one) ended. */
export function judgedTimeout(startedAt: number, timeoutMs: number): ProbeResult {
  return {
    startedAt,
    timings: {},
    latencyMs: undefined,
    ok: false,
    reason: FailureReason.Timeout,
    detail: noAnswerWithin(timeoutMs),
  };
}

/** 'body: "ok" not found in the first 65,536 bytes' ('in the 12 bytes of the body' when it was shorter). */
function bodyNotFound(expected: ExpectedBody, body: ObservedBody): string {
  const bytes = `${body.bytes.toLocaleString('en-US')} ${body.bytes === 1 ? 'byte' : 'bytes'}`;
  const where = body.capped
    ? `the first ${bytes}`
    : body.bytes === 0
      ? 'an empty body'
      : `the ${bytes} of the body`;
  return `body: ${describeExpectedBody(expected)} not found in ${where}`;
}

function noAnswerWithin(timeoutMs: number): string {
  return `no answer within ${timeoutMs} ms`;
}

function inRanges(statusCode: number, ranges: readonly StatusCodeRange[]): boolean {
  for (const range of ranges) if (statusCode >= range.min && statusCode <= range.max) return true;
  return false;
}

function rangesText(ranges: readonly StatusCodeRange[]): string {
  return ranges.length === 0 ? 'none' : ranges.map((r) => `${r.min}-${r.max}`).join(', ');
}
