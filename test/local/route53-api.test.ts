/**
 * Conformance of the local Route 53's API through the real Route 53 SDK
 * client: hosted zones, listing and its pagination, change status, the errors
 * the SDK raises, fault injection, CIDR collections, and the in-process view.
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_ListResourceRecordSets.html
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_GetChange.html
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_ChangeCidrCollection.html
 */
import {
  ChangeCidrCollectionCommand,
  ChangeResourceRecordSetsCommand,
  CreateCidrCollectionCommand,
  CreateHostedZoneCommand,
  GetChangeCommand,
  GetHostedZoneCommand,
  ListCidrBlocksCommand,
  ListCidrCollectionsCommand,
  ListCidrLocationsCommand,
  ListHostedZonesByNameCommand,
  ListResourceRecordSetsCommand,
  Route53Client,
  type Change as SdkChange,
  type ResourceRecordSet,
} from '@aws-sdk/client-route-53';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  startLocalRoute53,
  type LocalRoute53,
  type LocalRoute53Options,
} from '../../infra/local/route53/server.js';
import { route53Client } from '../../functions/shared/aws-clients.js';
import { createCidrCollection } from '../support/cidr-collections.js';

const started: LocalRoute53[] = [];
const clients: Route53Client[] = [];

async function start(
  options: LocalRoute53Options = {},
): Promise<{ route53: LocalRoute53; client: Route53Client }> {
  const route53 = await startLocalRoute53(options);
  const client = route53Client({
    endpoint: route53.endpoint,
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    requestsPerSecond: 1000,
  });
  started.push(route53);
  clients.push(client);
  return { route53, client };
}

let shared: { route53: LocalRoute53; client: Route53Client };
beforeAll(async () => {
  shared = await start();
});
afterAll(async () => {
  for (const client of clients) client.destroy();
  await Promise.all(started.map((route53) => route53.stop()));
});
afterEach(() => shared.route53.setFaults({}));

const a = (name: string, value: string, extra: Partial<ResourceRecordSet> = {}): ResourceRecordSet => ({
  Name: name,
  Type: 'A',
  TTL: 60,
  ResourceRecords: [{ Value: value }],
  ...extra,
});
const create = (ResourceRecordSet: ResourceRecordSet): SdkChange => ({ Action: 'CREATE', ResourceRecordSet });

function send(client: Route53Client, zoneId: string, changes: SdkChange[]) {
  return client.send(
    new ChangeResourceRecordSetsCommand({ HostedZoneId: zoneId, ChangeBatch: { Changes: changes } }),
  );
}

async function failure(
  promise: Promise<unknown>,
): Promise<{ name: string; message: string; status?: number; fault?: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as {
      name: string;
      message: string;
      $fault?: string;
      $metadata?: { httpStatusCode?: number };
    };
    return {
      name: e.name,
      message: e.message,
      ...(e.$metadata?.httpStatusCode === undefined ? {} : { status: e.$metadata.httpStatusCode }),
      ...(e.$fault === undefined ? {} : { fault: e.$fault }),
    };
  }
  throw new Error('expected the request to fail');
}

