/**
 * What an HTTP(S) request needs per probe, worked out once per request object: its origin,
 * its SNI name, and undici's dispatch options with our User-Agent; and
 * the observation of a request whose header secret was not resolved (nothing is sent).
 */
import net from 'node:net';
import type { Dispatcher } from 'undici';
import { FailureReason, type ProbeObservation } from '../../../shared/probe/result.js';
import type { ProbeRequest } from '../../../shared/probe/target.js';
import { PROBE_USER_AGENT } from './user-agent.js';

/** What a request needs per probe, worked out once per request object. */
export interface PreparedRequest {
  readonly origin: string;
  readonly servername: string | undefined;
  readonly request: Dispatcher.DispatchOptions;
}

export function prepare(target: ProbeRequest): PreparedRequest {
  // Every value is a string here (see the check in createHttpProber).
  const hostOverride = target.headers.find((h) => h.name.toLowerCase() === 'host')?.value as
    string | undefined;
  // The User-Agent is ours and not overridable (docs/probes.md): validation rejects a custom one.
  const headers = ['user-agent', PROBE_USER_AGENT];
  for (const header of target.headers) {
    if (header.name.toLowerCase() !== 'user-agent') headers.push(header.name, header.value as string);
  }
  const sniName = bareHostOf(hostOverride ?? target.host);
  const servername = net.isIP(sniName) === 0 && sniName !== '' ? sniName : undefined;
  return {
    origin: `${target.protocol === 'HTTPS' ? 'https' : 'http'}://${urlHostOf(target.host)}:${target.port}`,
    servername,
    request: { path: target.path ?? '/', method: target.method, headers },
  };
}

export function unresolvedSecret(target: ProbeRequest, timeoutMs: number): ProbeObservation {
  const name = target.headers.find((header) => typeof header.value !== 'string')?.name;
  return unsentForSecret(
    Date.now(),
    timeoutMs,
    `header ${JSON.stringify(name)}: its secret was not resolved before the check, so nothing was sent`,
  );
}

/** A check not sent because a header secret has no value (`detail` says which and why). */
export function unsentForSecret(startedAt: number, timeoutMs: number, detail: string): ProbeObservation {
  return {
    answered: false,
    startedAt,
    durationMs: 0,
    timeoutMs,
    timings: {},
    latencyMs: undefined,
    reason: FailureReason.Secret,
    detail,
  };
}

/** `example.com:8443` → `example.com`, `[::1]:443` → `::1`. */
function bareHostOf(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
  const colon = host.indexOf(':');
  return colon === -1 || host.indexOf(':', colon + 1) !== -1 ? host : host.slice(0, colon);
}

function urlHostOf(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
