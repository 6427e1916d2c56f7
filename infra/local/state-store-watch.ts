/**
 * Watches the local stack's state store (DynamoDB Local). When it stops answering — its Java
 * process exited, connections are refused or reset, or a call times out — the watch says so
 * once, with what happens next; the stack keeps serving DNS from the last published zone (fail static) while
 * the watch retries with exponential backoff. If the store answers again it says so and the
 * stack carries on; if it has not within `limitMs`, `onGiveUp` is called (`tm local` then
 * stops with exit code 3). Callers' own error lines about the store are dropped while it is
 * down (`explains`), so one outage is a few lines, not one per failed call.
 *
 * The watch does not depend on the callers to notice: it pings the store itself (`check`) every
 * `pingIntervalMs`, each check bounded by `checkTimeoutMs`, so a store that stops answering is
 * named within `pingIntervalMs + checkTimeoutMs` of its last answer — however many of the
 * callers' requests are queued behind it, or however their errors are worded.
 */
import { once } from 'node:events';
import { StateStoreCheckTimeoutError } from './errors.js';

export interface StateStoreWatchOptions {
  /** For messages: `DynamoDB Local at http://127.0.0.1:…`. */
  readonly description: string;
  /**
   * Resolves when the store answers (e.g. DescribeTable of the stack's table); should give up
   * when `signal` aborts (the watch stops waiting for it then anyway). Give it a client of its
   * own, so the check does not wait behind the callers' requests for a socket.
   */
  readonly check: (signal: AbortSignal) => Promise<unknown>;
  readonly log: (line: string) => void;
  /** How long the store may stay gone before giving up. */
  readonly limitMs: number;
  readonly onGiveUp: (message: string) => void;
  /** First retry delay, doubled each time up to `maxRetryDelayMs`. @default 500 */
  readonly firstRetryDelayMs?: number;
  /** @default 8000 */
  readonly maxRetryDelayMs?: number;
  /** Pause between two checks while the store answers. @default 2000 */
  readonly pingIntervalMs?: number;
  /** A check without an answer this long is a failed one. @default 5000 */
  readonly checkTimeoutMs?: number;
}

export type StateStoreWatch = ReturnType<typeof watchStateStore>;

// TimeoutError: the SDK's bound on an attempt — a request without an answer (code ETIMEDOUT,
// lost when a caller logs `String(error)`) or a connection not made in time (no code at all:
// also what a request gets that waited for one of the client's sockets behind hung ones).
const CONNECTION_FAILURE =
  /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|TimeoutError|socket hang up|other side closed/i;

/** Whether an error (or its cause, or a logged `String(error)`) is a failure to reach the store. */
export function isConnectionFailure(error: unknown): boolean {
  for (let current = error, depth = 0; current !== undefined && depth < 5; depth++) {
    const text =
      typeof current === 'string'
        ? current
        : `${(current as NodeJS.ErrnoException).code ?? ''} ${(current as Error).name ?? ''} ${(current as Error).message ?? ''}`;
    if (CONNECTION_FAILURE.test(text)) return true;
    current = typeof current === 'object' && current !== null ? (current as Error).cause : undefined;
  }
  return false;
}

export function watchStateStore(options: StateStoreWatchOptions) {
  const firstDelay = options.firstRetryDelayMs ?? 500;
  const maxDelay = options.maxRetryDelayMs ?? 8_000;
  const pingInterval = options.pingIntervalMs ?? 2_000;
  const checkTimeout = options.checkTimeoutMs ?? 5_000;
  let downSince: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const schedule = (delay: number, run: () => void) => {
    clearTimeout(timer);
    timer = setTimeout(run, delay);
    timer.unref();
  };

  /** One check, failed when it has no answer within `checkTimeoutMs` (its signal then aborts). */
  const check = async (): Promise<void> => {
    const signal = AbortSignal.timeout(checkTimeout);
    const noAnswer = once(signal, 'abort').then(() => {
      throw new StateStoreCheckTimeoutError(checkTimeout);
    });
    await Promise.race([options.check(signal), noAnswer]);
  };

  const ping = () =>
    schedule(pingInterval, () => {
      void check().then(
        () => {
          if (!stopped && downSince === undefined) ping();
        },
        (error: unknown) => {
          if (stopped || downSince !== undefined) return;
          if (isConnectionFailure(error)) markDown(`check: ${firstLine(error)}`);
          else ping(); // it answered, with an error of its own: not gone
        },
      );
    });

  const retry = (delay: number) =>
    schedule(delay, () => {
      void check().then(
        () => {
          if (stopped || downSince === undefined) return;
          const seconds = ((Date.now() - downSince) / 1000).toFixed(1);
          downSince = undefined;
          options.log(`state store: ${options.description} answers again after ${seconds} s; carrying on`);
          ping();
        },
        () => {
          if (stopped || downSince === undefined) return;
          const downFor = Date.now() - downSince;
          if (downFor >= options.limitMs) {
            const message = `state store: ${options.description} did not come back within ${options.limitMs / 1000} s; stopping`;
            options.log(message);
            stopped = true;
            options.onGiveUp(message);
            return;
          }
          // The last check falls on the limit, so giving up is not late by a whole delay.
          retry(Math.min(delay * 2, maxDelay, options.limitMs - downFor));
        },
      );
    });

  const markDown = (reason: string) => {
    if (stopped || downSince !== undefined) return;
    downSince = Date.now();
    options.log(
      `state store: ${options.description} is gone (${reason}). DNS keeps answering from the last ` +
        `published records (fail static); probe and evaluator calls to the store fail meanwhile ` +
        `(their errors are not repeated here); retrying with backoff; ` +
        `tm local stops (exit code 3) if it is not back within ${options.limitMs / 1000} s.`,
    );
    retry(firstDelay);
  };

  ping();
  return {
    /** Reports an error of a call to the store; a connection failure marks it gone. */
    observe(error: unknown) {
      if (isConnectionFailure(error)) markDown(firstLine(error));
    },
    /** Marks the store gone for a reason known otherwise (its process exited). */
    lost: markDown,
    /** Whether an error line about the store should be left out of the log (the watch has said it). */
    explains(error: unknown) {
      return downSince !== undefined || stopped || isConnectionFailure(error);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.split('\n')[0] ?? text;
}
