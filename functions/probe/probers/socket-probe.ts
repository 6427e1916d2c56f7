/**
 * What the HTTP and TCP probes share: one probe's clock and single deadline, its life from its
 * first stage to its one outcome (`SocketProbe`), and the routing of the connect phase's socket
 * events to the probe.
 */
import net, { type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { PeerCertificate } from '../../../shared/probe/certificate.js';
import type { PhaseTimings, ProbeObservation, ProbeUnanswered } from '../../../shared/probe/result.js';
import type { ProbeRequest } from '../../../shared/probe/target.js';
import { failureOf, timeoutOf, type Failure, type ProbeStage } from './failure.js';
import { roundMs } from './timing.js';

export const kProbe = Symbol('probe');
export type ProbeSocket<P> = Socket & { [kProbe]?: P };

/**
 * Routes the socket's lookup (when `withLookup`), connect and error events to the probe;
 * the listeners are plain functions, so no closure is made per probe.
 */
export function watchConnect(
  socket: ProbeSocket<SocketProbe>,
  probe: SocketProbe,
  withLookup: boolean,
): void {
  socket[kProbe] = probe;
  if (withLookup) socket.once('lookup', onSocketLookup);
  socket.once('connect', onSocketConnect);
  socket.on('error', onSocketError);
}

function onSocketLookup(this: ProbeSocket<SocketProbe>): void {
  this[kProbe]?.looked();
}

function onSocketConnect(this: ProbeSocket<SocketProbe>): void {
  this[kProbe]?.connected();
}

function onSocketError(this: ProbeSocket<SocketProbe>, error: Error): void {
  this[kProbe]?.socketFailed(error);
}

/** One probe: its start time and one deadline, the stage it is in, and its end with the first outcome. */
export abstract class SocketProbe {
  protected readonly startedAt = Date.now();
  private readonly t0 = performance.now();
  private timer: NodeJS.Timeout | undefined;
  protected stage: ProbeStage;
  protected dns: number | undefined;
  private done = false;

  constructor(
    protected readonly target: ProbeRequest,
    protected readonly timeoutMs: number,
    private readonly resolve: (observation: ProbeObservation) => void,
  ) {
    // A probe starts by resolving its host name unless the host is an IP literal.
    this.stage = net.isIP(target.host) === 0 ? 'dns' : 'connect';
    this.timer = setTimeout(onDeadline, timeoutMs, this);
  }

  protected elapsed(): number {
    return performance.now() - this.t0;
  }

  /** The deadline timer's callback. */
  timerFired(): void {
    // Timers count from the event loop's cached clock, so one armed after a busy tick
    // can fire early; the deadline is measured from the probe's own start.
    const remaining = this.timeoutMs - this.elapsed();
    if (remaining >= 1) {
      this.timer = setTimeout(onDeadline, remaining, this);
      return;
    }
    this.timer = undefined;
    this.fail(timeoutOf(this.timeoutMs, this.stage));
  }

  looked(): void {
    this.dns = this.elapsed();
    this.stage = 'connect';
  }

  abstract connected(): void;

  socketFailed(error: Error): void {
    this.fail(failureOf(error, this.stage));
  }

  protected abstract fail(failure: Failure): void;

  /** What a probe that got no usable answer saw, ending now: the one failed observation of every prober. */
  protected unanswered(
    failure: Failure,
    timings: PhaseTimings,
    answer: { readonly statusCode?: number | undefined; readonly certificate?: PeerCertificate } = {},
  ): ProbeUnanswered {
    return {
      answered: false,
      startedAt: this.startedAt,
      durationMs: roundMs(this.elapsed()),
      timeoutMs: this.timeoutMs,
      timings,
      latencyMs: undefined,
      ...answer,
      reason: failure.reason,
      detail: failure.detail,
    };
  }

  /** Ends the probe with its first outcome; whatever reports after that (a late error, the deadline) is ignored. */
  protected finish(observation: ProbeObservation): void {
    if (this.done) return;
    this.done = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.resolve(observation);
    this.release(observation);
  }

  /** Lets go of the connection once the outcome is in. */
  protected abstract release(observation: ProbeObservation): void;
}

function onDeadline(probe: SocketProbe): void {
  probe.timerFired();
}
