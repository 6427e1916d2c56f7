/**
 * Waiting for what a running stack or process does: read, and read again every 100 ms until
 * the value is accepted, failing with the last value after a bound — no fixed sleeps, so a
 * loaded machine only waits longer.
 */
export async function eventually<T>(
  read: () => Promise<T> | T,
  accept: (value: T) => boolean,
  timeoutMs = 20_000,
  describe: (last: T) => string = (last) => `last value ${JSON.stringify(last)}`,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${describe(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until `condition` holds; throws with `describe()` after `timeoutMs`. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  describe: () => string,
): Promise<void> {
  await eventually(condition, (holds) => holds, timeoutMs, describe);
}
