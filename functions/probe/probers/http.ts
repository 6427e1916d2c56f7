/**
 * The HTTP and HTTPS probe (SPEC §2): one request on a brand-new connection, bounded by
 * one deadline from DNS lookup to the last byte (HTTPS: the target's TLS session resumed when
 * the prober holds one, see docs/probes.md). It reports the status code it got; each
 * profile judges it (`judgeObservation`).
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
import { failureOf, timeoutOf, type Failure, type ProbeStage } from './failure.js';
import {
  firstStageOf,
  kProbe,
  ProbeClock,
  watchConnect,
  type ConnectListener,
  type DeadlineOwner,
  type ProbeSocket,
} from './probe-clock.js';
import { roundMs, roundMsOrUndefined } from './timing.js';
import { TlsSessionCache, type OfferedSession } from '../../../shared/probe/tls-session-cache.js';
import { SHARD_CAPACITY } from '../../../shared/probe/shards.js';
import { prepare, unresolvedSecret, type PreparedRequest } from './http-request.js';

/**
 * Bytes of body read before the probe stops reading (the status has decided by then); the
 * most an expectedBody is matched against. Only a request that `keepsBody` holds them.
 */
export const BODY_CAP_BYTES = 64 * 1024;

/**
 * How long an HTTPS target's TLS session is resumed after its full handshake: each target gets
 * a full handshake (and reports the certificate it presents now) at least this often. Ten
 * minutes keeps the extra full handshakes to 1 in 60 probes at a 10 s interval, while a
 * renewed certificate, or a server that can no longer complete a full handshake while it
 * still resumes old sessions, is seen within minutes.
 */
export const TLS_SESSION_MAX_AGE_MS = 10 * 60_000;

export interface HttpProberOptions {
  /** Host name resolution for the connection; default: the operating system's (`dns.lookup`). */
  readonly lookup?: LookupFunction;
  /** Default `BODY_CAP_BYTES`. */
  readonly bodyCapBytes?: number;
  /**
   * HTTPS targets whose TLS session is kept for resumption (least recently probed go first);
   * 0: none, every probe makes a full handshake. Default `SHARD_CAPACITY`, the requests one
   * shard probes.
   */
  readonly tlsSessionCacheEntries?: number;
  /** Default `TLS_SESSION_MAX_AGE_MS`. */
  readonly tlsSessionMaxAgeMs?: number;
  /** The clock of the session age bound; default `Date.now`. */
  readonly now?: () => number;
}