function fakeClock(start = Date.parse('2026-01-01T00:00:00Z')) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('hosted zones', () => {
  it('creates a zone in-process, with the apex SOA and NS records Route 53 adds', async () => {
    // Act
    const id = shared.route53.createHostedZone('Zones.Example.org');

    // Assess
    expect(id).toMatch(/^Z[A-Z0-9]+$/);
    const fetched = await shared.client.send(new GetHostedZoneCommand({ Id: id }));
    expect(fetched.HostedZone).toMatchObject({
      Id: `/hostedzone/${id}`,
      Name: 'zones.example.org.',
      ResourceRecordSetCount: 2,
    });
    expect(fetched.DelegationSet?.NameServers).toHaveLength(4);
    const listed = await shared.client.send(new ListResourceRecordSetsCommand({ HostedZoneId: id }));
    expect(listed.ResourceRecordSets?.map((r) => [r.Name, r.Type])).toEqual([
      ['zones.example.org.', 'NS'],
      ['zones.example.org.', 'SOA'],
    ]);
    expect(shared.route53.records(id)).toEqual([]);
  });

  it('does not serve CreateHostedZone (nothing of ours sends it): UnsupportedOperation', async () => {
    // Act
    const rejected = await failure(
      shared.client.send(new CreateHostedZoneCommand({ Name: 'new.example', CallerReference: 'ref-new' })),
    );

    // Assess
    expect(rejected).toMatchObject({ name: 'UnsupportedOperation', status: 400 });
  });

  it('lists zones by name in reversed-label order, from DNSName, with pagination', async () => {
    // Prepare
    const { route53, client } = await start();
    for (const name of ['b.example', 'a.b.example', 'a.example', 'c.test']) route53.createHostedZone(name);

    // Act
    const first = await client.send(new ListHostedZonesByNameCommand({ MaxItems: 2 }));
    const rest = await client.send(
      new ListHostedZonesByNameCommand({ DNSName: first.NextDNSName, HostedZoneId: first.NextHostedZoneId }),
    );
    const fromName = await client.send(new ListHostedZonesByNameCommand({ DNSName: 'b.example' }));

    // Assess
    expect(first.HostedZones?.map((z) => z.Name)).toEqual(['a.example.', 'b.example.']);
    expect(first).toMatchObject({ IsTruncated: true, NextDNSName: 'a.b.example.' });
    expect(rest.HostedZones?.map((z) => z.Name)).toEqual(['a.b.example.', 'c.test.']);
    expect(rest.IsTruncated).toBe(false);
    expect(fromName.HostedZones?.map((z) => z.Name)).toEqual(['b.example.', 'a.b.example.', 'c.test.']);
  });

  it('raises NoSuchHostedZone (404) for a change to an unknown zone', async () => {
    // Act
    const rejected = await failure(
      send(shared.client, 'ZNOSUCHZONE', [create(a('x.example.com', '192.0.2.1'))]),
    );

    // Assess
    expect(rejected).toMatchObject({ name: 'NoSuchHostedZone', status: 404 });
  });
});

