/** What one check returned (SPEC §2). A discriminated union, never a bare boolean. */
export const FailureReason = {
  Timeout: 'timeout',
  Refused: 'refused',
  Reset: 'reset',
  Tls: 'tls',
  Dns: 'dns',
  Status: 'status',
  Network: 'network',
} as const;
export type FailureReason = (typeof FailureReason)[keyof typeof FailureReason];

/** Milliseconds from the start of the probe at which each phase ended; absent when not reached. */
export interface PhaseTimings {
  readonly dns?: number;
  readonly connect?: number;
  readonly tls?: number;
  readonly firstByte?: number;
  readonly lastByte?: number;
}

interface ResultBase {
  /** Epoch ms when the probe started. */
  readonly startedAt: number;
  readonly timings: PhaseTimings;
  /** From just before the request is sent to the last byte (SPEC §2); TCP: connect time. */
  readonly latencyMs: number | undefined;
  readonly statusCode?: number;
  /** HTTPS: the peer certificate's expiry (epoch ms), when one was presented. */
  readonly certificateExpiresAt?: number;
}

export interface ProbeSuccess extends ResultBase {
  readonly ok: true;
}

export interface ProbeFailure extends ResultBase {
  readonly ok: false;
  readonly reason: FailureReason;
  /** Short human text, never containing header values. */
  readonly detail: string;
}

export type ProbeResult = ProbeSuccess | ProbeFailure;
