/**
 * The TCP check (SPEC §2): a connection established within the deadline is a success;
 * the prober then resets it (RST, not FIN) so the endpoint keeps no half-closed state.
 */
import net, { type LookupFunction, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ProbeResult } from '../../../shared/probe/result.js';
import type { ProbeTarget, Prober } from '../../../shared/probe/target.js';
import { failureOf, timeoutOf, type Failure, type ProbeStage } from './failure.js';
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

const kProbe = Symbol('probe');
type ProbeSocket = Socket & { [kProbe]?: TcpProbe };

class TcpProbe {
  private readonly startedAt = Date.now();
  private readonly t0 = performance.now();
  private stage: ProbeStage;
  private done = false;
  private timer: NodeJS.Timeout | undefined;
  private socket: ProbeSocket | undefined;
  private dns: number | undefined;

  constructor(
    private readonly target: ProbeTarget,
    private readonly lookup: LookupFunction | undefined,
    private readonly resolve: (result: ProbeResult) => void,
  ) {
    this.stage = net.isIP(target.host) === 0 ? 'dns' : 'connect';
  }

  start(): void {
    this.timer = setTimeout(onDeadline, this.target.timeoutMs, this);
    try {
      const socket: ProbeSocket = net.connect({
        host: this.target.host,
        port: this.target.port,
        lookup: this.lookup,
      });
      socket[kProbe] = this;
      this.socket = socket;
      if (this.stage === 'dns') socket.once('lookup', onSocketLookup);
      socket.once('connect', onSocketConnect);
      socket.on('error', onSocketError);
    } catch (error) {
      this.failWith(failureOf(error, this.stage));
    }
  }

  looked(): void {
    this.dns = this.elapsed();
    this.stage = 'connect';
  }

  connected(): void {
    if (this.done) return;
    const connect = this.elapsed();
    // Latency is the handshake itself: from after the lookup to the established connection.
    this.finish({
      ok: true,
      startedAt: this.startedAt,
      timings: { dns: roundMsOrUndefined(this.dns), connect: roundMs(connect) },
      latencyMs: roundMs(connect - (this.dns ?? 0)),
    });
  }

  socketFailed(error: Error): void {
    this.failWith(failureOf(error, this.stage));
  }

  deadline(): void {
    // Timers count from the event loop's cached clock, so one armed after a busy tick
    // can fire early; the deadline is measured from the probe's own start.
    const remaining = this.target.timeoutMs - this.elapsed();
    if (remaining >= 1) {
      this.timer = setTimeout(onDeadline, remaining, this);
      return;
    }
    this.timer = undefined;
    this.failWith(timeoutOf(this.target.timeoutMs, this.stage));
  }

  private failWith(failure: Failure): void {
    if (this.done) return;
    this.finish({
      ok: false,
      startedAt: this.startedAt,
      timings: { dns: roundMsOrUndefined(this.dns) },
      latencyMs: undefined,
      reason: failure.reason,
      detail: failure.detail,
    });
  }

  private finish(result: ProbeResult): void {
    this.done = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.resolve(result);
    const socket = this.socket;
    if (socket === undefined || socket.destroyed) return;
    // resetAndDestroy needs a connected socket; a pending one is simply dropped.
    if (result.ok) socket.resetAndDestroy();
    else socket.destroy();
  }

  private elapsed(): number {
    return performance.now() - this.t0;
  }
}

function onDeadline(probe: TcpProbe): void {
  probe.deadline();
}

function onSocketLookup(this: ProbeSocket): void {
  this[kProbe]?.looked();
}

function onSocketConnect(this: ProbeSocket): void {
  this[kProbe]?.connected();
}

function onSocketError(this: ProbeSocket, error: Error): void {
  this[kProbe]?.socketFailed(error);
}
