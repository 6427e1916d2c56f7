export {
  answerQuestion,
  MAX_CHAIN_LENGTH,
  type AnswerRcode,
  type DnsAnswer,
  type DnsQuestion,
} from './answer.js';
export {
  DEFAULT_CLIENT_LOCATIONS,
  locateClient,
  parseClientLocations,
  type ClientLocation,
  type ClientLocationTable,
  type ClientSubnet,
  type LocatedClient,
} from './client-locations.js';
export { ClientLocationsError, DnsPortAccessError, DnsPortInUseError, LocalDnsError } from './errors.js';
export { loadClientLocations } from './load-client-locations.js';
export { REGION_COORDINATES, regionDistanceKm } from './region-distance.js';
export { respond, type ResponderContext, type Transport } from './respond.js';
export {
  MAX_MULTIVALUE_RECORDS,
  routingPolicyOf,
  selectRecords,
  type RoutingPolicy,
  type Selection,
  type SelectionContext,
} from './routing-policy.js';
export {
  DEFAULT_DNS_HOST,
  DEFAULT_DNS_PORT,
  startDnsServer,
  type DnsServer,
  type DnsServerOptions,
} from './server.js';
