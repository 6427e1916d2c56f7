/** Errors of the local DNS server. */
import { TrafficManagerError } from '../../../shared/errors.js';

export class LocalDnsError extends TrafficManagerError {
  override readonly name: string = 'LocalDnsError';
  readonly code: string = 'LOCAL_DNS';
}

/** The DNS port is already bound by another process (UDP or TCP). */
export class DnsPortInUseError extends LocalDnsError {
  override readonly name = 'DnsPortInUseError';
  override readonly code = 'DNS_PORT_IN_USE';
  constructor(
    readonly host: string,
    readonly port: number,
    options?: ErrorOptions,
  ) {
    super(
      `DNS port ${host}:${port} is already in use (UDP or TCP); stop whatever holds it or pick another with --dns-port`,
      options,
    );
  }
}

/** The DNS port cannot be bound for lack of privilege (ports below 1024). */
export class DnsPortAccessError extends LocalDnsError {
  override readonly name = 'DnsPortAccessError';
  override readonly code = 'DNS_PORT_ACCESS';
  constructor(
    readonly host: string,
    readonly port: number,
    options?: ErrorOptions,
  ) {
    super(
      `DNS port ${host}:${port} needs privileges this process does not have; use a port ≥ 1024 with --dns-port (the default is 5353)`,
      options,
    );
  }
}

/** A client-location table that does not follow the documented format; `problems` lists every one. */
export class ClientLocationsError extends LocalDnsError {
  override readonly name = 'ClientLocationsError';
  override readonly code = 'CLIENT_LOCATIONS_INVALID';
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
    options?: ErrorOptions,
  ) {
    super(
      `${source}: invalid client-location table:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
      options,
    );
  }
}

/** A DNS query that breaks the protocol (answered FORMERR). */
export class MalformedQueryError extends LocalDnsError {
  override readonly name = 'MalformedQueryError';
  override readonly code = 'MALFORMED_QUERY';
}
