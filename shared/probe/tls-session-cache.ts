/**
 * TLS sessions an HTTPS prober may resume, per target (pure: the caller passes the time).
 * Bounded in entries (least recently used goes first) and in age: a session is offered only
 * until `maxAgeMs` after the full handshake it descends from, so a target gets a full
 * handshake (and shows the certificate it presents now) at least that often. Sessions a
 * resumed handshake yields keep the time of that full handshake.
 */
import { LRUCache } from 'lru-cache';

export interface TlsSessionCacheOptions {
  /** Most targets held; 0 keeps none (every handshake is a full one). */
  readonly maxEntries: number;
  /** How long after its full handshake a session is still offered. */
  readonly maxAgeMs: number;
}

export interface OfferedSession<S> {
  readonly session: S;
  /** When the full handshake this session descends from was made. */
  readonly fullHandshakeAt: number;
}

export class TlsSessionCache<S> {
  private readonly entries: LRUCache<string, OfferedSession<S>> | undefined;

  constructor(private readonly options: TlsSessionCacheOptions) {
    if (options.maxEntries > 0) this.entries = new LRUCache({ max: options.maxEntries });
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }

  /** The session to offer for `key` at `now`, if one is held and young enough (an old one is dropped). */
  offer(key: string, now: number): OfferedSession<S> | undefined {
    const entry = this.entries?.get(key);
    if (entry === undefined || now - entry.fullHandshakeAt < this.options.maxAgeMs) return entry;
    this.entries?.delete(key);
    return undefined;
  }

  /** Holds `session` for `key`, descended from a full handshake made at `fullHandshakeAt`. */
  store(key: string, session: S, fullHandshakeAt: number): void {
    this.entries?.set(key, { session, fullHandshakeAt });
  }

  /** Forgets `key`'s session: its next handshake is a full one. */
  drop(key: string): void {
    this.entries?.delete(key);
  }
}
