/**
 * The TCP check (SPEC §2): a connection established within the deadline is a success;
 * the prober then resets it (RST, not FIN) so the endpoint keeps no half-closed state.
 */
import net, { type LookupFunction, type Socket } from 'node:net';
import type { ProbeResult } from '../../../shared/probe/result.js';
import type { ProbeTarget, Prober } from '../../../shared/probe/target.js';
import { failureOf, timeoutOf, type Failure, type ProbeStage } from './failure.js';
import {
  firstStageOf,
  ProbeClock,
  watchConnect,
  type ConnectListener,
  type DeadlineOwner,
  type ProbeSocket,
} from './probe-clock.js';
import { roundMs, roundMsOrUndefined } from './timing.js';

export interface TcpProberOptions {
  /** Host name resolution; default: the operating system's (`dns.lookup`). */
  readonly lookup?: LookupFunction;
}

export function createTcpProber(options: TcpProberOptions = {}): Prober {
  return (target) =>
    new Promise<ProbeResult>((resolve) => new TcpProbe(target, options.lookup, resolve).start());
}

export const probeTcp: Prober = createTcpProber();

class TcpProbe implements ConnectListener, DeadlineOwner {
  private readonly clock: ProbeClock;
  private stage: ProbeStage;
  private done = false;
  private socket: Socket | undefined;
  private dns: number | undefined;

  constructor(
    private readonly target: ProbeTarget,
    private readonly lookup: LookupFunction | undefined,
    private readonly resolve: (result: ProbeResult) => void,
  ) {
    this.clock = new ProbeClock(target.timeoutMs, this);
    this.stage = firstStageOf(target.host);
  }

  start(): void {
    this.clock.armDeadline();
    try {
      const socket: ProbeSocket<TcpProbe> = net.connect({
        host: this.target.host,
        port: this.target.port,
        lookup: this.lookup,
      });
      this.socket = socket;
      watchConnect(socket, this, this.stage === 'dns');
    } catch (error) {
      this.failWith(failureOf(error, this.stage));
    }
  }

  looked(): void {
    this.dns = this.clock.elapsed();
    this.stage = 'connect';
  }

  connected(): void {
    if (this.done) return;
    const connect = this.clock.elapsed();
    // Latency is the handshake itself: from after the lookup to the established connection.
    this.finish({
      ok: true,
      startedAt: this.clock.startedAt,
      timings: { dns: roundMsOrUndefined(this.dns), connect: roundMs(connect) },
      latencyMs: roundMs(connect - (this.dns ?? 0)),
    });
  }

  socketFailed(error: Error): void {
    this.failWith(failureOf(error, this.stage));
  }

  deadlinePassed(): void {
    this.failWith(timeoutOf(this.target.timeoutMs, this.stage));
  }

  private failWith(failure: Failure): void {
    if (this.done) return;
    this.finish({
      ok: false,
      startedAt: this.clock.startedAt,
      timings: { dns: roundMsOrUndefined(this.dns) },
      latencyMs: undefined,
      reason: failure.reason,
      detail: failure.detail,
    });
  }

  private finish(result: ProbeResult): void {
    this.done = true;
    this.clock.disarm();
    this.resolve(result);
    const socket = this.socket;
    if (socket === undefined || socket.destroyed) return;
    // resetAndDestroy needs a connected socket; a pending one is simply dropped.
    if (result.ok) socket.resetAndDestroy();
    else socket.destroy();
  }
}
