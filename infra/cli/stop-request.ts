/**
 * Everything that should stop `tm local`, as one promise: SIGINT, SIGTERM, SIGHUP, the parent
 * process going away (a wrapper such as `npm start` that exits on SIGTERM without passing it on
 * leaves tm re-parented to init or a subreaper), a key, or a fatal problem of the stack.
 * Watched from the very start, so a stop asked for while the stack is still starting is not lost
 * (and a signal never meets Node's default handler, which would kill tm without cleaning up).
 */
export interface StopReason {
  readonly reason: string;
  readonly exitCode: number;
}

export interface StopRequest {
  /** Resolves with the first reason to stop. */
  readonly requested: Promise<StopReason>;
  /** Aborted (synchronously) with the first reason to stop. */
  readonly signal: AbortSignal;
  request(reason: string, exitCode?: number): void;
  /** Stops watching (the process can then exit). */
  dispose(): void;
}

/** How often the parent pid is compared with the one tm started under. */
const PARENT_WATCH_MS = 500;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export function watchForStop(): StopRequest {
  let resolve: (reason: StopReason) => void = () => undefined;
  const requested = new Promise<StopReason>((r) => (resolve = r));
  const stopping = new AbortController();
  const request = (reason: string, exitCode = 0) => {
    resolve({ reason, exitCode });
    if (!stopping.signal.aborted) stopping.abort(reason);
  };
  const handlers = SIGNALS.map((signal) => {
    // A second signal while stopping gets Node's default: the way out when a stop hangs.
    const handler = () => request(signal);
    process.once(signal, handler);
    return [signal, handler] as const;
  });
  const parent = process.ppid;
  const parentWatch = setInterval(() => {
    if (process.ppid !== parent) request(`the parent process (pid ${parent}) is gone`);
  }, PARENT_WATCH_MS);
  return {
    requested,
    signal: stopping.signal,
    request,
    dispose: () => {
      clearInterval(parentWatch);
      for (const [signal, handler] of handlers) process.off(signal, handler);
    },
  };
}
