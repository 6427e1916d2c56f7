/**
 * The evaluator reads the zone back to decide what to change: every record set it writes must
 * read back as the same `RecordSet`, and what Route 53 lists (escaped, upper case, trailing
 * dots, fields it leaves out) must read as our form.
 */
import type { ResourceRecordSet } from '@aws-sdk/client-route-53';
import { describe, expect, it } from 'vitest';
import { fromSdkRecordSet, toSdkRecordSet } from '../../functions/evaluator/route53-codec.js';
import type { RecordSet } from '../../shared/zone/record-set.js';

const shop = 'shop.example.com';

describe('RecordSet ⇄ Route 53 ResourceRecordSet', () => {
  it.each<[string, RecordSet]>([
    ['a simple record', { name: shop, type: 'A', ttl: 30, values: ['192.0.2.10'] }],
    [
      'a failover record with a health check (static failover)',
      {
        name: `_static.${shop}`,
        type: 'A',
        ttl: 30,
        setIdentifier: 'east',
        failover: 'PRIMARY',
        healthCheckId: 'abcdef01-2345-6789-abcd-ef0123456789',
        values: ['192.0.2.10'],
      },
    ],
    [
      'a failover alias with a health check (the guard at the switch)',
      {
        name: shop,
        type: 'A',
        setIdentifier: 'fast',
        failover: 'PRIMARY',
        aliasTarget: { hostedZoneId: 'Z1', dnsName: `_fast.${shop}`, evaluateTargetHealth: true },
        healthCheckId: 'abcdef01-2345-6789-abcd-ef0123456780',
        values: [],
      },
    ],
    [
      'a weighted record',
      { name: shop, type: 'A', ttl: 30, setIdentifier: 'east', weight: 3, values: ['192.0.2.10'] },
    ],
    [
      'a latency record',
      {
        name: shop,
        type: 'AAAA',
        ttl: 30,
        setIdentifier: 'use1',
        region: 'us-east-1',
        values: ['2001:db8::1'],
      },
    ],
    [
      'a geolocation record by continent',
      {
        name: shop,
        type: 'A',
        ttl: 30,
        setIdentifier: 'eu',
        geoLocation: { continentCode: 'EU' },
        values: ['192.0.2.1'],
      },
    ],
    [
      'a geolocation record by subdivision',
      {
        name: shop,
        type: 'A',
        ttl: 30,
        setIdentifier: 'ca',
        geoLocation: { countryCode: 'US', subdivisionCode: 'CA' },
        values: ['192.0.2.2'],
      },
    ],
    [
      'a multivalue answer',
      { name: shop, type: 'A', ttl: 30, setIdentifier: 'a', multiValueAnswer: true, values: ['192.0.2.1'] },
    ],
    [
      'a failover record',
      {
        name: shop,
        type: 'CNAME',
        ttl: 30,
        setIdentifier: 'primary',
        failover: 'PRIMARY',
        values: ['east.example.net'],
      },
    ],
    [
      'a CIDR record',
      {
        name: shop,
        type: 'A',
        ttl: 30,
        setIdentifier: 'office',
        cidrRoutingConfig: { collectionId: 'c-1', locationName: 'office' },
        values: ['192.0.2.1'],
      },
    ],
    [
      'an alias (no TTL, no values)',
      {
        name: 'parent.example.com',
        type: 'A',
        aliasTarget: {
          hostedZoneId: 'Z00000000000000000001',
          dnsName: 'child.example.com',
          evaluateTargetHealth: true,
        },
        values: [],
      },
    ],
  ])('%s reads back as written', (_kind, record) => {
    const sdk = toSdkRecordSet(record);
    expect(sdk.Name).toBe(`${record.name}.`);
    expect(fromSdkRecordSet(sdk)).toEqual(record);
  });

  it('an alias is written without TTL and values, and its target with a trailing dot', () => {
    const sdk = toSdkRecordSet({
      name: 'parent.example.com',
      type: 'A',
      ttl: 30,
      aliasTarget: { hostedZoneId: 'Z1', dnsName: 'child.example.com', evaluateTargetHealth: false },
      values: ['192.0.2.1'],
    });
    expect(sdk).toMatchObject({ TTL: undefined, ResourceRecords: undefined });
    expect(sdk.AliasTarget?.DNSName).toBe('child.example.com.');
  });

  it('names as Route 53 lists them (escaped, upper case, trailing dot) read as ours', () => {
    const listed: ResourceRecordSet = {
      Name: '\\052.Shop.Example.COM.',
      Type: 'CNAME',
      TTL: 60,
      ResourceRecords: [{ Value: 'east.example.net' }],
    };
    expect(fromSdkRecordSet(listed)).toEqual({
      name: '*.shop.example.com',
      type: 'CNAME',
      ttl: 60,
      values: ['east.example.net'],
    });
    const alias: ResourceRecordSet = {
      Name: 'parent.example.com.',
      Type: 'A',
      AliasTarget: { HostedZoneId: 'Z1', DNSName: 'Child.Example.com.', EvaluateTargetHealth: false },
    };
    expect(fromSdkRecordSet(alias).aliasTarget?.dnsName).toBe('child.example.com');
  });

  it('a listed record without ResourceRecords (Route 53 leaves them out of an alias) has no values', () => {
    expect(fromSdkRecordSet({ Name: 'x.example.com.', Type: 'A' }).values).toEqual([]);
  });

  // As the SDK would parse a response that left the field out (its types say it cannot).
  it.each<[string, object]>([
    ['ResourceRecordSet.Name', { Type: 'A', TTL: 30, ResourceRecords: [{ Value: '192.0.2.1' }] }],
    [
      'ResourceRecordSet.Type',
      { Name: 'x.example.com.', TTL: 30, ResourceRecords: [{ Value: '192.0.2.1' }] },
    ],
    ['ResourceRecord.Value', { Name: 'x.example.com.', Type: 'A', TTL: 30, ResourceRecords: [{}] }],
    [
      'AliasTarget.DNSName',
      {
        Name: 'x.example.com.',
        Type: 'A',
        AliasTarget: { HostedZoneId: 'Z1', EvaluateTargetHealth: false },
      },
    ],
    [
      'AliasTarget.EvaluateTargetHealth',
      {
        Name: 'x.example.com.',
        Type: 'A',
        AliasTarget: { HostedZoneId: 'Z1', DNSName: 'y.example.com.' },
      },
    ],
    [
      'CidrRoutingConfig.LocationName',
      {
        Name: 'x.example.com.',
        Type: 'A',
        SetIdentifier: 'eu',
        CidrRoutingConfig: { CollectionId: 'c-1' },
        TTL: 30,
        ResourceRecords: [{ Value: '192.0.2.1' }],
      },
    ],
  ])('a listed record set without %s (the API always sends it) fails naming the field', (field, listed) => {
    expect(() => fromSdkRecordSet(listed as ResourceRecordSet)).toThrow(
      expect.objectContaining({
        name: 'MissingResponseFieldError',
        code: 'MISSING_RESPONSE_FIELD',
        field,
        message: `the AWS response has no ${field}, which the API always sends`,
      }),
    );
  });
});
