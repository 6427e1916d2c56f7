/**
 * The normalized profile model: what the schema produces after every default is
 * applied and every string form is parsed. Everything downstream (probe planning,
 * statuses, routing planner, CDK) works on these types only.
 */
import type { ControlAuthor, MonitorOverrideItem } from '../state/items.js';

export const ROUTING_METHODS = [
  'Priority',
  'Weighted',
  'Performance',
  'Geographic',
  'MultiValue',
  'Subnet',
] as const;
export type RoutingMethod = (typeof ROUTING_METHODS)[number];

export const PROBE_PROTOCOLS = ['HTTP', 'HTTPS', 'TCP'] as const;
export type ProbeProtocol = (typeof PROBE_PROTOCOLS)[number];

export type ConfiguredStatus = 'Enabled' | 'Disabled';

/**
 * A header value kept in AWS and read by the probe when it runs (shared/profile/secret-references.ts):
 * a Secrets Manager secret (its full ARN), or an SSM parameter (name or ARN; a name is the
 * deployment's home region's).
 */
export type SecretReference = { readonly secret: string } | { readonly parameter: string };

/** What a header holds: its value, or a reference to a secret that holds it. */
export type HeaderValue = string | SecretReference;

export interface Header {
  readonly name: string;
  readonly value: HeaderValue;
}

export interface StatusCodeRange {
  readonly min: number;
  readonly max: number;
}

/** Per-region rule that turns a series of checks into the region's up/down verdict. */
export type HealthRule =
  | { readonly kind: 'consecutiveFailures' }
  | {
      readonly kind: 'sampleWindow';
      readonly sampleSize: number;
      readonly successfulSamplesRequired: number;
    };

/**
 * How many voting regions must say up: any one, more than half, all of them, or a count
 * (at most the voting regions). Absent: Azure's rule (down only if fewer than half say up).
 */
export type RegionQuorum = 'any' | 'majority' | 'all' | number;

export const REGION_QUORUM_WORDS = ['any', 'majority', 'all'] as const;

/**
 * What the first 64 KiB of a response body must contain: a substring (as written: case and
 * spaces count) or a regular expression with its flags (of `imsu`).
 */
export type ExpectedBody =
  | { readonly kind: 'substring'; readonly text: string }
  | { readonly kind: 'regex'; readonly pattern: string; readonly flags: string };

export interface MonitorConfig {
  readonly protocol: ProbeProtocol;
  readonly port: number;
  /** `undefined` for TCP. */
  readonly path: string | undefined;
  readonly method: 'GET' | 'HEAD';
  readonly intervalInSeconds: 10 | 30;
  readonly timeoutInSeconds: number;
  readonly toleratedNumberOfFailures: number;
  readonly customHeaders: readonly Header[];
  /** Empty for TCP; `[{min:200,max:200}]` by default for HTTP/HTTPS. */
  readonly expectedStatusCodeRanges: readonly StatusCodeRange[];
  readonly healthRule: HealthRule;
  /**
   * Consecutive successful checks a region needs before it reports a down endpoint up again;
   * absent when not written (1: Azure's rule).
   */
  readonly requiredSuccessesToRecover?: number;
  /** A check slower than this (ms, to the last byte; TCP: the connect) fails with reason `slow`; absent: no limit. */
  readonly maxLatencyMs?: number;
  /** The share of voting regions that must say up for Online; absent: Azure's rule. */
  readonly regionQuorum?: RegionQuorum;
  /** HTTP/HTTPS GET: the first 64 KiB of the body must contain it (else reason `body`); absent: not checked. */
  readonly expectedBody?: ExpectedBody;
  /**
   * HTTPS only: a `CertificateExpiring` warning when the presented certificate has fewer days
   * than this left (never a failed check); absent when not written (DEFAULTS.certificateWarningDays).
   */
  readonly certificateWarningDays?: number;
}

