import { FailureReason } from '../../../shared/probe/result.js';

/** Where a probe was when it failed; turns an error code into a reason and a detail. */
export type ProbeStage = 'dns' | 'connect' | 'tls' | 'headers' | 'body';

const STAGE_TEXT: Record<ProbeStage, string> = {
  dns: 'resolving the host name',
  connect: 'connecting',
  tls: 'in the TLS handshake',
  headers: 'waiting for the response headers',
  body: 'reading the response body',
};

const DNS_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NODATA',
  'EAI_NONAME',
  'ENODATA',
  'ESERVFAIL',
]);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET']);

export interface Failure {
  readonly reason: FailureReason;
  readonly detail: string;
}

/**
 * Classifies what went wrong. The detail is built only from our own words and the
 * error's code, never from its message: messages can quote request data (header
 * values), and `detail` must never carry them.
 */
export function failureOf(error: unknown, stage: ProbeStage): Failure {
  const code = codeOf(error);
  const where = STAGE_TEXT[stage];
  if (code !== undefined && DNS_CODES.has(code))
    return { reason: FailureReason.Dns, detail: `host name did not resolve (${code})` };
  if (code === 'ECONNREFUSED')
    return { reason: FailureReason.Refused, detail: 'connection refused (ECONNREFUSED)' };
  if (stage === 'tls')
    return {
      reason: FailureReason.Tls,
      detail: `TLS handshake failed${code === undefined ? '' : ` (${code})`}`,
    };
  if (code !== undefined && RESET_CODES.has(code))
    return {
      reason: FailureReason.Reset,
      detail: `connection reset or closed by the peer ${where} (${code})`,
    };
  if (code === 'ETIMEDOUT')
    return { reason: FailureReason.Timeout, detail: `operating system timed out ${where} (ETIMEDOUT)` };
  if (code !== undefined && (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS')))
    return { reason: FailureReason.Tls, detail: `TLS failure ${where} (${code})` };
  return {
    reason: FailureReason.Network,
    detail: `network error ${where}${code === undefined ? '' : ` (${code})`}`,
  };
}

export function timeoutOf(timeoutMs: number, stage: ProbeStage): Failure {
  return { reason: FailureReason.Timeout, detail: `no answer within ${timeoutMs} ms, ${STAGE_TEXT[stage]}` };
}

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}
