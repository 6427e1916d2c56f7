/**
 * The HTTP and HTTPS probe (SPEC §2): one request on a brand-new connection, bounded by
 * one deadline from DNS lookup to the last byte (HTTPS: a full TLS handshake every time).
 * It reports the status code it got; each profile judges it (`judgeObservation`).
 *
 * undici does the HTTP/1.1 part (a `Client` per probe, destroyed afterwards); the
 * connection itself is ours (a custom `connect`), so that we see every phase, choose
 * the SNI name, share one TLS secure context, read the peer certificate and destroy
 * the socket at the deadline whatever stage it is in.
 */
import net, { type LookupFunction, type Socket } from 'node:net';
import tls, { type SecureContext, type TLSSocket } from 'node:tls';
import { Client, type Dispatcher } from 'undici';
import { FailureReason, type ObservedBody, type ProbeObservation } from '../../../shared/probe/result.js';
import type { ProbeRequest, Prober } from '../../../shared/probe/target.js';
import { peerCertificateOf, type PeerCertificate } from '../../../shared/probe/certificate.js';
import { PROBE_DEADLINE, PROBE_FINISHED } from './errors.js';
import { failureOf, type Failure } from './failure.js';
import { kProbe, SocketProbe, watchConnect, type ProbeSocket } from './socket-probe.js';
import { roundMs, roundMsOrUndefined } from './timing.js';
import { prepare, unresolvedSecret, type PreparedRequest } from './http-request.js';

/**
 * Bytes of body read before the probe stops reading (the status has decided by then); the
 * most an expectedBody is matched against. Only a request that `keepsBody` holds them.
 */
const BODY_CAP_BYTES = 64 * 1024;

export interface HttpProberOptions {
  /** Host name resolution for the connection; default: the operating system's (`dns.lookup`). */
  readonly lookup?: LookupFunction;
  /** Default `BODY_CAP_BYTES`. */
  readonly bodyCapBytes?: number;
}

export function createHttpProber(options: HttpProberOptions = {}): Prober {
  const prepared = new WeakMap<ProbeRequest, PreparedRequest>();
  const settings: ProbeSettings = {
    lookup: options.lookup,
    bodyCapBytes: options.bodyCapBytes ?? BODY_CAP_BYTES,
  };
  return (target, timeoutMs) => {
    // References are resolved before a request reaches a prober (functions/probe/header-secrets.ts).
    if (target.headers.some((header) => typeof header.value !== 'string'))
      return Promise.resolve(unresolvedSecret(target, timeoutMs));
    let request = prepared.get(target);
    if (request === undefined) {
      request = prepare(target);
      prepared.set(target, request);
    }
    const resolved = request;
    return new Promise<ProbeObservation>((resolve) =>
      new HttpProbe(target, timeoutMs, resolved, settings, resolve).start(),
    );
  };
}

export const probeHttp: Prober = createHttpProber();

interface ProbeSettings {
  readonly lookup: LookupFunction | undefined;
  readonly bodyCapBytes: number;
}

let sharedSecureContext: SecureContext | undefined;

/**
 * One context for every HTTPS probe: creating a context per connection (and loading the
 * root store into it) costs more CPU than the handshake's own crypto. It holds no
 * session, and we never pass one nor listen for them: every probe makes a full handshake
 * (docs/cost.md, "HTTPS: no TLS session resumption").
 * It trusts no CA at all (`ca: []`): we do not validate certificates, and a chain that
 * verifies would make Node also parse the whole chain to check the host name.
 */
function secureContext(): SecureContext {
  sharedSecureContext ??= tls.createSecureContext({ ca: [] });
  return sharedSecureContext;
}

const noop = (): void => {};

/**
 * One probe. It is undici's dispatch handler; it uses the handler callbacks undici
 * calls natively (`onHeaders`, `onData`, …) — the newer controller-style API is
 * adapted onto these and parses every response header into an object we don't need.
 */
class HttpProbe extends SocketProbe implements Dispatcher.DispatchHandler {
  private client: Client | undefined;
  private socket: Socket | undefined;
  private abortRequest: ((error?: Error) => void) | undefined;
  private connect: number | undefined;
  private tls: number | undefined;
  private firstByte: number | undefined;
  private sentAt: number | undefined;
  private statusCode: number | undefined;
  private certificate: PeerCertificate | undefined;
  private bodyBytes = 0;
  /** The body's first `bodyCapBytes`, kept only when the request `keepsBody`. */
  private readonly bodyChunks: Buffer[] | undefined;

  constructor(
    target: ProbeRequest,
    timeoutMs: number,
    private readonly prepared: PreparedRequest,
    private readonly settings: ProbeSettings,
    resolve: (observation: ProbeObservation) => void,
  ) {
    super(target, timeoutMs, resolve);
    this.bodyChunks = target.keepsBody === true ? [] : undefined;
  }