describe('ListResourceRecordSets', () => {
  async function zoneWithRecords() {
    const zoneId = shared.route53.createHostedZone('example.com');
    await send(shared.client, zoneId, [
      create(a('b.example.com', '192.0.2.1')),
      create(a('a.b.example.com', '192.0.2.2')),
      create(a('a.example.com', '192.0.2.3')),
      create({ ...a('a.example.com', '2001:db8::1'), Type: 'AAAA' }),
      create(a('w.example.com', '192.0.2.4', { SetIdentifier: 'one', Weight: 1 })),
      create(a('w.example.com', '192.0.2.5', { SetIdentifier: 'two', Weight: 1 })),
      create(a('*.example.com', '192.0.2.6')),
    ]);
    return zoneId;
  }
  const ORDER = [
    'example.com./NS',
    'example.com./SOA',
    '\\052.example.com./A',
    'a.example.com./A',
    'a.example.com./AAAA',
    'b.example.com./A',
    'a.b.example.com./A',
    'w.example.com./A/one',
    'w.example.com./A/two',
  ];
  const key = (r: ResourceRecordSet) =>
    [r.Name, r.Type, r.SetIdentifier].filter((part) => part !== undefined).join('/');

  it('sorts by name with the labels reversed, then by type, then by SetIdentifier', async () => {
    // Prepare
    const zoneId = await zoneWithRecords();

    // Act
    const listed = await shared.client.send(new ListResourceRecordSetsCommand({ HostedZoneId: zoneId }));

    // Assess
    expect(listed.ResourceRecordSets?.map(key)).toEqual(ORDER);
    expect(listed.IsTruncated).toBe(false);
  });

  it('pages with MaxItems through NextRecordName, NextRecordType and NextRecordIdentifier', async () => {
    // Prepare
    const zoneId = await zoneWithRecords();
    const seen: string[] = [];
    const tokens: Array<string | undefined> = [];
    let start: {
      StartRecordName?: string;
      StartRecordType?: ResourceRecordSet['Type'];
      StartRecordIdentifier?: string;
    } = {};

    // Act
    for (let page = 0; page < 10; page += 1) {
      const listed = await shared.client.send(
        new ListResourceRecordSetsCommand({ HostedZoneId: zoneId, MaxItems: 2, ...start }),
      );
      seen.push(...(listed.ResourceRecordSets ?? []).map(key));
      if (!listed.IsTruncated) break;
      tokens.push(listed.NextRecordIdentifier);
      start = {
        StartRecordName: listed.NextRecordName,
        StartRecordType: listed.NextRecordType,
        StartRecordIdentifier: listed.NextRecordIdentifier,
      };
    }

    // Assess
    expect(seen).toEqual(ORDER);
    expect(tokens).toContain('two');
  });

  it('starts at the first record whose name (and type) is at or after the given ones', async () => {
    // Prepare
    const zoneId = await zoneWithRecords();

    // Act
    const byName = await shared.client.send(
      new ListResourceRecordSetsCommand({
        HostedZoneId: zoneId,
        StartRecordName: 'a.example.com',
        MaxItems: 3,
      }),
    );
    const byType = await shared.client.send(
      new ListResourceRecordSetsCommand({
        HostedZoneId: zoneId,
        StartRecordName: 'a.example.com.',
        StartRecordType: 'AAAA',
        MaxItems: 1,
      }),
    );

    // Assess
    expect(byName.ResourceRecordSets?.map(key)).toEqual([
      'a.example.com./A',
      'a.example.com./AAAA',
      'b.example.com./A',
    ]);
    expect(byType.ResourceRecordSets?.map(key)).toEqual(['a.example.com./AAAA']);
    expect(byType).toMatchObject({
      IsTruncated: true,
      NextRecordName: 'b.example.com.',
      NextRecordType: 'A',
    });
  });

  it('raises InvalidInput when a Type is given without a Name', async () => {
    // Prepare
    const zoneId = shared.route53.createHostedZone('example.com');

    // Act
    const rejected = await failure(
      shared.client.send(new ListResourceRecordSetsCommand({ HostedZoneId: zoneId, StartRecordType: 'A' })),
    );

    // Assess
    expect(rejected).toMatchObject({ name: 'InvalidInput', status: 400 });
  });
});

describe('change status', () => {
  it('reports a change PENDING, then INSYNC once changeDelayMs has passed', async () => {
    // Prepare
    const clock = fakeClock();
    const { route53, client } = await start({ changeDelayMs: 5_000, clock });
    const zoneId = route53.createHostedZone('example.com');
    const submitted = await send(client, zoneId, [create(a('www.example.com', '192.0.2.1'))]);
    const id = submitted.ChangeInfo?.Id ?? '';

    // Act
    const early = await client.send(new GetChangeCommand({ Id: id }));
    clock.advance(4_999);
    const almost = await client.send(new GetChangeCommand({ Id: id }));
    clock.advance(1);
    const late = await client.send(new GetChangeCommand({ Id: id }));

    // Assess
    expect(submitted.ChangeInfo).toMatchObject({
      Status: 'PENDING',
      SubmittedAt: new Date('2026-01-01T00:00:00Z'),
    });
    expect([early.ChangeInfo?.Status, almost.ChangeInfo?.Status, late.ChangeInfo?.Status]).toEqual([
      'PENDING',
      'PENDING',
      'INSYNC',
    ]);
  });

  it('reports INSYNC at once with the default delay of 0', async () => {
    // Prepare
    const zoneId = shared.route53.createHostedZone('example.com');
    const submitted = await send(shared.client, zoneId, [create(a('www.example.com', '192.0.2.1'))]);

    // Act
    const status = await shared.client.send(new GetChangeCommand({ Id: submitted.ChangeInfo?.Id }));

    // Assess
    expect(submitted.ChangeInfo?.Status).toBe('PENDING');
    expect(status.ChangeInfo?.Status).toBe('INSYNC');
  });

  it('raises PriorRequestNotComplete for a change to a zone whose previous change is PENDING (rejectWhilePending)', async () => {
    // Prepare
    const clock = fakeClock();
    const { route53, client } = await start({ changeDelayMs: 1_000, rejectWhilePending: true, clock });
    const zoneId = route53.createHostedZone('example.com');
    const otherZoneId = route53.createHostedZone('example.org');
    await send(client, zoneId, [create(a('one.example.com', '192.0.2.1'))]);

    // Act
    const rejected = await failure(send(client, zoneId, [create(a('two.example.com', '192.0.2.2'))]));
    const otherZone = await send(client, otherZoneId, [create(a('two.example.org', '192.0.2.2'))]);
    clock.advance(1_000);
    const afterwards = await send(client, zoneId, [create(a('two.example.com', '192.0.2.2'))]);

    // Assess
    expect(rejected).toMatchObject({ name: 'PriorRequestNotComplete', status: 400 });
    expect(otherZone.ChangeInfo?.Status).toBe('PENDING');
    expect(afterwards.ChangeInfo?.Status).toBe('PENDING');
    expect(route53.records(zoneId).map((r) => r.name)).toEqual(['one.example.com', 'two.example.com']);
  });

  it('raises NoSuchChange (404) for an unknown change id', async () => {
    // Act
    const rejected = await failure(shared.client.send(new GetChangeCommand({ Id: '/change/CNOSUCHCHANGE' })));

    // Assess
    expect(rejected).toMatchObject({ name: 'NoSuchChange', status: 404 });
  });
});

