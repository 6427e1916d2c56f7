/**
 * The one concurrency limiter of the handlers: `p-limit` (well kept, tiny, no dependencies
 * but its queue), so probes in flight, BatchGetItem/BatchWriteItem chunks and config writes
 * are bounded the same way.
 */
import pLimit, { type LimitFunction } from 'p-limit';

export type ConcurrencyLimit = LimitFunction;

/** A limiter that runs at most `limit` tasks at once (an integer ≥ 1). */
export function concurrencyLimit(limit: number): ConcurrencyLimit {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`concurrency must be an integer ≥ 1, got ${limit}`);
  return pLimit(limit);
}

/** Maps `items` through `run`, at most `limit` at once; results in input order. */
export function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  run: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  return concurrencyLimit(limit).map(items, run);
}
