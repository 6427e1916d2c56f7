/**
 * A ChangeResourceRecordSets request as it arrives, before validation: every
 * field as the XML carried it (text), so validation can report bad values the
 * way Route 53 does instead of the parser guessing.
 */
export interface GeoLocationInput {
  readonly continentCode?: string;
  readonly countryCode?: string;
  readonly subdivisionCode?: string;
}

export interface AliasTargetInput {
  readonly hostedZoneId?: string;
  readonly dnsName?: string;
  readonly evaluateTargetHealth?: string;
}

export interface CidrRoutingConfigInput {
  readonly collectionId?: string;
  readonly locationName?: string;
}

export interface RecordSetInput {
  readonly name?: string;
  readonly type?: string;
  readonly setIdentifier?: string;
  readonly weight?: string;
  readonly region?: string;
  readonly geoLocation?: GeoLocationInput;
  readonly failover?: string;
  readonly multiValueAnswer?: string;
  readonly ttl?: string;
  readonly values?: readonly string[];
  readonly aliasTarget?: AliasTargetInput;
  readonly healthCheckId?: string;
  readonly trafficPolicyInstanceId?: string;
  readonly geoProximityLocation?: boolean;
  readonly cidrRoutingConfig?: CidrRoutingConfigInput;
}

export interface ChangeInput {
  readonly action?: string;
  readonly recordSet: RecordSetInput;
}
