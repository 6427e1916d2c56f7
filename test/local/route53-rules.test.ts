/**
 * Conformance of the local Route 53's change-batch rules, through the real
 * Route 53 SDK client. Written from Route 53's documented behaviour:
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_ChangeResourceRecordSets.html
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_ResourceRecordSet.html
 * https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/DNSLimitations.html#limits-api-requests
 */
import {
  ChangeResourceRecordSetsCommand,
  ListResourceRecordSetsCommand,
  Route53Client,
  type Change as SdkChange,
  type ResourceRecordSet,
} from '@aws-sdk/client-route-53';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRoute53, type LocalRoute53 } from '../../infra/local/route53/server.js';
import { route53Client } from '../../functions/shared/aws-clients.js';
import { createCidrCollection } from '../support/cidr-collections.js';
import { httpRequest, rawRequest, SIGNED_ROUTE53 } from '../support/raw-http.js';

let route53: LocalRoute53;
let client: Route53Client;
let collectionId: string;

beforeAll(async () => {
  route53 = await startLocalRoute53();
  client = route53Client({
    endpoint: route53.endpoint,
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    requestsPerSecond: 1000,
  });
  collectionId = await createCidrCollection(client, 'offices', {
    berlin: ['10.1.0.0/16'],
    paris: ['10.2.0.0/16'],
  });
});

afterAll(async () => {
  client.destroy();
  await route53.stop();
});

type Action = SdkChange['Action'];

const a = (name: string, values: string[], extra: Partial<ResourceRecordSet> = {}): ResourceRecordSet => ({
  Name: name,
  Type: 'A',
  TTL: 60,
  ResourceRecords: values.map((Value) => ({ Value })),
  ...extra,
});
const cname = (name: string, values: string[]): ResourceRecordSet => ({
  Name: name,
  Type: 'CNAME',
  TTL: 60,
  ResourceRecords: values.map((Value) => ({ Value })),
});
const weighted = (name: string, id: string, weight: number, value = '192.0.2.1') =>
  a(name, [value], { SetIdentifier: id, Weight: weight });
const change = (Action: Action, ResourceRecordSet: ResourceRecordSet): SdkChange => ({
  Action,
  ResourceRecordSet,
});
const create = (record: ResourceRecordSet) => change('CREATE', record);
const upsert = (record: ResourceRecordSet) => change('UPSERT', record);
const remove = (record: ResourceRecordSet) => change('DELETE', record);

function send(zoneId: string, changes: SdkChange[]) {
  return client.send(
    new ChangeResourceRecordSetsCommand({ HostedZoneId: zoneId, ChangeBatch: { Changes: changes } }),
  );
}

async function failure(
  promise: Promise<unknown>,
): Promise<{ name: string; message: string; messages?: string[]; status?: number }> {
  try {
    await promise;
  } catch (error) {
    const e = error as {
      name: string;
      message: string;
      messages?: string[];
      $metadata?: { httpStatusCode?: number };
    };
    return {
      name: e.name,
      message: e.message,
      ...(e.messages === undefined ? {} : { messages: e.messages }),
      ...(e.$metadata?.httpStatusCode === undefined ? {} : { status: e.$metadata.httpStatusCode }),
    };
  }
  throw new Error('expected the request to fail');
}

function freshZone(): string {
  return route53.createHostedZone('example.com');
}

const W = 'www.example.com';
const addresses = (count: number) => Array.from({ length: count }, (_, i) => `10.0.${i >> 8}.${i & 255}`);
const big = (length: number) => `${'a'.repeat(length - 12)}.example.com`;

interface RejectionRow {
  name: string;
  setup: () => SdkChange[];
  batch: () => SdkChange[];
  error: 'InvalidChangeBatch' | 'InvalidInput';
  says: string;
}

