/** Time is injected into the core so that rules are testable with a fake clock. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

/** A random source in [0, 1), injected where the core randomizes. */
export type Random = () => number;