export function createHttpProber(options: HttpProberOptions = {}): Prober {
  const prepared = new WeakMap<ProbeRequest, PreparedRequest>();
  const settings: ProbeSettings = {
    lookup: options.lookup,
    bodyCapBytes: options.bodyCapBytes ?? BODY_CAP_BYTES,
    sessions: new TlsSessionCache<TlsSession>({
      maxEntries: options.tlsSessionCacheEntries ?? SHARD_CAPACITY,
      maxAgeMs: options.tlsSessionMaxAgeMs ?? TLS_SESSION_MAX_AGE_MS,
    }),
    now: options.now ?? Date.now,
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

/** A TLS session to resume, with the certificate the server presented at its full handshake. */
interface TlsSession {
  readonly session: Buffer;
  /** Undefined when its validity end could not be read (as on a full handshake). */
  readonly certificate: PeerCertificate | undefined;
}

interface ProbeSettings {
  readonly lookup: LookupFunction | undefined;
  readonly bodyCapBytes: number;
  readonly sessions: TlsSessionCache<TlsSession>;
  readonly now: () => number;
}

let sharedSecureContext: SecureContext | undefined;

/**
 * One context for every HTTPS probe: creating a context per connection (and loading the
 * root store into it) costs more CPU than the handshake's own crypto. Sessions are resumed
 * by passing the target's last one (`session`), not through the context.
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
class HttpProbe implements Dispatcher.DispatchHandler, ConnectListener, DeadlineOwner {
  private readonly clock: ProbeClock;
  private stage: ProbeStage;
  private done = false;
  private client: Client | undefined;
  private socket: Socket | undefined;
  private abortRequest: ((error?: Error) => void) | undefined;
  private dns: number | undefined;
  private connect: number | undefined;
  private tls: number | undefined;
  private firstByte: number | undefined;
  private sentAt: number | undefined;
  private statusCode: number | undefined;
  private certificate: PeerCertificate | undefined;
  /** HTTPS: the session offered for resumption, and when its full handshake was made. */
  private offered: OfferedSession<TlsSession> | undefined;
  /** HTTPS: the offered session, when the server resumed it. */
  private resumed: OfferedSession<TlsSession> | undefined;
  /** HTTPS: a session issued before the handshake ended (TLS 1.2), kept once it has. */
  private issued: Buffer | undefined;
  /** HTTPS: the session clock when the connection was opened. */
  private openedAt = 0;
  private bodyBytes = 0;
  /** The body's first `bodyCapBytes`, kept only when the request `keepsBody`. */
  private readonly bodyChunks: Buffer[] | undefined;

  constructor(
    private readonly target: ProbeRequest,
    private readonly timeoutMs: number,
    private readonly prepared: PreparedRequest,
    private readonly settings: ProbeSettings,
    private readonly resolve: (observation: ProbeObservation) => void,
  ) {
    this.clock = new ProbeClock(timeoutMs, this);
    this.stage = firstStageOf(target.host);
    this.bodyChunks = target.keepsBody === true ? [] : undefined;
  }

  start(): void {
    this.clock.armDeadline();
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
    if (protocol === 'HTTPS') {
      this.openedAt = this.settings.now();
      this.offered = this.settings.sessions.offer(this.prepared.sessionKey, this.openedAt);
    }
    const socket: ProbeSocket<HttpProbe> =
      protocol === 'HTTPS'
        ? tls.connect({
            host,
            port,
            lookup,
            servername: this.prepared.servername,
            rejectUnauthorized: false,
            secureContext: secureContext(),
            session: this.offered?.session.session,
          })
        : net.connect({ host, port, lookup });
    this.socket = socket;
    this.connectCallback = callback;
    // The error listener stays for the whole probe: a reset mid-body is a failure even
    // where undici would take it as the end of a close-delimited body.
    watchConnect(socket, this, this.stage === 'dns');
    if (protocol === 'HTTPS') {
      socket.once('secureConnect', onSocketSecureConnect);
      socket.on('session', onSocketSession);
    }
  }

  private connectCallback: ((...args: [null, Socket] | [Error, null]) => void) | undefined;

  looked(): void {
    this.dns = this.clock.elapsed();
    this.stage = 'connect';
  }

  connected(): void {
    this.connect = this.clock.elapsed();
    if (this.target.protocol === 'HTTPS') this.stage = 'tls';
    else this.handOver();
  }

  secured(socket: TLSSocket): void {
    this.tls = this.clock.elapsed();
    const offered = this.offered;
    let certificate: PeerCertificate | undefined;
    if (socket.isSessionReused() && offered !== undefined) {
      // Node shows no peer certificate on a resumed session: the one of its full handshake is reported.
      this.resumed = offered;
      certificate = offered.session.certificate;
    } else {
      // A session the server declined is never offered again; a new one may come from this handshake.
      if (offered !== undefined) this.settings.sessions.drop(this.prepared.sessionKey);
      const presented = socket.getPeerX509Certificate();
      if (presented === undefined) {
        this.fail({ reason: FailureReason.Tls, detail: 'the server presented no certificate' });
        return;
      }
      certificate = peerCertificateOf(presented);
    }
    this.certificate = certificate;
    if (this.issued !== undefined) this.keepSession(this.issued, certificate);
    this.handOver();
  }

  /**
   * A session (TLS 1.3: a ticket) the server issued on this connection, to resume the next
   * probe with. TLS 1.2 issues it before the handshake ends: it is kept once the handshake is done.
   */
  sessionIssued(session: Buffer): void {
    if (this.done) return;
    if (this.tls === undefined) this.issued = session;
    else this.keepSession(session, this.certificate);
  }

  private keepSession(session: Buffer, certificate: PeerCertificate | undefined): void {
    this.issued = undefined;
    // A resumed handshake's sessions descend from the full handshake of the session it resumed.
    const fullHandshakeAt = this.resumed?.fullHandshakeAt ?? this.openedAt;
    this.settings.sessions.store(this.prepared.sessionKey, { session, certificate }, fullHandshakeAt);
  }

  private handOver(): void {
    this.stage = 'headers';
    this.sentAt = this.clock.elapsed();
    const callback = this.connectCallback;
    this.connectCallback = undefined;
    if (callback !== undefined && this.socket !== undefined) callback(null, this.socket);
  }

  socketFailed(error: Error): void {
    this.fail(failureOf(error, this.stage));
  }

  deadlinePassed(): void {
    this.fail(timeoutOf(this.timeoutMs, this.stage));
  }

  onConnect(abort: (error?: Error) => void): void {
    this.abortRequest = abort;
  }

  onHeaders(statusCode: number): boolean {
    this.firstByte ??= this.clock.elapsed();
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
    const lastByte = this.clock.elapsed();
    this.finish({
      answered: true,
      startedAt: this.clock.startedAt,
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

  private fail(failure: Failure): void {
    this.finish(
      this.clock.unanswered(failure, this.timings(undefined), {
        statusCode: this.statusCode,
        ...(this.certificate === undefined ? {} : { certificate: this.certificate }),
      }),
    );
  }

  /** Ends the probe with its first outcome; whatever reports after that (a late error, the deadline) is ignored. */
  private finish(observation: ProbeObservation): void {
    if (this.done) return;
    this.done = true;
    this.clock.disarm();
    // After a probe that got no answer the next one makes a full handshake: no session is retried after it.
    if (!observation.answered && this.target.protocol === 'HTTPS')
      this.settings.sessions.drop(this.prepared.sessionKey);
    this.resolve(observation);
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

function onSocketSession(this: ProbeSocket<HttpProbe>, session: Buffer): void {
  this[kProbe]?.sessionIssued(session);
}

function onSocketSecureConnect(this: ProbeSocket<HttpProbe>): void {
  this[kProbe]?.secured(this as TLSSocket & ProbeSocket<HttpProbe>);
}