const rejections: RejectionRow[] = [
  { name: 'rejects CREATE of an existing record', setup: () => [create(a(W, ['192.0.2.1']))], batch: () => [create(a(W, ['192.0.2.2']))], error: 'InvalidChangeBatch', says: "Tried to create resource record set [name='www.example.com.', type='A'] but it already exists" },
  { name: 'rejects CREATE of an existing record with the same SetIdentifier', setup: () => [create(weighted(W, 'east', 1))], batch: () => [create(weighted(W, 'east', 2))], error: 'InvalidChangeBatch', says: "[name='www.example.com.', type='A', set-identifier='east'] but it already exists" },
  { name: 'rejects DELETE of a record that does not exist', setup: () => [], batch: () => [remove(a(W, ['192.0.2.1']))], error: 'InvalidChangeBatch', says: "Tried to delete resource record set [name='www.example.com.', type='A'] but it was not found" },
  { name: 'rejects DELETE whose values differ from the record', setup: () => [create(a(W, ['192.0.2.1']))], batch: () => [remove(a(W, ['192.0.2.9']))], error: 'InvalidChangeBatch', says: 'but the values provided do not match the current values' },
  { name: 'rejects DELETE whose TTL differs from the record', setup: () => [create(a(W, ['192.0.2.1']))], batch: () => [remove(a(W, ['192.0.2.1'], { TTL: 300 }))], error: 'InvalidChangeBatch', says: 'do not match the current values' },
  { name: 'rejects DELETE whose routing fields differ from the record', setup: () => [create(weighted(W, 'east', 10))], batch: () => [remove(weighted(W, 'east', 20))], error: 'InvalidChangeBatch', says: 'do not match the current values' },
  { name: 'rejects deleting the same record twice in one batch', setup: () => [create(a(W, ['192.0.2.1']))], batch: () => [remove(a(W, ['192.0.2.1'])), remove(a(W, ['192.0.2.1']))], error: 'InvalidChangeBatch', says: 'but it was not found' },
  { name: 'rejects a simple record beside weighted records of the same name and type', setup: () => [create(weighted(W, 'east', 1))], batch: () => [create(a(W, ['192.0.2.1']))], error: 'InvalidChangeBatch', says: 'RRSet with DNS name www.example.com., type A cannot be created as other RRSets exist with the same name and type.' },
  { name: 'rejects a weighted record beside latency records of the same name and type', setup: () => [create(a(W, ['192.0.2.1'], { SetIdentifier: 'east', Region: 'us-east-1' }))], batch: () => [create(weighted(W, 'west', 1))], error: 'InvalidChangeBatch', says: 'SetIdentifier west cannot be created as a non-weighted set exists with the same name and type.' },
  { name: 'rejects a weighted record beside a simple record of the same name and type', setup: () => [create(a(W, ['192.0.2.1']))], batch: () => [create(weighted(W, 'east', 1))], error: 'InvalidChangeBatch', says: 'non-weighted set exists' },
  { name: 'rejects a routing record without a SetIdentifier', setup: () => [], batch: () => [create(a(W, ['192.0.2.1'], { Weight: 1 }))], error: 'InvalidInput', says: "Invalid request: Missing field 'SetIdentifier' in Change with [Action=CREATE, Name=www.example.com., Type=A, SetIdentifier=null]" },
  { name: 'rejects a SetIdentifier on a simple record', setup: () => [], batch: () => [create(a(W, ['192.0.2.1'], { SetIdentifier: 'east' }))], error: 'InvalidInput', says: 'but found none' },
  { name: 'rejects two routing policies in one record', setup: () => [], batch: () => [create(a(W, ['192.0.2.1'], { SetIdentifier: 'east', Weight: 1, Failover: 'PRIMARY' }))], error: 'InvalidInput', says: 'but found more than one' },
  { name: 'rejects a SetIdentifier longer than 128 characters', setup: () => [], batch: () => [create(weighted(W, 'x'.repeat(129), 1))], error: 'InvalidInput', says: 'Member must have length between 1 and 128' },
  { name: 'rejects weight 256 (weights are 0–255)', setup: () => [], batch: () => [create(weighted(W, 'east', 256))], error: 'InvalidInput', says: 'Member must have value less than or equal to 255' },
  { name: 'rejects weight -1 (weights are 0–255)', setup: () => [], batch: () => [create(weighted(W, 'east', -1))], error: 'InvalidInput', says: 'Member must have value greater than or equal to 0' },
  { name: 'rejects a second PRIMARY failover record', setup: () => [create(a(W, ['192.0.2.1'], { SetIdentifier: 'one', Failover: 'PRIMARY' }))], batch: () => [create(a(W, ['192.0.2.2'], { SetIdentifier: 'two', Failover: 'PRIMARY' }))], error: 'InvalidChangeBatch', says: 'failover PRIMARY RRSet already exists' },
  { name: 'rejects a second SECONDARY failover record', setup: () => [create(a(W, ['192.0.2.1'], { SetIdentifier: 'one', Failover: 'SECONDARY' }))], batch: () => [create(a(W, ['192.0.2.2'], { SetIdentifier: 'two', Failover: 'SECONDARY' }))], error: 'InvalidChangeBatch', says: 'failover SECONDARY RRSet already exists' },
  { name: 'rejects a CNAME where an A record has the same name', setup: () => [create(a(W, ['192.0.2.1']))], batch: () => [create(cname(W, ['origin.example.net']))], error: 'InvalidChangeBatch', says: 'RRSet of type CNAME with DNS name www.example.com. is not permitted as it conflicts with other records with the same DNS name in zone example.com.' },
  { name: 'rejects an A record where a CNAME has the same name', setup: () => [create(cname(W, ['origin.example.net']))], batch: () => [create(a(W, ['192.0.2.1']))], error: 'InvalidChangeBatch', says: 'a conflicting RRSet of type CNAME with the same DNS name already exists' },
  { name: 'rejects a CNAME at the zone apex', setup: () => [], batch: () => [create(cname('example.com', ['origin.example.net']))], error: 'InvalidChangeBatch', says: 'RRSet of type CNAME with DNS name example.com. is not permitted at apex in zone example.com.' },
  { name: 'rejects a CNAME with two values', setup: () => [], batch: () => [create(cname(W, ['one.example.net', 'two.example.net']))], error: 'InvalidChangeBatch', says: 'a CNAME record set has exactly one' },
  { name: 'rejects a record name outside the zone', setup: () => [], batch: () => [create(a('www.example.org', ['192.0.2.1']))], error: 'InvalidChangeBatch', says: 'RRSet with DNS name www.example.org. is not permitted in zone example.com.' },
  { name: 'rejects a TTL above 2147483647', setup: () => [], batch: () => [create(a(W, ['192.0.2.1'], { TTL: 2_147_483_648 }))], error: 'InvalidInput', says: 'Member must have value less than or equal to 2147483647' },
  { name: 'rejects a negative TTL', setup: () => [], batch: () => [create(a(W, ['192.0.2.1'], { TTL: -1 }))], error: 'InvalidInput', says: 'Member must have value greater than or equal to 0' },
  { name: 'rejects a value that is not IPv4 in an A record', setup: () => [], batch: () => [create(a(W, ['192.0.2']))], error: 'InvalidChangeBatch', says: "ARRDATAIllegalIPv4Address (Value is not a valid IPv4 address) encountered with '192.0.2'" },
  { name: 'rejects a value that is not IPv6 in an AAAA record', setup: () => [], batch: () => [create({ ...a(W, ['192.0.2.1']), Type: 'AAAA' })], error: 'InvalidChangeBatch', says: 'AAAARRDATAIllegalIPv6Address' },
  { name: 'rejects the same value twice in one record', setup: () => [], batch: () => [create(a(W, ['192.0.2.1', '192.0.2.1']))], error: 'InvalidChangeBatch', says: "Duplicate Resource Record: '192.0.2.1'" },
  { name: 'rejects an alias record with a TTL and values', setup: () => [create(a('origin.example.com', ['192.0.2.1']))], batch: () => [create(a(W, ['192.0.2.1'], { AliasTarget: { HostedZoneId: 'Z0', DNSName: 'origin.example.com', EvaluateTargetHealth: false } }))], error: 'InvalidInput', says: 'Expected exactly one of [AliasTarget, all of [TTL, and ResourceRecords], or TrafficPolicyInstanceId], but found more than one' },
  { name: 'rejects a record with neither values nor an alias target', setup: () => [], batch: () => [create({ Name: W, Type: 'A' })], error: 'InvalidInput', says: 'but found none' },
  { name: 'rejects a record with a TTL but no values', setup: () => [], batch: () => [create({ Name: W, Type: 'A', TTL: 60 })], error: 'InvalidInput', says: 'but found none' },
  { name: 'rejects an unknown latency region', setup: () => [], batch: () => [create(a(W, ['192.0.2.1'], { SetIdentifier: 'x', Region: 'moon-1' as ResourceRecordSet['Region'] }))], error: 'InvalidInput', says: "Value 'moon-1' at 'changeBatch.changes.1.member.resourceRecordSet.region' failed to satisfy constraint" },
  { name: 'rejects the same latency region twice for a name and type', setup: () => [create(a(W, ['192.0.2.1'], { SetIdentifier: 'a', Region: 'eu-west-1' }))], batch: () => [create(a(W, ['192.0.2.2'], { SetIdentifier: 'b', Region: 'eu-west-1' }))], error: 'InvalidChangeBatch', says: 'latency RRSet for region eu-west-1 already exists' },
  { name: 'rejects the same geolocation twice for a name and type', setup: () => [create(a(W, ['192.0.2.1'], { SetIdentifier: 'a', GeoLocation: { CountryCode: 'DE' } }))], batch: () => [create(a(W, ['192.0.2.2'], { SetIdentifier: 'b', GeoLocation: { CountryCode: 'DE' } }))], error: 'InvalidChangeBatch', says: 'geolocation RRSet for location' },
  { name: 'rejects a geolocation with both a continent and a country', setup: () => [], batch: () => [create(a(W, ['192.0.2.1'], { SetIdentifier: 'a', GeoLocation: { ContinentCode: 'EU', CountryCode: 'DE' } }))], error: 'InvalidInput', says: 'either a ContinentCode or a CountryCode' },
  { name: 'rejects an unknown continent code', setup: () => [], batch: () => [create(a(W, ['192.0.2.1'], { SetIdentifier: 'a', GeoLocation: { ContinentCode: 'XX' } }))], error: 'InvalidInput', says: "ContinentCode must be one of AF, AN, AS, EU, NA, OC, SA, got 'XX'" },
  { name: 'rejects a multivalue answer alias record', setup: () => [create(a('origin.example.com', ['192.0.2.1']))], batch: () => [create({ Name: W, Type: 'A', SetIdentifier: 'm', MultiValueAnswer: true, AliasTarget: { HostedZoneId: 'Z0', DNSName: 'origin.example.com', EvaluateTargetHealth: false } })], error: 'InvalidChangeBatch', says: 'cannot be a multivalue answer alias record' },
  { name: 'rejects a CIDR record whose collection does not exist', setup: () => [], batch: () => [create(a(W, ['192.0.2.1'], { SetIdentifier: 'a', CidrRoutingConfig: { CollectionId: '00000000-0000-0000-0000-000000000000', LocationName: 'berlin' } }))], error: 'InvalidChangeBatch', says: 'references CIDR collection 00000000-0000-0000-0000-000000000000, which does not exist' },
  { name: 'rejects a CIDR record whose location is not in the collection', setup: () => [], batch: () => [create(a(W, ['192.0.2.1'], { SetIdentifier: 'a', CidrRoutingConfig: { CollectionId: collectionId, LocationName: 'tokyo' } }))], error: 'InvalidChangeBatch', says: 'references CIDR location tokyo, which does not exist' },
  { name: 'rejects the same CIDR location twice for a name and type', setup: () => [create(a(W, ['192.0.2.1'], { SetIdentifier: 'a', CidrRoutingConfig: { CollectionId: collectionId, LocationName: 'berlin' } }))], batch: () => [create(a(W, ['192.0.2.2'], { SetIdentifier: 'b', CidrRoutingConfig: { CollectionId: collectionId, LocationName: 'berlin' } }))], error: 'InvalidChangeBatch', says: 'CIDR RRSet for location berlin already exists' },
  { name: 'rejects an alias whose target record does not exist in the zone', setup: () => [], batch: () => [create({ Name: W, Type: 'A', AliasTarget: { HostedZoneId: '$zone', DNSName: 'missing.example.com', EvaluateTargetHealth: false } })], error: 'InvalidChangeBatch', says: 'but that target was not found' },
  { name: 'rejects 1,001 ResourceRecord elements in one request', setup: () => [], batch: () => [create(a(W, addresses(1001)))], error: 'InvalidChangeBatch', says: 'Number of records limit of 1000 exceeded' },
  { name: 'rejects 501 UPSERTed ResourceRecord elements (an UPSERT counts twice)', setup: () => [], batch: () => [upsert(a(W, addresses(501)))], error: 'InvalidChangeBatch', says: 'Number of records limit of 1000 exceeded' },
  { name: 'rejects more than 32,000 characters of values in one request', setup: () => [], batch: () => Array.from({ length: 9 }, (_, i) => create(cname(`c${i}.example.com`, [big(3600)]))), error: 'InvalidChangeBatch', says: 'Number of characters limit of 32000 exceeded' },
  { name: 'rejects 16,001 UPSERTed value characters (an UPSERT counts twice)', setup: () => [], batch: () => Array.from({ length: 5 }, (_, i) => upsert(cname(`c${i}.example.com`, [big(3201)]))), error: 'InvalidChangeBatch', says: 'Number of characters limit of 32000 exceeded' },
]; // prettier-ignore

