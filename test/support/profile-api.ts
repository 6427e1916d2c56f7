/** The profile module's API as the tests use it, from one place. */
export { AWS_COMMERCIAL_REGIONS, isAwsRegion, type AwsRegion } from '../../shared/profile/aws-regions.js';
export { DEFAULTS, LIMITS, type ProfileDefaults } from '../../shared/profile/defaults.js';
export { defineProfiles } from '../../shared/profile/define.js';
export { InvalidDefinitionsError } from '../../shared/profile/errors.js';
export { geoLocationOf, US_SUBDIVISION_CODES, type ContinentCode } from '../../shared/profile/geo-codes.js';
export { formatIp, parseIp, type Cidr, type IpAddress, type IpFamily } from '../../shared/ip/addresses.js';
export { parseSubnet, type SubnetParse } from '../../shared/profile/subnet.js';
export {
  formatIssue,
  formatPath,
  formatReceived,
  type IssuePath,
  type ValidationIssue,
} from '../../shared/profile/issues.js';
export { parseDefinitions, type ParseResult } from '../../shared/profile/parse.js';
export {
  parseHeaders,
  parseStatusCodeRanges,
  type HeadersInput,
  type StatusCodeRangesInput,
} from '../../shared/profile/string-forms.js';
export type { EndpointInput, MonitorConfigInput, ProfileInput } from '../../shared/profile/schema.js';
export { classifyTarget, type ClassifiedTarget } from '../../shared/profile/target.js';
export * from '../../shared/profile/types.js';
