/**
 * The TCP check (SPEC §2): a connection established within the deadline is a success;
 * the prober then resets it (RST, not FIN) so the endpoint keeps no half-closed state.
 */
import net, { type LookupFunction, type Socket } from 'node:net';
import type { ProbeObservation } from '../../../shared/probe/result.js';
import type { ProbeRequest, Prober } from '../../../shared/probe/target.js';
import { failureOf, type Failure } from './failure.js';
import { SocketProbe, watchConnect, type ProbeSocket } from './socket-probe.js';
import { roundMs, roundMsOrUndefined } from './timing.js';

export interface TcpProberOptions {
  /** Host name resolution; default: the operating system's (`dns.lookup`). */
  readonly lookup?: LookupFunction;
}

export function createTcpProber(options: TcpProberOptions = {}): Prober {
  return (target, timeoutMs) =>
    new Promise<ProbeObservation>((resolve) =>
      new TcpProbe(target, timeoutMs, options.lookup, resolve).start(),
    );
}

export const probeTcp: Prober = createTcpProber();

class TcpProbe extends SocketProbe {
  private socket: Socket | undefined;

  constructor(
    target: ProbeRequest,
    timeoutMs: number,
    private readonly lookup: LookupFunction | undefined,
    resolve: (observation: ProbeObservation) => void,
  ) {
    super(target, timeoutMs, resolve);
  }

  start(): void {
    try {
      const socket: ProbeSocket<TcpProbe> = net.connect({
        host: this.target.host,
        port: this.target.port,
        lookup: this.lookup,
      });
      this.socket = socket;
      watchConnect(socket, this, this.stage === 'dns');
    } catch (error) {
      this.fail(failureOf(error, this.stage));
    }
  }

  connected(): void {
    const connect = this.elapsed();
    // Latency is the handshake itself: from after the lookup to the established connection.
    this.finish({
      answered: true,
      startedAt: this.startedAt,
      durationMs: roundMs(connect),
      timeoutMs: this.timeoutMs,
      timings: { dns: roundMsOrUndefined(this.dns), connect: roundMs(connect) },
      latencyMs: roundMs(connect - (this.dns ?? 0)),
    });
  }

  protected fail(failure: Failure): void {
    this.finish(this.unanswered(failure, { dns: roundMsOrUndefined(this.dns) }));
  }

  protected release(observation: ProbeObservation): void {
    const socket = this.socket;
    if (socket === undefined || socket.destroyed) return;
    // resetAndDestroy needs a connected socket; a pending one is simply dropped.
    if (observation.answered) socket.resetAndDestroy();
    else socket.destroy();
  }
}
