/**
 * Whether a call to the home table failed because the home region does not answer — as in the
 * outage static failover exists for — rather than because of the call: the local stack's
 * home-region fault; a connection refused, reset, timed out or not resolved; or DynamoDB's
 * server side failing (5xx) after the SDK's retries. Access denied, a missing table or a bad
 * request are not: they are the caller's to fix, and `tm` says so.
 */
import { isHomeRegionRefusal } from '../local/faults.js';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

export function isUnreachable(error: unknown): boolean {
  if (isHomeRegionRefusal(error)) return true;
  const { code, name, $metadata } = error as {
    code?: string;
    name?: string;
    $metadata?: { httpStatusCode?: number };
  };
  if (code !== undefined && NETWORK_CODES.has(code)) return true;
  if (name === 'TimeoutError') return true;
  return ($metadata?.httpStatusCode ?? 0) >= 500;
}
