/**
 * What the HTTP and TCP probes share: one probe's clock and single deadline, the routing of
 * the connect phase's socket events to the probe, and the probe's life from its first stage
 * to its one outcome (`SocketProbe`).
 */
import net, { type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { PeerCertificate } from '../../../shared/probe/certificate.js';
import type { PhaseTimings, ProbeObservation, ProbeUnanswered } from '../../../shared/probe/result.js';
import type { ProbeRequest } from '../../../shared/probe/target.js';
import { failureOf, timeoutOf, type Failure, type ProbeStage } from './failure.js';
import { roundMs } from './timing.js';

interface DeadlineOwner {
  /** The probe's `timeoutMs` has passed since it started. */
  deadlinePassed(): void;
}

/** A probe's start time and its one deadline, measured from that start. */
export class ProbeClock {
  readonly startedAt = Date.now();
  private readonly t0 = performance.now();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly timeoutMs: number,
    private readonly owner: DeadlineOwner,
  ) {}

  armDeadline(): void {
    this.timer = setTimeout(onDeadline, this.timeoutMs, this);
  }

  disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
  }

  elapsed(): number {
    return performance.now() - this.t0;
  }

  /** What a probe that got no usable answer saw, ending now: the one failed observation of every prober. */
  unanswered(
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
    this.owner.deadlinePassed();
  }
}

function onDeadline(clock: ProbeClock): void {
  clock.timerFired();
}

interface ConnectListener {
  looked(): void;
  connected(): void;
  socketFailed(error: Error): void;
}

export const kProbe = Symbol('probe');
export type ProbeSocket<P> = Socket & { [kProbe]?: P };

/**
 * Routes the socket's lookup (when `withLookup`), connect and error events to the probe;
 * the listeners are plain functions, so no closure is made per probe.
 */
export function watchConnect<P extends ConnectListener>(
  socket: ProbeSocket<P>,
  probe: P,
  withLookup: boolean,
): void {
  socket[kProbe] = probe;
  if (withLookup) socket.once('lookup', onSocketLookup);
  socket.once('connect', onSocketConnect);
  socket.on('error', onSocketError);
}

function onSocketLookup(this: ProbeSocket<ConnectListener>): void {
  this[kProbe]?.looked();
}

function onSocketConnect(this: ProbeSocket<ConnectListener>): void {
  this[kProbe]?.connected();
}

function onSocketError(this: ProbeSocket<ConnectListener>, error: Error): void {
  this[kProbe]?.socketFailed(error);
}

/** One probe: its clock, the stage it is in, and its end with the first outcome. */
export abstract class SocketProbe implements ConnectListener, DeadlineOwner {
  protected readonly clock: ProbeClock;
  protected stage: ProbeStage;
  protected dns: number | undefined;
  private done = false;

  constructor(
    protected readonly target: ProbeRequest,
    protected readonly timeoutMs: number,
    private readonly resolve: (observation: ProbeObservation) => void,
  ) {
    this.clock = new ProbeClock(timeoutMs, this);
    // A probe starts by resolving its host name unless the host is an IP literal.
    this.stage = net.isIP(target.host) === 0 ? 'dns' : 'connect';
  }

  looked(): void {
    this.dns = this.clock.elapsed();
    this.stage = 'connect';
  }

  abstract connected(): void;

  socketFailed(error: Error): void {
    this.fail(failureOf(error, this.stage));
  }

  deadlinePassed(): void {
    this.fail(timeoutOf(this.timeoutMs, this.stage));
  }

  protected abstract fail(failure: Failure): void;

  /** Ends the probe with its first outcome; whatever reports after that (a late error, the deadline) is ignored. */
  protected finish(observation: ProbeObservation): void {
    if (this.done) return;
    this.done = true;
    this.clock.disarm();
    this.resolve(observation);
    this.release(observation);
  }

  /** Lets go of the connection once the outcome is in. */
  protected abstract release(observation: ProbeObservation): void;
}