describe('local Route 53 change-batch rules', () => {
  it.each(rejections)('$name', async ({ setup, batch, error, says }) => {
    // Prepare
    const zoneId = freshZone();
    const initial = setup();
    if (initial.length > 0) await send(zoneId, initial);
    const before = route53.records(zoneId);
    const changes = batch().map((c) => withZone(c, zoneId));

    // Act
    const rejected = await failure(send(zoneId, changes));

    // Assess
    expect(rejected).toMatchObject({ name: error, status: 400 });
    expect(rejected.message).toContain(says);
    expect(route53.records(zoneId)).toEqual(before);
  });

  interface AcceptRow {
    name: string;
    batches: () => SdkChange[][];
    expected: Array<{ name: string; values: string[]; weight?: number; setIdentifier?: string }>;
  }

  const acceptances: AcceptRow[] = [
    { name: 'accepts UPSERT that creates a record, then replaces it', batches: () => [[upsert(a(W, ['192.0.2.1']))], [upsert(a(W, ['192.0.2.2']))]], expected: [{ name: W, values: ['192.0.2.2'] }] },
    { name: 'accepts weights 0 and 255', batches: () => [[create(weighted(W, 'a', 0)), create(weighted(W, 'b', 255, '192.0.2.2'))]], expected: [{ name: W, values: ['192.0.2.1'], setIdentifier: 'a', weight: 0 }, { name: W, values: ['192.0.2.2'], setIdentifier: 'b', weight: 255 }] },
    { name: 'accepts DELETE of weighted records and CREATE of a simple one in one batch', batches: () => [[create(weighted(W, 'a', 1)), create(weighted(W, 'b', 1, '192.0.2.2'))], [remove(weighted(W, 'a', 1)), remove(weighted(W, 'b', 1, '192.0.2.2')), create(a(W, ['192.0.2.3']))]], expected: [{ name: W, values: ['192.0.2.3'] }] },
    { name: 'accepts DELETE that lists the values in another order', batches: () => [[create(a(W, ['192.0.2.1', '192.0.2.2']))], [remove(a(W, ['192.0.2.2', '192.0.2.1']))]], expected: [] },
    { name: 'accepts DELETE of a CNAME then CREATE of an A record at that name', batches: () => [[create(cname(W, ['origin.example.net']))], [remove(cname(W, ['origin.example.net'])), create(a(W, ['192.0.2.1']))]], expected: [{ name: W, values: ['192.0.2.1'] }] },
    { name: 'accepts exactly 1,000 ResourceRecord elements in one request', batches: () => [[create(a(W, addresses(1000)))]], expected: [{ name: W, values: addresses(1000) }] },
    { name: 'accepts 500 UPSERTed ResourceRecord elements (1,000 counted)', batches: () => [[upsert(a(W, addresses(500)))]], expected: [{ name: W, values: addresses(500) }] },
    { name: 'accepts a wildcard name', batches: () => [[create(a('*.example.com', ['192.0.2.1']))]], expected: [{ name: '*.example.com', values: ['192.0.2.1'] }] },
  ]; // prettier-ignore

  it.each(acceptances)('$name', async ({ batches, expected }) => {
    // Prepare
    const zoneId = freshZone();

    // Act
    for (const batch of batches()) await send(zoneId, batch);

    // Assess
    expect(route53.records(zoneId)).toEqual(expected.map((record) => expect.objectContaining(record)));
  });

  it('accepts an alias to a record of the same type in the zone and lists it with trailing dots', async () => {
    // Prepare
    const zoneId = freshZone();
    await send(zoneId, [create(a('origin.example.com', ['192.0.2.1']))]);

    // Act
    await send(zoneId, [
      create({
        Name: W,
        Type: 'A',
        AliasTarget: { HostedZoneId: zoneId, DNSName: 'origin.example.com', EvaluateTargetHealth: true },
      }),
    ]);

    // Assess
    const listed = await client.send(
      new ListResourceRecordSetsCommand({
        HostedZoneId: zoneId,
        StartRecordName: W,
        StartRecordType: 'A',
        MaxItems: 1,
      }),
    );
    expect(listed.ResourceRecordSets).toEqual([
      {
        Name: 'www.example.com.',
        Type: 'A',
        AliasTarget: { HostedZoneId: zoneId, DNSName: 'origin.example.com.', EvaluateTargetHealth: true },
      },
    ]);
    expect(route53.records(zoneId)).toContainEqual({
      name: W,
      type: 'A',
      aliasTarget: { hostedZoneId: zoneId, dnsName: 'origin.example.com', evaluateTargetHealth: true },
      values: [],
    });
  });
});