describe('fault injection and the call log', () => {
  it.each([
    {
      name: 'answers Throttling (400) when the draw is below throttleRate',
      faults: { throttleRate: 0.5 },
      draw: 0.49,
      error: 'Throttling',
      status: 400,
      fault: 'client',
    },
    {
      name: 'answers ServiceUnavailable (503) when the draw is within serverErrorRate after throttleRate',
      faults: { throttleRate: 0.2, serverErrorRate: 0.3 },
      draw: 0.45,
      error: 'ServiceUnavailable',
      status: 503,
      fault: 'server',
    },
  ])('$name', async ({ faults, draw, error, status, fault }) => {
    // Prepare
    const { route53, client } = await start({ faults, random: () => draw });
    const zoneId = route53.createHostedZone('example.com');

    // Act
    const rejected = await failure(send(client, zoneId, [create(a('www.example.com', '192.0.2.1'))]));

    // Assess
    expect(rejected).toMatchObject({ name: error, status, fault });
    expect(route53.records(zoneId)).toEqual([]);
    expect(route53.calls).toEqual([
      { operation: 'ChangeResourceRecordSets', at: expect.any(Number), status },
    ]);
  });

  it('serves normally when the draw is above the fault rates, and setFaults changes the rates', async () => {
    // Prepare
    const { route53, client } = await start({
      faults: { throttleRate: 0.2, serverErrorRate: 0.3 },
      random: () => 0.5,
    });
    const zoneId = route53.createHostedZone('example.com');

    // Act
    await send(client, zoneId, [create(a('one.example.com', '192.0.2.1'))]);
    route53.setFaults({ throttleRate: 1 });
    const throttled = await failure(send(client, zoneId, [create(a('two.example.com', '192.0.2.2'))]));
    route53.setFaults({});
    await send(client, zoneId, [create(a('two.example.com', '192.0.2.2'))]);

    // Assess
    expect(throttled.name).toBe('Throttling');
    expect(route53.calls.map((call) => [call.operation, call.status])).toEqual([
      ['ChangeResourceRecordSets', 200],
      ['ChangeResourceRecordSets', 400],
      ['ChangeResourceRecordSets', 200],
    ]);
  });

  it('records every call with its operation, time and status', async () => {
    // Prepare
    const clock = fakeClock();
    const { route53, client } = await start({ clock });
    const zoneId = route53.createHostedZone('example.com');

    // Act
    await send(client, zoneId, [create(a('www.example.com', '192.0.2.1'))]);
    clock.advance(10);
    await client.send(new ListResourceRecordSetsCommand({ HostedZoneId: zoneId }));
    await failure(send(client, zoneId, [create(a('www.example.com', '192.0.2.1'))]));

    // Assess
    expect(route53.calls).toEqual([
      { operation: 'ChangeResourceRecordSets', at: Date.parse('2026-01-01T00:00:00Z'), status: 200 },
      { operation: 'ListResourceRecordSets', at: Date.parse('2026-01-01T00:00:00.010Z'), status: 200 },
      { operation: 'ChangeResourceRecordSets', at: Date.parse('2026-01-01T00:00:00.010Z'), status: 400 },
    ]);
  });
});