export interface DnsConfig {
  readonly zoneName: string; // normalized: lower case, no trailing dot
  readonly hostedZoneId: string | undefined;
  readonly relativeName: string; // lower case; '@' is not used: the apex is not supported
  readonly ttl: number;
  /** `${relativeName}.${zoneName}` */
  readonly fqdn: string;
}

export interface SubnetRange {
  /** As written by the user: a CIDR (`10.0.0.0/8`) or a range (`192.0.2.1-192.0.2.99`). */
  readonly source: string;
  /** The same range as one or more CIDR blocks (a `first-last` range may need several). */
  readonly cidrs: readonly string[];
}

interface EndpointBase {
  readonly name: string;
  readonly endpointStatus: ConfiguredStatus;
  /** Priority 1–1000, unique within the profile, defaults to list order (1-based). */
  readonly priority: number;
  /** 1–255, default 1. */
  readonly weight: number;
  /** AWS region (Performance). */
  readonly endpointLocation: string | undefined;
  /** Route 53 geolocation codes: 'WORLD', 'GEO-EU', 'DE', 'US-CA' (Geographic). */
  readonly geoMapping: readonly string[];
  /** Subnet method: the ranges this endpoint serves; empty = the fallback endpoint. */
  readonly subnets: readonly SubnetRange[];
  /** Endpoint-level headers as written (merging with the profile's is done by probe planning). */
  readonly customHeaders: readonly Header[];
  /**
   * Epoch ms when this endpoint last became Enabled again after being Disabled; verdicts of
   * checks made before it never count (shared/status/reenabled.ts). Not part of the
   * definitions format: the config writer (or a runtime override) stamps it.
   */
  readonly enabledAt?: number;
  /** Runtime control in effect (shared/control/apply.ts); not part of the definitions format. */
  readonly runtime?: EndpointRuntime;
}

/** Who set a configured status at runtime (`tm endpoint|profile disable|enable`). */
export interface RuntimeStatus {
  readonly status: ConfiguredStatus;
  readonly set: ControlAuthor;
}

export interface EndpointRuntime {
  /** `endpointStatus` comes from a runtime control, not from the definitions. */
  readonly status?: RuntimeStatus;
  /** A monitor status set by hand, in effect now (`tm endpoint override`; external endpoints). */
  readonly override?: MonitorOverrideItem;
}

export interface ExternalEndpoint extends EndpointBase {
  readonly type: 'external';
  /** Host name (lower case, no trailing dot) or IP address literal. */
  readonly target: string;
  readonly targetKind: 'hostname' | 'ipv4' | 'ipv6';
  readonly alwaysServe: boolean;
}

export interface NestedEndpoint extends EndpointBase {
  readonly type: 'nested';
  readonly targetProfile: string;
  readonly minChildEndpoints: number;
  readonly minChildEndpointsIPv4: number | undefined;
  readonly minChildEndpointsIPv6: number | undefined;
}

export type Endpoint = ExternalEndpoint | NestedEndpoint;

export interface Profile {
  readonly name: string;
  readonly profileStatus: ConfiguredStatus;
  readonly trafficRoutingMethod: RoutingMethod;
  readonly dnsConfig: DnsConfig;
  /** MultiValue only; default 2. `undefined` for other methods. */
  readonly maxReturn: number | undefined;
  readonly monitorConfig: MonitorConfig;
  /** Probe regions for this profile; defaults to the deployment's probe regions when absent. */
  readonly probeRegions: readonly string[] | undefined;
  /**
   * Route 53 health checks as a second path that needs neither the home region nor Route 53's
   * control plane (docs/adr/0011-static-failover.md); false: today's record-change failover only.
   */
  readonly staticFailover: boolean;
  readonly endpoints: readonly Endpoint[];
  /** Epoch ms when the profile last became Enabled again after being Disabled (see `EndpointBase.enabledAt`). */
  readonly enabledAt?: number;
  /** Runtime control in effect (shared/control/apply.ts); not part of the definitions format. */
  readonly runtime?: { readonly status?: RuntimeStatus };
}
