/**
 * Spaces calls at most `perSecond` a second: each caller, in turn, waits until `1000 /
 * perSecond` ms after the previous caller was let through. The spacing is measured from when
 * the previous call actually left (not from when it was due), so a late timer never lets two
 * calls out closer together.
 */
export class RateLimiter {
  private next = 0;
  private queue: Promise<void> = Promise.resolve();
  private readonly intervalMs: number;

  constructor(perSecond: number) {
    if (!(perSecond > 0)) throw new RangeError(`rate must be > 0 per second, got ${perSecond}`);
    this.intervalMs = 1000 / perSecond;
  }

  take(): Promise<void> {
    const turn = this.queue.then(async () => {
      // Timers count whole milliseconds and may wake a fraction early: wait until really due.
      for (let wait = this.next - performance.now(); wait > 0; wait = this.next - performance.now())
        await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)));
      this.next = performance.now() + this.intervalMs;
    });
    this.queue = turn;
    return turn;
  }
}