describe('local Route 53 batch atomicity', () => {
  it('changes nothing when one change of the batch is bad, and names every bad change', async () => {
    // Prepare
    const zoneId = freshZone();
    await send(zoneId, [create(a('old.example.com', ['192.0.2.1']))]);
    const before = route53.records(zoneId);

    // Act
    const rejected = await failure(
      send(zoneId, [
        create(a('new.example.com', ['192.0.2.2'])),
        remove(a('old.example.com', ['192.0.2.1'])),
        create(a('bad.example.com', ['x'])),
        remove(a('gone.example.com', ['192.0.2.3'])),
      ]),
    );

    // Assess
    expect(rejected.name).toBe('InvalidChangeBatch');
    // As from Route 53: one Message lists every problem; the SDK's `messages` list stays empty.
    expect(rejected.messages).toEqual([]);
    expect(rejected.message).toMatch(
      /^\[Invalid Resource Record: .*, Tried to delete resource record set \[name='gone\.example\.com\.', type='A'\] but it was not found\]$/,
    );
    expect(route53.records(zoneId)).toEqual(before);
  });

  it("answers a rejected batch in Route 53's ErrorResponse, every problem in its one Message", async () => {
    const zoneId = freshZone();
    const port = Number(new URL(route53.endpoint).port);
    const change = (name: string) =>
      `<Change><Action>DELETE</Action><ResourceRecordSet><Name>${name}</Name><Type>A</Type><TTL>60</TTL>` +
      '<ResourceRecords><ResourceRecord><Value>192.0.2.1</Value></ResourceRecord></ResourceRecords></ResourceRecordSet></Change>';
    const body =
      '<?xml version="1.0" encoding="UTF-8"?><ChangeResourceRecordSetsRequest xmlns="https://route53.amazonaws.com/doc/2013-04-01/">' +
      `<ChangeBatch><Changes>${change('one.example.com')}${change('two.example.com')}</Changes></ChangeBatch></ChangeResourceRecordSetsRequest>`;

    const reply = await rawRequest(
      port,
      httpRequest(
        'POST',
        `/2013-04-01/hostedzone/${zoneId}/rrset`,
        port,
        { Authorization: SIGNED_ROUTE53 },
        body,
      ),
    );

    expect(reply.status).toBe(400);
    // The request id varies; &apos; is the same XML text as the ' Route 53 writes.
    const shape = reply.body
      .replace(/<RequestId>[^<]+<\/RequestId>/, '<RequestId/>')
      .replaceAll('&apos;', "'");
    expect(shape).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<ErrorResponse xmlns="https://route53.amazonaws.com/doc/2013-04-01/"><Error><Type>Sender</Type><Code>InvalidChangeBatch</Code>' +
        "<Message>[Tried to delete resource record set [name='one.example.com.', type='A'] but it was not found, " +
        "Tried to delete resource record set [name='two.example.com.', type='A'] but it was not found]</Message>" +
        '</Error><RequestId/></ErrorResponse>',
    );
  });
});

function withZone(change: SdkChange, zoneId: string): SdkChange {
  const alias = change.ResourceRecordSet?.AliasTarget;
  if (alias?.HostedZoneId !== '$zone') return change;
  return {
    ...change,
    ResourceRecordSet: { ...change.ResourceRecordSet!, AliasTarget: { ...alias, HostedZoneId: zoneId } },
  };
}
