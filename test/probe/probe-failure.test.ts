/**
 * How a failed probe is reported: the reason from the error's code and the stage, and a detail
 * made of our own words and the code only — never the error's message, which can quote request
 * data such as header values.
 */
import { describe, expect, it } from 'vitest';
import { failureOf, type ProbeStage } from '../../functions/probe/probers/failure.js';

const withCode = (code: unknown) =>
  Object.assign(new Error('secret-header-value leaked into a message'), { code });

describe('failureOf', () => {
  it.each<[unknown, ProbeStage, string, string]>([
    ['ENOTFOUND', 'dns', 'dns', 'host name did not resolve (ENOTFOUND)'],
    ['EAI_AGAIN', 'dns', 'dns', 'host name did not resolve (EAI_AGAIN)'],
    ['ECONNREFUSED', 'connect', 'refused', 'connection refused (ECONNREFUSED)'],
    ['ECONNRESET', 'tls', 'tls', 'TLS handshake failed (ECONNRESET)'],
    [undefined, 'tls', 'tls', 'TLS handshake failed'],
    [
      'ECONNRESET',
      'headers',
      'reset',
      'connection reset or closed by the peer waiting for the response headers (ECONNRESET)',
    ],
    ['EPIPE', 'connect', 'reset', 'connection reset or closed by the peer connecting (EPIPE)'],
    ['ETIMEDOUT', 'connect', 'timeout', 'operating system timed out connecting (ETIMEDOUT)'],
    [
      'ERR_SSL_WRONG_VERSION_NUMBER',
      'body',
      'tls',
      'TLS failure reading the response body (ERR_SSL_WRONG_VERSION_NUMBER)',
    ],
    [
      'ERR_TLS_CERT_ALTNAME_INVALID',
      'headers',
      'tls',
      'TLS failure waiting for the response headers (ERR_TLS_CERT_ALTNAME_INVALID)',
    ],
    ['EHOSTUNREACH', 'connect', 'network', 'network error connecting (EHOSTUNREACH)'],
    [undefined, 'body', 'network', 'network error reading the response body'],
    [42, 'connect', 'network', 'network error connecting'],
  ])('code %s while %s → %s', (code, stage, reason, detail) => {
    const failure = failureOf(withCode(code), stage);
    expect(failure).toEqual({ reason, detail });
    expect(failure.detail).not.toContain('secret-header-value');
  });

  it('a thrown value that is not an object is a network error without a code', () => {
    expect(failureOf('boom', 'connect')).toEqual({ reason: 'network', detail: 'network error connecting' });
    expect(failureOf(null, 'dns')).toEqual({
      reason: 'network',
      detail: 'network error resolving the host name',
    });
  });
});
