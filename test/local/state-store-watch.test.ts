/**
 * The state store watch: one message when DynamoDB Local goes away, retries with growing
 * delays, one message when it is back, a give-up after the limit; connection errors told apart.
 */
import { describe, expect, it } from 'vitest';
import {
  isConnectionFailure,
  watchStateStore,
  type StateStoreWatch,
} from '../../infra/local/state-store-watch.js';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4567'), { code: 'ECONNREFUSED' });

function harness(answers: (() => boolean)[], limitMs = 60_000) {
  const lines: string[] = [];
  const checks: number[] = [];
  const gaveUp: string[] = [];
  let call = 0;
  const watch = watchStateStore({
    description: 'DynamoDB Local at http://127.0.0.1:4567',
    check: async () => {
      checks.push(Date.now());
      const ok = (answers[Math.min(call++, answers.length - 1)] as () => boolean)();
      if (!ok) throw refused;
    },
    log: (line) => lines.push(line),
    limitMs,
    onGiveUp: (message) => gaveUp.push(message),
    firstRetryDelayMs: 40,
    maxRetryDelayMs: 200,
  });
  return { watch, lines, checks, gaveUp };
}

/** Whether the watch holds the store gone: it then explains even an error that is no connection failure. */
const isDown = (watch: StateStoreWatch) => watch.explains(new Error('not a connection failure'));

const until = async (condition: () => boolean, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('the state store watch', () => {
  it.each([
    { name: 'ECONNREFUSED', error: refused, failure: true },
    { name: 'a logged String(error)', error: 'Error: connect ECONNREFUSED 127.0.0.1:1', failure: true },
    {
      name: 'a reset in the cause',
      error: new Error('fetch failed', { cause: { code: 'ECONNRESET' } }),
      failure: true,
    },
    { name: 'socket hang up', error: new Error('socket hang up'), failure: true },
    {
      name: 'a logged SDK request timeout (the probe logs String(error): no code)',
      error:
        'TimeoutError: @smithy/node-http-handler - [ERROR] a request has exceeded the configured 4000 ms requestTimeout.',
      failure: true,
    },
    {
      name: 'an SDK connection timeout (no code: also a request that waited for a socket behind hung ones)',
      error: Object.assign(
        new Error(
          '@smithy/node-http-handler - the request socket did not establish a connection with the server within the configured timeout of 3000 ms.',
        ),
        { name: 'TimeoutError' },
      ),
      failure: true,
    },
    { name: 'a condition check failure', error: new Error('The conditional request failed'), failure: false },
    {
      name: 'a throttle',
      error: Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }),
      failure: false,
    },
  ])('$name is a connection failure: $failure', ({ error, failure }) => {
    expect(isConnectionFailure(error)).toBe(failure);
  });

  it('says once that the store is gone, however many calls fail, retries with growing delays, and says when it is back', async () => {
    const { watch, lines, checks } = harness([() => false, () => false, () => false, () => true]);
    for (let i = 0; i < 50; i++) watch.observe(refused);
    expect(isDown(watch)).toBe(true);
    expect(watch.explains(new Error('anything while down'))).toBe(true);
    await until(() => !isDown(watch));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /is gone \(connect ECONNREFUSED .*fail static.*retrying with backoff.*exit code 3.*60 s/,
    );
    expect(lines[1]).toMatch(/answers again after \d+\.\d s; carrying on/);
    const gaps = checks.slice(1).map((at, i) => at - (checks[i] as number));
    expect(checks).toHaveLength(4);
    // Delays double from 40 ms up to the 200 ms cap; a timer never fires early.
    [80, 160, 200].forEach((delay, i) => expect(gaps[i]).toBeGreaterThanOrEqual(delay - 2));
    expect(watch.explains(new Error('a real bug'))).toBe(false);
    watch.stop();
  });

  it('gives up after the limit, once, with a message; no retries after that', async () => {
    const { watch, lines, checks, gaveUp } = harness([() => false], 300);
    watch.lost('DynamoDB Local exited: signal SIGKILL');
    await until(() => gaveUp.length > 0);
    expect(gaveUp).toEqual([
      'state store: DynamoDB Local at http://127.0.0.1:4567 did not come back within 0.3 s; stopping',
    ]);
    expect(lines[0]).toContain('is gone (DynamoDB Local exited: signal SIGKILL)');
    const count = checks.length;
    await new Promise((r) => setTimeout(r, 400));
    expect(checks).toHaveLength(count);
    watch.stop();
  });

  it('names a store that stops answering by its own checks, within ping interval + check timeout, with no caller reporting', async () => {
    const lines: string[] = [];
    const checks: AbortSignal[] = [];
    let answering = true;
    let stoppedAt = 0;
    const watch = watchStateStore({
      description: 'DynamoDB Local at http://127.0.0.1:4567',
      // Like a SIGSTOPped process: the check neither answers nor fails.
      check: (signal) => {
        checks.push(signal);
        return answering ? Promise.resolve() : new Promise(() => undefined);
      },
      log: (line) => lines.push(line),
      limitMs: 60_000,
      onGiveUp: () => undefined,
      pingIntervalMs: 50,
      checkTimeoutMs: 200,
    });
    try {
      await until(() => checks.length >= 3);
      expect(lines).toEqual([]);
      answering = false;
      stoppedAt = Date.now();
      await until(() => isDown(watch));
      expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(200 - 2);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/is gone \(check: no answer within 0\.2 s\)\. DNS keeps answering/);
      // The check that timed out was told to give up.
      expect(checks.some((signal) => signal.aborted)).toBe(true);
    } finally {
      watch.stop();
    }
  });

  it('errors that are not connection failures do not mark the store gone', () => {
    const { watch, lines } = harness([() => true]);
    watch.observe(new Error('ValidationException: bad key'));
    expect(isDown(watch)).toBe(false);
    expect(lines).toEqual([]);
    watch.stop();
  });
});
