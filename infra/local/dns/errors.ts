/** Errors of the local DNS server. */
export class LocalDnsError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'LocalDnsError';
  }
}

/** The DNS port is already bound by another process (UDP or TCP). */
export class DnsPortInUseError extends LocalDnsError {
  readonly code = 'DNS_PORT_IN_USE';
  constructor(
    readonly host: string,
    readonly port: number,
    options?: ErrorOptions,
  ) {
    super(
      `DNS port ${host}:${port} is already in use (UDP or TCP); stop whatever holds it or pick another with --dns-port`,
      options,
    );
    this.name = 'DnsPortInUseError';
  }
}

/** The DNS port cannot be bound for lack of privilege (ports below 1024). */
export class DnsPortAccessError extends LocalDnsError {
  readonly code = 'DNS_PORT_ACCESS';
  constructor(
    readonly host: string,
    readonly port: number,
    options?: ErrorOptions,
  ) {
    super(
      `DNS port ${host}:${port} needs privileges this process does not have; use a port ≥ 1024 with --dns-port (the default is 5353)`,
      options,
    );
    this.name = 'DnsPortAccessError';
  }
}

/** A client-location table that does not follow the documented format; `problems` lists every one. */
export class ClientLocationsError extends LocalDnsError {
  readonly code = 'CLIENT_LOCATIONS_INVALID';
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
    options?: ErrorOptions,
  ) {
    super(
      `${source}: invalid client-location table:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
      options,
    );
    this.name = 'ClientLocationsError';
  }
}
