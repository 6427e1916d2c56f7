/**
 * Every default and limit of the definition format, in one place. `docs/definitions.md`
 * shows the same values, and `test/core/profile-defaults.test.ts` proves both agree.
 */
import { AWS_COMMERCIAL_REGIONS } from './aws-regions.js';
import type { HealthRule, StatusCodeRange } from './types.js';

export const DEFAULTS = {
  profileStatus: 'Enabled',
  endpointStatus: 'Enabled',
  /**
   * 30 s: the value of the seeds' failover timeline. Resolvers keep serving the old answer
   * for up to the TTL after DNS changes, so it adds directly to failover time; 30 s keeps
   * that short without multiplying query volume the way a TTL of a few seconds would.
   */
  ttl: 30,
  maxReturn: 2,
  protocol: 'HTTP',
  port: { HTTP: 80, HTTPS: 443 },
  path: '/',
  method: 'GET',
  intervalInSeconds: 30,
  /** By interval: the longest timeout each interval allows. */
  timeoutInSeconds: { 30: 10, 10: 9 },
  toleratedNumberOfFailures: 3,
  expectedStatusCodeRanges: [{ min: 200, max: 200 }] as readonly StatusCodeRange[],
  healthRule: { kind: 'consecutiveFailures' } as HealthRule,
  /** Front Door's classic sample window. */
  sampleSize: 4,
  successfulSamplesRequired: 2,
  /** Azure's rule: one successful check brings a down region back. */
  requiredSuccessesToRecover: 1,
  /** HTTPS: warn when the presented certificate has fewer days than this left. */
  certificateWarningDays: 14,
  weight: 1,
  minChildEndpoints: 1,
  alwaysServe: false,
  endpointType: 'external',
  /** Static failover on (docs/adr/0011-static-failover.md); a deployment may change it (`ProfileDefaults`). */
  staticFailover: true,
} as const;

/** Defaults a deployment sets for its profiles (the CDK prop `staticFailover`). */
export interface ProfileDefaults {
  /** @default DEFAULTS.staticFailover */
  readonly staticFailover?: boolean;
}

export const LIMITS = {
  priority: { min: 1, max: 1000 },
  weight: { min: 1, max: 255 },
  ttl: { min: 0, max: 2147483647 },
  maxReturn: { min: 1, max: 8 },
  port: { min: 1, max: 65535 },
  intervals: [10, 30] as const,
  /** Timeout range by interval. */
  timeoutInSeconds: { 30: { min: 5, max: 10 }, 10: { min: 5, max: 9 } },
  toleratedNumberOfFailures: { min: 0, max: 9 },
  customHeaders: 8,
  /** Header names and values, in characters; servers commonly refuse header lines over 8 KB. */
  headerNameLength: 256,
  headerValueLength: 8192,
  expectedStatusCodeRanges: 8,
  /** Azure Traffic Manager's own limits: 200 endpoints per profile, 200 profiles (per subscription). */
  endpointsPerProfile: 200,
  profiles: 200,
  /**
   * A profile is stored as one DynamoDB item (CONFIG / PROFILE#name, its normalized JSON):
   * items are limited to 400 KB, and this leaves room for the item's other attributes.
   */
  profileDefinitionBytes: 350_000,
  /**
   * Every profile's normalized JSON together: a deployment carries them in a custom resource
   * property, i.e. in the CloudFormation template (at most 1 MB), and an update request holds
   * the old and the new value in one Lambda event (at most 1 MB).
   */
  definitionsBytes: 400_000,
  statusCode: { min: 100, max: 599 },
  sampleSize: { min: 1, max: 32 },
  requiredSuccessesToRecover: { min: 1, max: 10 },
  /** Below the longest timeout (10 s); rules/monitor.ts narrows it to the profile's timeout. */
  maxLatencyMs: { min: 1, max: 9_999 },
  /** Characters of an expectedBody substring or pattern. */
  expectedBodyLength: { min: 1, max: 256 },
  /** A count of regions; rules/monitor.ts narrows it to the profile's probeRegions. */
  regionQuorum: { min: 1, max: AWS_COMMERCIAL_REGIONS.length },
  certificateWarningDays: { min: 1, max: 365 },
  /** Nesting levels: edges in the longest parent → child chain. */
  nestingDepth: 10,
  minChildEndpoints: { min: 1, max: 1000 },
} as const;

/**
 * Bounds on the raw input of validation (before the schema), so that any file is answered
 * quickly and in little memory: far above what valid definitions need, far below what
 * would make validation slow.
 */
export const INPUT_BOUNDS = {
  /** A definitions file, in bytes. */
  fileBytes: 1_048_576,
  /** Lists, objects, strings, numbers and booleans in all (a value shared by YAML aliases counts at every use). */
  values: 50_000,
  /** Characters of one string or field name. */
  stringLength: 65_536,
  /** Nesting of lists and objects. */
  depth: 32,
} as const;
