/** Items in order, cut into the batches a request or an item may hold. Pure. */

/** Consecutive batches of `size` items (the last one may be shorter). */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/**
 * Greedy: each item joins the current batch unless that would take the batch over `maxBytes`
 * or `maxCount` (an item counts `countOf` of it, 1 by default); it then starts the next batch.
 * An item over a limit on its own is a batch of its own.
 */
export function greedyBatches<T>(
  items: readonly T[],
  limits: {
    readonly maxBytes: number;
    readonly bytesOf: (item: T) => number;
    readonly maxCount?: number;
    readonly countOf?: (item: T) => number;
  },
): T[][] {
  const { maxBytes, bytesOf, maxCount = Infinity, countOf = () => 1 } = limits;
  const batches: T[][] = [];
  let batch: T[] = [];
  let bytes = 0;
  let count = 0;
  for (const item of items) {
    const size = bytesOf(item);
    const n = countOf(item);
    if (batch.length > 0 && (count + n > maxCount || bytes + size > maxBytes)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
      count = 0;
    }
    batch.push(item);
    bytes += size;
    count += n;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