describe('CIDR collections', () => {
  it('creates a collection, changes its locations and lists collections, locations and blocks', async () => {
    // Prepare
    const { route53, client } = await start();

    // Act
    const created = await client.send(
      new CreateCidrCollectionCommand({ Name: 'offices', CallerReference: 'c1' }),
    );
    const id = created.Collection?.Id ?? '';
    await client.send(
      new ChangeCidrCollectionCommand({
        Id: id,
        CollectionVersion: 1,
        Changes: [
          { LocationName: 'berlin', Action: 'PUT', CidrList: ['10.1.0.0/16', '2001:db8:1::/48'] },
          { LocationName: 'paris', Action: 'PUT', CidrList: ['10.2.0.0/16'] },
        ],
      }),
    );
    await client.send(
      new ChangeCidrCollectionCommand({
        Id: id,
        Changes: [
          {
            LocationName: 'berlin',
            Action: 'DELETE_IF_EXISTS',
            CidrList: ['2001:db8:1::/48', '10.9.0.0/16'],
          },
        ],
      }),
    );
    const collections = await client.send(new ListCidrCollectionsCommand({}));
    const locations = await client.send(new ListCidrLocationsCommand({ CollectionId: id }));
    const blocks = await client.send(new ListCidrBlocksCommand({ CollectionId: id }));
    const berlin = await client.send(new ListCidrBlocksCommand({ CollectionId: id, LocationName: 'berlin' }));

    // Assess
    expect(created.Collection).toMatchObject({
      Name: 'offices',
      Version: 1,
      Arn: `arn:aws:route53:::cidrcollection/${id}`,
    });
    expect(id).toMatch(/^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/);
    expect(collections.CidrCollections).toEqual([
      expect.objectContaining({ Id: id, Name: 'offices', Version: 3 }),
    ]);
    expect(locations.CidrLocations).toEqual([{ LocationName: 'berlin' }, { LocationName: 'paris' }]);
    expect(blocks.CidrBlocks).toEqual([
      { CidrBlock: '10.1.0.0/16', LocationName: 'berlin' },
      { CidrBlock: '10.2.0.0/16', LocationName: 'paris' },
    ]);
    expect(berlin.CidrBlocks).toEqual([{ CidrBlock: '10.1.0.0/16', LocationName: 'berlin' }]);
    expect(route53.cidrCollection(id)).toEqual({
      id,
      name: 'offices',
      locations: { berlin: ['10.1.0.0/16'], paris: ['10.2.0.0/16'] },
    });
  });

  it.each([
    {
      name: 'raises NoSuchCidrCollectionException (404) for an unknown collection',
      act: (client: Route53Client) =>
        client.send(new ListCidrLocationsCommand({ CollectionId: '00000000-0000-0000-0000-000000000000' })),
      error: 'NoSuchCidrCollectionException',
      status: 404,
    },
    {
      name: 'raises CidrCollectionVersionMismatchException (409) for a stale CollectionVersion',
      act: (client: Route53Client, id: string) =>
        client.send(
          new ChangeCidrCollectionCommand({
            Id: id,
            CollectionVersion: 1,
            Changes: [{ LocationName: 'x', Action: 'PUT', CidrList: ['10.3.0.0/16'] }],
          }),
        ),
      error: 'CidrCollectionVersionMismatchException',
      status: 409,
    },
    {
      name: 'raises InvalidInput for a malformed CIDR block',
      act: (client: Route53Client, id: string) =>
        client.send(
          new ChangeCidrCollectionCommand({
            Id: id,
            Changes: [{ LocationName: 'x', Action: 'PUT', CidrList: ['10.3.0.0/33'] }],
          }),
        ),
      error: 'InvalidInput',
      status: 400,
    },
    {
      name: 'raises NoSuchCidrLocationException (404) for blocks of an unknown location',
      act: (client: Route53Client, id: string) =>
        client.send(new ListCidrBlocksCommand({ CollectionId: id, LocationName: 'tokyo' })),
      error: 'NoSuchCidrLocationException',
      status: 404,
    },
  ])('$name', async ({ act, error, status }) => {
    // Prepare
    const id = await createCidrCollection(shared.client, `c${Math.floor(Math.random() * 1e9)}`, {
      berlin: ['10.1.0.0/16'],
    });

    // Act
    const rejected = await failure(act(shared.client, id));

    // Assess
    expect(rejected).toMatchObject({ name: error, status });
  });

  it('accepts CIDR records for the locations and the default, and refuses to empty a location in use', async () => {
    // Prepare
    const id = await createCidrCollection(shared.client, 'in-use', { berlin: ['10.1.0.0/16'] });
    const zoneId = shared.route53.createHostedZone('example.com');

    // Act
    await send(shared.client, zoneId, [
      create(
        a('www.example.com', '192.0.2.1', {
          SetIdentifier: 'berlin',
          CidrRoutingConfig: { CollectionId: id, LocationName: 'berlin' },
        }),
      ),
      create(
        a('www.example.com', '192.0.2.2', {
          SetIdentifier: 'default',
          CidrRoutingConfig: { CollectionId: id, LocationName: '*' },
        }),
      ),
    ]);
    const rejected = await failure(
      shared.client.send(
        new ChangeCidrCollectionCommand({
          Id: id,
          Changes: [{ LocationName: 'berlin', Action: 'DELETE_IF_EXISTS', CidrList: ['10.1.0.0/16'] }],
        }),
      ),
    );

    // Assess
    expect(shared.route53.records(zoneId).map((r) => r.cidrRoutingConfig?.locationName)).toEqual([
      'berlin',
      '*',
    ]);
    expect(rejected).toMatchObject({ name: 'CidrBlockInUseException', status: 400 });
  });
});

