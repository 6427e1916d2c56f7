/**
 * Spaces calls so that one evaluator stays under Route 53's per-account API rate
 * (5 requests per second): a call waits until `1000 / perSecond` ms after the previous one.
 */
export class RateLimiter {
  private next = 0;
  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  async take(): Promise<void> {
    const now = this.now();
    const at = Math.max(now, this.next);
    this.next = at + 1000 / this.perSecond;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }
}
