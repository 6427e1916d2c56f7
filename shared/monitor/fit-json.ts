/**
 * The entries that fit in `budgetBytes` of JSON as one object, taken in the order `first` gives
 * (the rest are left out): how a shard keeps its certificates item under
 * DynamoDB's 400 KB item limit.
 */
export function fitJson<T>(
  entries: ReadonlyMap<string, T>,
  budgetBytes: number,
  first: (a: T, b: T) => number,
): Record<string, T> {
  const fitted: Record<string, T> = {};
  let used = 2;
  for (const [key, value] of [...entries].sort(([, a], [, b]) => first(a, b))) {
    const size = JSON.stringify(key).length + JSON.stringify(value).length + 2;
    if (used + size > budgetBytes) break;
    fitted[key] = value;
    used += size;
  }
  return fitted;
}
