import { describe, expect, it } from 'vitest';
import { judgedTimeout, judgeObservation } from '../../shared/probe/judge.js';
import { FailureReason, type ProbeObservation } from '../../shared/probe/result.js';
import type { ProbeJudging } from '../../shared/probe/target.js';

const T0 = 1_700_000_000_000;
const timings = { connect: 1, firstByte: 3, lastByte: 4 };
const certificate = { notAfter: T0 + 86_400_000, subject: 'shop.example.com', issuer: 'R11' };
const judging: ProbeJudging = {
  timeoutMs: 5_000,
  expectedStatusCodeRanges: [{ min: 200, max: 299 }],
  healthRule: { kind: 'consecutiveFailures' },
  toleratedNumberOfFailures: 3,
  intervalMs: 10_000,
};
const answered = (fields: Partial<ProbeObservation> = {}): ProbeObservation =>
  ({
    answered: true,
    startedAt: T0,
    durationMs: 4,
    timeoutMs: 5_000,
    timings,
    latencyMs: 3.5,
    statusCode: 200,
    ...fields,
  }) as ProbeObservation;
const unanswered = (fields: Partial<ProbeObservation> = {}): ProbeObservation =>
  ({
    answered: false,
    startedAt: T0,
    durationMs: 2,
    timeoutMs: 5_000,
    timings: { connect: 1 },
    latencyMs: undefined,
    reason: FailureReason.Reset,
    detail: 'connection reset',
    ...fields,
  }) as ProbeObservation;

// Exact results (toStrictEqual: no extra keys, no keys set to undefined but latencyMs), since
// the rule, the check summaries and the verdict items read them field by field.
describe('judgeObservation: one profile’s judgement of what a probe saw', () => {
  it.each([
    {
      name: 'an expected status within the timeout passes, with its status, timings and latency',
      observation: answered(),
      judging,
      result: { startedAt: T0, timings, latencyMs: 3.5, statusCode: 200, ok: true },
    },
    {
      name: 'an HTTPS answer carries the certificate it saw',
      observation: answered({ certificate }),
      judging,
      result: { startedAt: T0, timings, latencyMs: 3.5, statusCode: 200, certificate, ok: true },
    },
    {
      name: 'a TCP connect (no status) passes',
      observation: answered({ statusCode: undefined, timings: { connect: 1 }, latencyMs: 1 }),
      judging: { ...judging, expectedStatusCodeRanges: [] },
      result: { startedAt: T0, timings: { connect: 1 }, latencyMs: 1, ok: true },
    },
    {
      name: 'an unexpected status fails with reason status',
      observation: answered({ statusCode: 503 }),
      judging,
      result: {
        startedAt: T0,
        timings,
        latencyMs: 3.5,
        statusCode: 503,
        ok: false,
        reason: 'status',
        detail: 'status 503, expected 200-299',
      },
    },
    {
      name: 'a failed probe fails with its own reason and detail',
      observation: unanswered(),
      judging,
      result: {
        startedAt: T0,
        timings: { connect: 1 },
        latencyMs: undefined,
        ok: false,
        reason: 'reset',
        detail: 'connection reset',
      },
    },
    {
      name: 'an answer after this profile’s timeout (the probe ran to a longer one) is no answer',
      observation: answered({ durationMs: 6_000, timeoutMs: 9_000, latencyMs: 5_900 }),
      judging,
      result: {
        startedAt: T0,
        timings,
        latencyMs: undefined,
        statusCode: 200,
        ok: false,
        reason: 'timeout',
        detail: 'no answer within 5000 ms',
      },
    },
    {
      name: 'the probe’s own deadline keeps the prober’s detail',
      observation: unanswered({
        durationMs: 5_001,
        reason: FailureReason.Timeout,
        detail: 'no answer within 5000 ms (connected, no response headers)',
      }),
      judging,
      result: {
        startedAt: T0,
        timings: { connect: 1 },
        latencyMs: undefined,
        ok: false,
        reason: 'timeout',
        detail: 'no answer within 5000 ms (connected, no response headers)',
      },
    },
    {
      name: 'an expected body missing fails with reason body',
      observation: answered({ body: { text: 'busy', bytes: 4, capped: false } } as Partial<ProbeObservation>),
      judging: { ...judging, expectedBody: { kind: 'substring', text: 'ok' } } as ProbeJudging,
      result: {
        startedAt: T0,
        timings,
        latencyMs: 3.5,
        statusCode: 200,
        ok: false,
        reason: 'body',
        detail: 'body: "ok" not found in the 4 bytes of the body',
      },
    },
    {
      name: 'an expected body as a regular expression matches with its flags',
      observation: answered({
        body: { text: 'db: up\nStatus: OK', bytes: 17, capped: false },
      } as Partial<ProbeObservation>),
      judging: {
        ...judging,
        expectedBody: { kind: 'regex', pattern: '^status: ok$', flags: 'im' },
      } as ProbeJudging,
      result: { startedAt: T0, timings, latencyMs: 3.5, statusCode: 200, ok: true },
    },
    {
      name: 'a regular expression not found in a body cut at the cap names how much was read',
      observation: answered({
        body: { text: 'x', bytes: 65_536, capped: true },
      } as Partial<ProbeObservation>),
      judging: { ...judging, expectedBody: { kind: 'regex', pattern: '^OK$', flags: 'm' } } as ProbeJudging,
      result: {
        startedAt: T0,
        timings,
        latencyMs: 3.5,
        statusCode: 200,
        ok: false,
        reason: 'body',
        detail: 'body: /^OK$/m not found in the first 65,536 bytes',
      },
    },
    {
      name: 'an expected body not found in an empty body says so',
      observation: answered({ body: { text: '', bytes: 0, capped: false } } as Partial<ProbeObservation>),
      judging: { ...judging, expectedBody: { kind: 'substring', text: 'ok' } } as ProbeJudging,
      result: {
        startedAt: T0,
        timings,
        latencyMs: 3.5,
        statusCode: 200,
        ok: false,
        reason: 'body',
        detail: 'body: "ok" not found in an empty body',
      },
    },
    {
      name: 'an expected body not found in a one-byte body counts it in the singular',
      observation: answered({ body: { text: 'k', bytes: 1, capped: false } } as Partial<ProbeObservation>),
      judging: { ...judging, expectedBody: { kind: 'substring', text: 'ok' } } as ProbeJudging,
      result: {
        startedAt: T0,
        timings,
        latencyMs: 3.5,
        statusCode: 200,
        ok: false,
        reason: 'body',
        detail: 'body: "ok" not found in the 1 byte of the body',
      },
    },
    {
      name: 'an answer slower than maxLatencyMs fails with reason slow',
      observation: answered({ latencyMs: 250.4 }),
      judging: { ...judging, maxLatencyMs: 200 },
      result: {
        startedAt: T0,
        timings,
        latencyMs: 250.4,
        statusCode: 200,
        ok: false,
        reason: 'slow',
        detail: 'slow: 250 ms > 200 ms',
      },
    },
  ])('$name', ({ observation, judging, result }) => {
    expect(judgeObservation(observation, judging)).toStrictEqual(result);
  });

  it('judgedTimeout: a judge’s own deadline passed before the probe ended', () => {
    expect(judgedTimeout(T0, 5_000)).toStrictEqual({
      startedAt: T0,
      timings: {},
      latencyMs: undefined,
      ok: false,
      reason: 'timeout',
      detail: 'no answer within 5000 ms',
    });
  });
});