describe('in-process view', () => {
  it('calls onChange listeners with the zone and the applied changes, not for rejected batches, until unsubscribed', async () => {
    // Prepare
    const { route53, client } = await start();
    const zoneId = route53.createHostedZone('example.com');
    const seen: Array<[string, unknown]> = [];
    const unsubscribe = route53.onChange((hostedZoneId, changes) => seen.push([hostedZoneId, changes]));

    // Act
    await send(client, zoneId, [create(a('WWW.Example.com.', '192.0.2.1'))]);
    await failure(send(client, zoneId, [create(a('www.example.com', '192.0.2.1'))]));
    unsubscribe();
    await send(client, zoneId, [create(a('api.example.com', '192.0.2.2'))]);

    // Assess
    expect(seen).toEqual([
      [
        zoneId,
        [
          {
            action: 'CREATE',
            recordSet: { name: 'www.example.com', type: 'A', ttl: 60, values: ['192.0.2.1'] },
          },
        ],
      ],
    ]);
  });

  it('finds the zone with the longest name a DNS name is in, with its records', async () => {
    // Prepare
    const { route53, client } = await start();
    const parent = route53.createHostedZone('example.com');
    const child = route53.createHostedZone('eu.example.com', 'ZCHILD');
    await send(client, child, [create(a('shop.eu.example.com', '192.0.2.1'))]);

    // Act
    const inChild = route53.findZone('Shop.EU.example.com.');
    const inParent = route53.findZone('www.example.com');
    const nowhere = route53.findZone('example.org');

    // Assess
    expect(inChild).toEqual({
      hostedZoneId: 'ZCHILD',
      zoneName: 'eu.example.com',
      records: [{ name: 'shop.eu.example.com', type: 'A', ttl: 60, values: ['192.0.2.1'] }],
    });
    expect(inParent).toMatchObject({ hostedZoneId: parent, zoneName: 'example.com', records: [] });
    expect(nowhere).toBeUndefined();
  });
});
