export { answerQuestion, type AnswerRcode, type DnsAnswer, type DnsQuestion } from './answer.js';
export {
  DEFAULT_CLIENT_LOCATIONS,
  locateClient,
  parseClientLocations,
  type ClientLocation,
  type ClientLocationTable,
  type ClientSubnet,
  type LocatedClient,
} from './client-locations.js';
export { ClientLocationsError, DnsPortInUseError, LocalDnsError } from './errors.js';
export { loadClientLocations } from './load-client-locations.js';
export { regionDistanceKm } from './region-distance.js';
export { type ResponderContext, type Transport } from './respond.js';
export {
  MAX_MULTIVALUE_RECORDS,
  type RoutingPolicy,
  type Selection,
  type SelectionContext,
} from './routing-policy.js';
export { DEFAULT_DNS_PORT, startDnsServer, type DnsServer, type DnsServerOptions } from './server.js';
