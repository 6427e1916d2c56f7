/**
 * What one probe saw (`ProbeObservation`, the prober's output) and what one check
 * concluded for one profile (`ProbeResult`, after `judgeObservation` applied that
 * profile's timeout and expected status codes; SPEC §2). Discriminated unions, never a
 * bare boolean.
 */
export const FailureReason = {
  Timeout: 'timeout',
  Refused: 'refused',
  Reset: 'reset',
  Tls: 'tls',
  Dns: 'dns',
  Status: 'status',
  /** An answer arrived, later than the profile's `maxLatencyMs`. */
  Slow: 'slow',
  /** An answer arrived whose first 64 KiB of body lack the profile's `expectedBody`. */
  Body: 'body',
  Network: 'network',
  /** A header's secret or parameter could not be read, so the check was not sent. */
  Secret: 'secret',
} as const;
export type FailureReason = (typeof FailureReason)[keyof typeof FailureReason];

import type { PeerCertificate } from './certificate.js';

/** Milliseconds from the start of the probe at which each phase ended; absent when not reached. */
export interface PhaseTimings {
  readonly dns?: number;
  readonly connect?: number;
  readonly tls?: number;
  readonly firstByte?: number;
  readonly lastByte?: number;
}

interface ObservationBase {
  /** Epoch ms when the probe started. */
  readonly startedAt: number;
  /** Milliseconds from the start until the probe ended (answer complete, failure, or deadline). */
  readonly durationMs: number;
  /** The deadline the probe ran with (the longest timeout among the judges it served). */
  readonly timeoutMs: number;
  readonly timings: PhaseTimings;
  /** From just before the request is sent to the last byte (SPEC §2); TCP: connect time. */
  readonly latencyMs: number | undefined;
  /** HTTP/HTTPS: the response status, when headers arrived. */
  readonly statusCode?: number;
  /** HTTPS: the certificate the endpoint presented (expiry, short subject and issuer), when one was. */
  readonly certificate?: PeerCertificate;
}

/** HTTP/HTTPS: a response arrived (its first bytes up to the body cap); TCP: the connection was established. */
export interface ProbeAnswered extends ObservationBase {
  readonly answered: true;
  /** The body as read, only when the request `keepsBody` (a judge has an expectedBody). */
  readonly body?: ObservedBody;
}

/** The first bytes of a response body, decoded as UTF-8. */
export interface ObservedBody {
  readonly text: string;
  /** Bytes read (at most the body cap). */
  readonly bytes: number;
  /** True when the body was longer than the cap and reading stopped there. */
  readonly capped: boolean;
}

/** No usable answer: refused, reset, TLS/DNS failure, or nothing within the deadline. */
export interface ProbeUnanswered extends ObservationBase {
  readonly answered: false;
  readonly reason: FailureReason;
  /** Short human text, never containing header values. */
  readonly detail: string;
}

export type ProbeObservation = ProbeAnswered | ProbeUnanswered;

/** What a judged check keeps of its observation. */
type ResultBase = Pick<ObservationBase, 'startedAt' | 'timings' | 'latencyMs' | 'statusCode' | 'certificate'>;

export interface ProbeSuccess extends ResultBase {
  readonly ok: true;
}

export interface ProbeFailure extends ResultBase, Pick<ProbeUnanswered, 'reason' | 'detail'> {
  readonly ok: false;
}

/** One judged check. */
export type ProbeResult = ProbeSuccess | ProbeFailure;