  start(): void {
    try {
      this.client = new Client(this.prepared.origin, {
        connect: (_options, callback) => this.open(callback),
        // The probe's own deadline covers every phase; undici's timers would only add cost.
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      this.client.dispatch(this.prepared.request, this);
    } catch (error) {
      this.fail(failureOf(error, this.stage));
    }
  }

  private open(callback: (...args: [null, Socket] | [Error, null]) => void): void {
    const { host, port, protocol } = this.target;
    const lookup = this.settings.lookup;
    const socket: ProbeSocket<HttpProbe> =
      protocol === 'HTTPS'
        ? tls.connect({
            host,
            port,
            lookup,
            servername: this.prepared.servername,
            rejectUnauthorized: false,
            secureContext: secureContext(),
          })
        : net.connect({ host, port, lookup });
    this.socket = socket;
    this.connectCallback = callback;
    // The error listener stays for the whole probe: a reset mid-body is a failure even
    // where undici would take it as the end of a close-delimited body.
    watchConnect(socket, this, this.stage === 'dns');
    if (protocol === 'HTTPS') socket.once('secureConnect', onSocketSecureConnect);
  }

  private connectCallback: ((...args: [null, Socket] | [Error, null]) => void) | undefined;

  connected(): void {
    this.connect = this.elapsed();
    if (this.target.protocol === 'HTTPS') this.stage = 'tls';
    else this.handOver();
  }

  secured(socket: TLSSocket): void {
    this.tls = this.elapsed();
    const presented = socket.getPeerX509Certificate();
    if (presented === undefined) {
      this.fail({ reason: FailureReason.Tls, detail: 'the server presented no certificate' });
      return;
    }
    this.certificate = peerCertificateOf(presented);
    this.handOver();
  }

  private handOver(): void {
    this.stage = 'headers';
    this.sentAt = this.elapsed();
    const callback = this.connectCallback;
    this.connectCallback = undefined;
    if (callback !== undefined && this.socket !== undefined) callback(null, this.socket);
  }

  onConnect(abort: (error?: Error) => void): void {
    this.abortRequest = abort;
  }

  onHeaders(statusCode: number): boolean {
    this.firstByte ??= this.elapsed();
    this.statusCode = statusCode;
    this.stage = 'body';
    return true;
  }

  onData(chunk: Buffer): boolean {
    const cap = this.settings.bodyCapBytes;
    if (this.bodyChunks !== undefined && this.bodyBytes < cap)
      this.bodyChunks.push(chunk.subarray(0, cap - this.bodyBytes));
    this.bodyBytes += chunk.length;
    if (this.bodyBytes >= cap) this.judge();
    return true;
  }

  onComplete(): void {
    this.judge();
  }

  onError(error: Error): void {
    this.fail(failureOf(error, this.stage));
  }

  /** The response (or its first `bodyCapBytes`) is in: the probe is answered. */
  private judge(): void {
    const lastByte = this.elapsed();
    this.finish({
      answered: true,
      startedAt: this.startedAt,
      durationMs: roundMs(lastByte),
      timeoutMs: this.timeoutMs,
      timings: this.timings(lastByte),
      // Both are set before any response: sentAt at the hand-over to undici, statusCode by onHeaders.
      latencyMs: roundMs(lastByte - this.sentAt!),
      statusCode: this.statusCode!,
      ...(this.certificate === undefined ? {} : { certificate: this.certificate }),
      ...(this.bodyChunks === undefined ? {} : { body: this.keptBody(this.bodyChunks) }),
    });
  }

  private keptBody(chunks: readonly Buffer[]): ObservedBody {
    const cap = this.settings.bodyCapBytes;
    const bytes = Math.min(this.bodyBytes, cap);
    return { text: Buffer.concat(chunks, bytes).toString('utf8'), bytes, capped: this.bodyBytes >= cap };
  }

  protected fail(failure: Failure): void {
    this.finish(
      this.unanswered(failure, this.timings(undefined), {
        statusCode: this.statusCode,
        ...(this.certificate === undefined ? {} : { certificate: this.certificate }),
      }),
    );
  }

  protected release(observation: ProbeObservation): void {
    const reason =
      observation.answered || observation.reason !== FailureReason.Timeout ? PROBE_FINISHED : PROBE_DEADLINE;
    this.abortRequest?.(reason);
    this.client?.destroy(reason, noop);
    // Before hand-over undici does not own the socket yet (still connecting or in TLS).
    if (this.connectCallback !== undefined) this.socket?.destroy();
  }

  private timings(lastByte: number | undefined): ProbeObservation['timings'] {
    return {
      dns: roundMsOrUndefined(this.dns),
      connect: roundMsOrUndefined(this.connect),
      tls: roundMsOrUndefined(this.tls),
      firstByte: roundMsOrUndefined(this.firstByte),
      lastByte: roundMsOrUndefined(lastByte),
    };
  }
}

function onSocketSecureConnect(this: ProbeSocket<HttpProbe>): void {
  this[kProbe]?.secured(this as TLSSocket & ProbeSocket<HttpProbe>);
}
