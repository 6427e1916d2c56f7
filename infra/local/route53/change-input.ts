/**
 * A ChangeResourceRecordSets request as it arrives, before validation: every
 * field as the XML carried it (text), so validation can report bad values the
 * way Route 53 does instead of the parser guessing. The tables name each
 * member's element (xml-codec.ts reads and writes them); the input types
 * follow from them.
 */
export const RECORD_SET_ELEMENTS = {
  name: 'Name',
  type: 'Type',
  setIdentifier: 'SetIdentifier',
  weight: 'Weight',
  region: 'Region',
  failover: 'Failover',
  multiValueAnswer: 'MultiValueAnswer',
  ttl: 'TTL',
  healthCheckId: 'HealthCheckId',
  trafficPolicyInstanceId: 'TrafficPolicyInstanceId',
} as const;
export const GEO_LOCATION_ELEMENTS = {
  continentCode: 'ContinentCode',
  countryCode: 'CountryCode',
  subdivisionCode: 'SubdivisionCode',
} as const;
export const ALIAS_TARGET_ELEMENTS = {
  hostedZoneId: 'HostedZoneId',
  dnsName: 'DNSName',
  evaluateTargetHealth: 'EvaluateTargetHealth',
} as const;
export const CIDR_ROUTING_CONFIG_ELEMENTS = {
  collectionId: 'CollectionId',
  locationName: 'LocationName',
} as const;

/** The text of each element of a table, when sent. */
export type Texts<Elements> = { readonly [K in keyof Elements]?: string };

export type RecordSetInput = Texts<typeof RECORD_SET_ELEMENTS> & {
  readonly geoLocation?: Texts<typeof GEO_LOCATION_ELEMENTS>;
  readonly aliasTarget?: Texts<typeof ALIAS_TARGET_ELEMENTS>;
  readonly cidrRoutingConfig?: Texts<typeof CIDR_ROUTING_CONFIG_ELEMENTS>;
  readonly values?: readonly string[];
  readonly geoProximityLocation?: boolean;
};

export interface ChangeInput {
  readonly action?: string;
  readonly recordSet: RecordSetInput;
}
