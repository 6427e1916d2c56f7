/**
 * The one retry policy of the handlers, on `p-retry` (well kept, small, exponential backoff
 * with jitter, bounded by attempts and by time). Route 53 calls, DynamoDB unprocessed batch
 * items and anything else that retries use it, so "how we retry" is written once.
 */
import pRetry from 'p-retry';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  readonly retries: number;
  /**
   * Wait before the first retry, doubling per retry up to `maxDelayMs`, times a random factor
   * in [1, 2). 0 retries at once — for calls a rate limiter already paces.
   */
  readonly baseDelayMs: number;
  /** @default - no cap */
  readonly maxDelayMs?: number;
  /** No retry starts once this long has passed since the first attempt. @default - no limit */
  readonly maxRetryTimeMs?: number;
}

export interface RetryHooks {
  /** Whether a failed attempt is worth retrying (anything else is thrown at once). */
  readonly isRetryable: (error: unknown) => boolean;
  /** Called for each failed attempt that will be retried. */
  readonly onRetry?: (error: unknown, attempt: number) => void;
}

/** Runs `attempt` (numbered from 1) until it succeeds, fails for good, or the policy is spent. */
export function retrying<T>(
  policy: RetryPolicy,
  hooks: RetryHooks,
  attempt: (attemptNumber: number) => Promise<T>,
): Promise<T> {
  return pRetry(attempt, {
    retries: policy.retries,
    minTimeout: policy.baseDelayMs,
    factor: 2,
    randomize: policy.baseDelayMs > 0,
    ...(policy.maxDelayMs === undefined ? {} : { maxTimeout: policy.maxDelayMs }),
    ...(policy.maxRetryTimeMs === undefined ? {} : { maxRetryTime: policy.maxRetryTimeMs }),
    shouldRetry: ({ error, attemptNumber }) => {
      const retry = hooks.isRetryable(error);
      if (retry) hooks.onRetry?.(error, attemptNumber);
      return retry;
    },
  });
}

/** AWS error names that mean "slow down / try again": throttling and transient service faults. */
const TRANSIENT_ERROR_NAMES = new Set([
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'PriorRequestNotComplete',
  'ServiceUnavailable',
  'InternalServerError',
  'TimeoutError',
  'RequestTimeout',
]);

/** Socket-level failures the SDK's own retry strategy would retry. */
const TRANSIENT_NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);

/** Throttling, a 5xx, or a dropped connection: the same request may succeed later. */
export function isTransientAwsError(error: unknown): boolean {
  const e = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  return (
    TRANSIENT_ERROR_NAMES.has(e?.name ?? '') ||
    TRANSIENT_NETWORK_CODES.has(e?.code ?? '') ||
    (e?.$metadata?.httpStatusCode ?? 0) >= 500
  );
}
