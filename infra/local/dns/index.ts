export { answerQuestion } from './answer.js';
export {
  DEFAULT_CLIENT_LOCATIONS,
  locateClient,
  parseClientLocations,
  type ClientLocationTable,
} from './client-locations.js';
export { ClientLocationsError, DnsPortInUseError, LocalDnsError } from './errors.js';
export { loadClientLocations } from './load-client-locations.js';
export { regionDistanceKm } from './region-distance.js';
export { MAX_MULTIVALUE_RECORDS } from './routing-policy.js';
export { DEFAULT_DNS_PORT, startDnsServer, type DnsServer } from './server.js';
