/** `RecordSet` (core) ⇄ the Route 53 SDK's `ResourceRecordSet`. */
import type { ResourceRecordSet } from '@aws-sdk/client-route-53';
import { fromRoute53Name } from '../../shared/zone/names.js';
import { required } from '../shared/required.js';
import type { RecordSet, RecordType } from '../../shared/zone/record-set.js';

export function toSdkRecordSet(record: RecordSet): ResourceRecordSet {
  return {
    Name: `${record.name}.`,
    Type: record.type,
    SetIdentifier: record.setIdentifier,
    Weight: record.weight,
    Region: record.region as ResourceRecordSet['Region'],
    GeoLocation:
      record.geoLocation === undefined
        ? undefined
        : {
            ContinentCode: record.geoLocation.continentCode,
            CountryCode: record.geoLocation.countryCode,
            SubdivisionCode: record.geoLocation.subdivisionCode,
          },
    Failover: record.failover,
    HealthCheckId: record.healthCheckId,
    MultiValueAnswer: record.multiValueAnswer,
    TTL: record.aliasTarget === undefined ? record.ttl : undefined,
    ResourceRecords: record.aliasTarget === undefined ? record.values.map((Value) => ({ Value })) : undefined,
    AliasTarget:
      record.aliasTarget === undefined
        ? undefined
        : {
            HostedZoneId: record.aliasTarget.hostedZoneId,
            DNSName: `${record.aliasTarget.dnsName}.`,
            EvaluateTargetHealth: record.aliasTarget.evaluateTargetHealth,
          },
    CidrRoutingConfig:
      record.cidrRoutingConfig === undefined
        ? undefined
        : {
            CollectionId: record.cidrRoutingConfig.collectionId,
            LocationName: record.cidrRoutingConfig.locationName,
          },
  };
}

/** The record set's name in our form (unescaped, no trailing dot). */
export function fromSdkRecordSetName(sdk: ResourceRecordSet): string {
  return fromRoute53Name(required(sdk.Name, 'ResourceRecordSet.Name'));
}

/** Reads a record set as Route 53 lists it; a field the API always sends but left out throws `MissingResponseFieldError`. */
export function fromSdkRecordSet(sdk: ResourceRecordSet): RecordSet {
  const geo = sdk.GeoLocation;
  const record: RecordSet = {
    name: fromSdkRecordSetName(sdk),
    type: required(sdk.Type, 'ResourceRecordSet.Type') as RecordType,
    ...(sdk.TTL !== undefined && { ttl: sdk.TTL }),
    ...(sdk.SetIdentifier !== undefined && { setIdentifier: sdk.SetIdentifier }),
    ...(sdk.Weight !== undefined && { weight: sdk.Weight }),
    ...(sdk.Region !== undefined && { region: sdk.Region }),
    ...(geo !== undefined && {
      geoLocation: {
        ...(geo.ContinentCode !== undefined && { continentCode: geo.ContinentCode }),
        ...(geo.CountryCode !== undefined && { countryCode: geo.CountryCode }),
        ...(geo.SubdivisionCode !== undefined && { subdivisionCode: geo.SubdivisionCode }),
      },
    }),
    ...(sdk.MultiValueAnswer !== undefined && { multiValueAnswer: sdk.MultiValueAnswer }),
    ...(sdk.Failover !== undefined && { failover: sdk.Failover }),
    ...(sdk.HealthCheckId !== undefined && { healthCheckId: sdk.HealthCheckId }),
    ...(sdk.CidrRoutingConfig !== undefined && {
      cidrRoutingConfig: {
        collectionId: required(sdk.CidrRoutingConfig.CollectionId, 'CidrRoutingConfig.CollectionId'),
        locationName: required(sdk.CidrRoutingConfig.LocationName, 'CidrRoutingConfig.LocationName'),
      },
    }),
    ...(sdk.AliasTarget !== undefined && {
      aliasTarget: {
        hostedZoneId: required(sdk.AliasTarget.HostedZoneId, 'AliasTarget.HostedZoneId'),
        dnsName: fromRoute53Name(required(sdk.AliasTarget.DNSName, 'AliasTarget.DNSName')),
        evaluateTargetHealth: required(
          sdk.AliasTarget.EvaluateTargetHealth,
          'AliasTarget.EvaluateTargetHealth',
        ),
      },
    }),
    values: (sdk.ResourceRecords ?? []).map((r) => required(r.Value, 'ResourceRecord.Value')),
  };
  return record;
}
