export { AWS_COMMERCIAL_REGIONS, isAwsRegion, type AwsRegion } from './aws-regions.js';
export { DEFAULTS, LIMITS, type ProfileDefaults } from './defaults.js';
export { defineProfiles } from './define.js';
export { InvalidDefinitionsError } from './errors.js';
export { geoLocationOf, US_SUBDIVISION_CODES, type ContinentCode } from './geo-codes.js';
export { formatIp, parseIp, type Cidr, type IpAddress, type IpFamily } from '../ip/addresses.js';
export { parseSubnet, type SubnetParse } from './subnet.js';
export { formatIssue, formatPath, formatReceived, type IssuePath, type ValidationIssue } from './issues.js';
export { parseDefinitions, type ParseResult } from './parse.js';
export {
  parseHeaders,
  parseStatusCodeRanges,
  type HeadersInput,
  type StatusCodeRangesInput,
} from './string-forms.js';
export type { EndpointInput, MonitorConfigInput, ProfileInput } from './schema.js';
export { classifyTarget, type ClassifiedTarget } from './target.js';
export * from './types.js';
