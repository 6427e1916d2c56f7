import {
  paginateListCidrBlocks,
  paginateListCidrLocations,
  type Route53Client,
} from '@aws-sdk/client-route-53';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { route53Client } from '../../functions/shared/aws-clients.js';
import { InvalidChangeBatchError } from '../../functions/evaluator/errors.js';
import { Route53ZoneGateway } from '../../functions/evaluator/route53-zone-gateway.js';
import { startLocalRoute53, type LocalRoute53 } from '../../infra/local/route53/index.js';
import type { RecordSet } from '../../shared/zone/record-set.js';
import { createCidrCollection } from '../support/cidr-collections.js';

const ZONE = 'Z00000000000000000009';
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
let route53: LocalRoute53;
let client: Route53Client;
let gateway: Route53ZoneGateway;

const a = (name: string, value: string): RecordSet => ({ name, type: 'A', ttl: 30, values: [value] });

beforeEach(async () => {
  route53 = await startLocalRoute53();
  route53.createHostedZone('example.com', ZONE);
  // The production client but its own fast limiter: these tests make hundreds of calls.
  client = route53Client({ endpoint: route53.endpoint, credentials, requestsPerSecond: 1000 });
  gateway = new Route53ZoneGateway(client);
});
afterEach(async () => {
  await route53.stop();
});

describe('the Route 53 zone gateway (real SDK client against the local Route 53)', () => {
  it('reading many names by listing the zone gives the same records as reading name by name, in fewer calls', async () => {
    const records = Array.from({ length: 700 }, (_, i) => a(`n-${i}.example.com`, `192.0.2.${i % 250}`));
    for (let i = 0; i < records.length; i += 400) {
      await gateway.publish(
        ZONE,
        records.slice(i, i + 400).map((recordSet) => ({ action: 'CREATE' as const, recordSet })),
      );
    }
    const wanted = new Set(records.filter((_, i) => i % 2 === 0).map((r) => r.name));

    const before = route53.calls.length;
    const listed = await gateway.readRecords(ZONE, wanted);
    const listCalls = route53.calls.length - before;
    const oneByOne = (
      await Promise.all([...wanted].map((name) => gateway.readRecords(ZONE, new Set([name]))))
    ).flat();

    const key = (r: RecordSet) => `${r.name} ${r.values.join()}`;
    expect(listed.map(key).sort()).toEqual(oneByOne.map(key).sort());
    expect(listed).toHaveLength(350);
    expect(listCalls).toBeLessThan(10);
  });

  it('retries Throttling with backoff until the change lands', async () => {
    route53.setFaults({ throttleRate: 0.6 });
    await gateway.publish(ZONE, [{ action: 'UPSERT', recordSet: a('shop.example.com', '192.0.2.1') }]);
    route53.setFaults({ throttleRate: 0 });
    expect(route53.records(ZONE).find((r) => r.name === 'shop.example.com')?.values).toEqual(['192.0.2.1']);
  });

  it('surfaces a rejected batch as InvalidChangeBatchError with Route 53’s reasons', async () => {
    const change = { action: 'DELETE' as const, recordSet: a('missing.example.com', '192.0.2.1') };
    const error = await gateway.publish(ZONE, [change]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidChangeBatchError);
    expect((error as InvalidChangeBatchError).messages.join()).toMatch(/missing\.example\.com/);
  });
});

/** A loopback server answering every request with HTTP 400 and `body`, for as long as `use` runs. */
async function answering<T>(body: string, use: (endpoint: string) => Promise<T>): Promise<T> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(400, { 'Content-Type': 'text/xml' }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('a rejected batch, in each shape Route 53 has answered it (real SDK client)', () => {
  const reasons = [
    "Tried to delete resource record set [name='one.example.com.', type='A'] but it was not found",
    "Tried to create resource record set [name='two.example.com.', type='A'] but it already exists",
  ];
  const xml = (root: string, inner: string) =>
    `<?xml version="1.0"?>\n<${root} xmlns="https://route53.amazonaws.com/doc/2013-04-01/">${inner}<RequestId>r-1</RequestId></${root}>`;
  const listed = `<Messages>${reasons.map((r) => `<Message>${r}</Message>`).join('')}</Messages>`;

  async function rejection(body: string): Promise<unknown> {
    return answering(body, (endpoint) =>
      new Route53ZoneGateway(route53Client({ endpoint, credentials }))
        .publish(ZONE, [{ action: 'UPSERT', recordSet: a('one.example.com', '192.0.2.1') }])
        .catch((e: unknown) => e),
    );
  }

  it.each([
    {
      shape: 'ErrorResponse with one Message "[first, second]" (what Route 53 answers now)',
      body: xml(
        'ErrorResponse',
        `<Error><Type>Sender</Type><Code>InvalidChangeBatch</Code><Message>[${reasons.join(', ')}]</Message></Error>`,
      ),
      messages: [`[${reasons.join(', ')}]`],
    },
    {
      shape:
        'an InvalidChangeBatch root listing Messages (what Route 53 answered before; the SDK names it Unknown)',
      body: xml('InvalidChangeBatch', listed),
      messages: reasons,
    },
    {
      shape: 'an InvalidChangeBatch root with a single Message in Messages',
      body: xml('InvalidChangeBatch', `<Messages><Message>${reasons[0]}</Message></Messages>`),
      messages: [reasons[0]],
    },
    {
      shape: "ErrorResponse with the SDK model's messages list beside its Message",
      body: xml(
        'ErrorResponse',
        `<Error><Type>Sender</Type><Code>InvalidChangeBatch</Code><Message>[${reasons.join(', ')}]</Message>` +
          `<messages>${reasons.map((r) => `<Message>${r}</Message>`).join('')}</messages></Error>`,
      ),
      messages: reasons,
    },
    {
      shape: 'ErrorResponse with Messages and no Message (the SDK says UnknownError)',
      body: xml(
        'ErrorResponse',
        `<Error><Type>Sender</Type><Code>InvalidChangeBatch</Code>${listed}</Error>`,
      ),
      messages: reasons,
    },
  ])('$shape: InvalidChangeBatchError with every reason', async ({ body, messages }) => {
    const error = await rejection(body);
    expect(error).toBeInstanceOf(InvalidChangeBatchError);
    expect((error as InvalidChangeBatchError).messages).toEqual(messages);
  });

  it('another 400 without Messages stays what it is (not a rejected batch)', async () => {
    const error = await rejection(
      xml(
        'ErrorResponse',
        '<Error><Type>Sender</Type><Code>InvalidInput</Code><Message>bad</Message></Error>',
      ),
    );
    expect(error).not.toBeInstanceOf(InvalidChangeBatchError);
    expect((error as Error).name).toBe('InvalidInput');
  });
});

describe('the Route 53 zone gateway: reading, change status and CIDR collections', () => {
  const weighted = (i: number): RecordSet => ({
    name: 'big.example.com',
    type: 'A',
    ttl: 30,
    setIdentifier: `w-${String(i).padStart(3, '0')}`,
    weight: 1,
    values: [`198.51.100.${i % 250}`],
  });

  /** The collection's blocks by location, as Route 53 lists them (every page, by the SDK's paginators). */
  async function blocks(id: string): Promise<Record<string, string[]>> {
    const client = route53Client({ endpoint: route53.endpoint, credentials, requestsPerSecond: 1000 });
    const out: Record<string, string[]> = {};
    for await (const page of paginateListCidrLocations({ client }, { CollectionId: id })) {
      for (const { LocationName } of page.CidrLocations ?? []) {
        const cidrs: string[] = [];
        for await (const listed of paginateListCidrBlocks({ client }, { CollectionId: id, LocationName }))
          cidrs.push(...(listed.CidrBlocks ?? []).map((b) => b.CidrBlock ?? ''));
        if (cidrs.length > 0) out[LocationName!] = cidrs.sort();
      }
    }
    return out;
  }

  it('a name with more record sets than one page is read across pages, and nothing of the next name', async () => {
    const sets = Array.from({ length: 320 }, (_, i) => weighted(i));
    await gateway.publish(
      ZONE,
      sets.map((recordSet) => ({ action: 'CREATE' as const, recordSet })),
    );
    await gateway.publish(ZONE, [{ action: 'CREATE', recordSet: a('bigger.example.com', '192.0.2.9') }]);
    const before = route53.calls.length;
    const read = await gateway.readRecords(ZONE, new Set(['big.example.com']));
    const lists = route53.calls.slice(before).filter((c) => c.operation === 'ListResourceRecordSets');
    expect(read.map((r) => r.setIdentifier).sort()).toEqual(sets.map((r) => r.setIdentifier).sort());
    expect(lists).toHaveLength(2);
  });

  it('when the role may not call GetHostedZone (AccessDenied), many names are read name by name', async () => {
    const names = ['a.example.com', 'b.example.com', 'c.example.com'];
    await gateway.publish(
      ZONE,
      names.map((n, i) => ({ action: 'CREATE' as const, recordSet: a(n, `192.0.2.${i}`) })),
    );
    const client = route53Client({ endpoint: route53.endpoint, credentials, requestsPerSecond: 1000 });
    // What IAM answers a role without route53:GetHostedZone.
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'GetHostedZoneCommand')
          throw Object.assign(new Error('User is not authorized to perform: route53:GetHostedZone'), {
            name: 'AccessDenied',
          });
        return next(args);
      },
      { step: 'initialize', name: 'testDenyGetHostedZone' },
    );
    const before = route53.calls.length;
    const read = await new Route53ZoneGateway(client).readRecords(ZONE, new Set(names));
    expect(read.map((r) => r.name).sort()).toEqual(names);
    expect(route53.calls.slice(before).map((c) => c.operation)).toEqual(
      names.map(() => 'ListResourceRecordSets'),
    );
  });

  it('any other GetHostedZone failure fails the read (an unknown zone: NoSuchHostedZone)', async () => {
    const error = await gateway
      .readRecords('Z0000000000000000UNKN', new Set(['a.example.com', 'b.example.com', 'c.example.com']))
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe('NoSuchHostedZone');
  });

  it('a change to a zone that does not exist fails with NoSuchHostedZone, not as a rejected batch', async () => {
    const error = await gateway
      .publish('Z0000000000000000UNKN', [{ action: 'UPSERT', recordSet: a('shop.example.com', '192.0.2.1') }])
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(InvalidChangeBatchError);
    expect((error as Error).name).toBe('NoSuchHostedZone');
  });

  it('reports a change PENDING until Route 53 says INSYNC', async () => {
    let now = 1_000_000;
    const slow = await startLocalRoute53({ changeDelayMs: 60_000, clock: { now: () => now } });
    try {
      slow.createHostedZone('example.com', ZONE);
      const slowGateway = new Route53ZoneGateway(
        route53Client({ endpoint: slow.endpoint, credentials, requestsPerSecond: 1000 }),
      );
      const changeId = await slowGateway.publish(ZONE, [
        { action: 'UPSERT', recordSet: a('shop.example.com', '192.0.2.1') },
      ]);
      expect(changeId).toMatch(/\S/);
      expect(await slowGateway.changeStatus(changeId)).toBe('PENDING');
      now += 60_000;
      expect(await slowGateway.changeStatus(changeId)).toBe('INSYNC');
    } finally {
      await slow.stop();
    }
  });

  it('CIDR collections: created when missing, then only the differences are changed, and nothing when equal', async () => {
    const changes = () => route53.calls.filter((c) => c.operation === 'ChangeCidrCollection').length;

    expect(await gateway.syncCidrCollections([])).toEqual([]);
    expect(route53.calls).toHaveLength(0);

    const first = { id: '', name: 'tm-shop', locations: { office: ['10.0.0.0/8'], lab: ['192.168.1.0/24'] } };
    const [created] = await gateway.syncCidrCollections([first]);
    expect(created?.id).toMatch(/\S/);
    expect(await blocks(created!.id)).toEqual({ lab: ['192.168.1.0/24'], office: ['10.0.0.0/8'] });

    // One block added and one removed at office; lab dropped entirely.
    const second = { ...first, locations: { office: ['172.16.0.0/12'] } };
    const [updated] = await gateway.syncCidrCollections([second]);
    expect(updated?.id).toBe(created!.id);
    expect(await blocks(created!.id)).toEqual({ office: ['172.16.0.0/12'] });
    expect(route53.calls.filter((c) => c.operation === 'CreateCidrCollection')).toHaveLength(1);

    const before = changes();
    await gateway.syncCidrCollections([second]);
    expect(changes()).toBe(before);
  });

  it('a collection someone else created under the name is adopted, its blocks brought to the definitions', async () => {
    const id = await createCidrCollection(client, 'tm-existing', { office: ['10.0.0.0/8'] });
    const before = route53.calls.length;
    const [synced] = await gateway.syncCidrCollections([
      { id: '', name: 'tm-existing', locations: { office: ['10.0.0.0/8'], home: ['192.0.2.0/24'] } },
    ]);
    expect(synced?.id).toBe(id);
    expect(await blocks(id)).toEqual({ home: ['192.0.2.0/24'], office: ['10.0.0.0/8'] });
    expect(route53.calls.slice(before).filter((c) => c.operation === 'CreateCidrCollection')).toHaveLength(0);
  });

  it('a collection on a later ListCidrCollections page is found and adopted, not created again', async () => {
    // Route 53 pages the listing (NextToken); the stand-in's pages hold 100, so tm-shop is on page 2.
    for (let i = 0; i < 100; i++) await createCidrCollection(client, `c-${String(i).padStart(3, '0')}`);
    const id = await createCidrCollection(client, 'tm-shop', { office: ['10.0.0.0/8'] });
    const before = route53.calls.length;

    const [synced] = await gateway.syncCidrCollections([
      { id: '', name: 'tm-shop', locations: { office: ['10.0.0.0/8'] } },
    ]);

    const calls = route53.calls.slice(before);
    expect(synced?.id).toBe(id);
    expect(calls.filter((c) => c.operation === 'CreateCidrCollection')).toHaveLength(0);
    expect(calls.filter((c) => c.operation === 'ListCidrCollections')).toHaveLength(2);
  });

  it('locations and blocks on later pages are compared too: what the definitions drop goes, wherever it was listed', async () => {
    const office = Array.from({ length: 150 }, (_, i) => `10.${Math.floor(i / 100)}.${i % 100}.0/24`);
    const others = Object.fromEntries(
      Array.from({ length: 101 }, (_, i) => [`loc-${String(i).padStart(3, '0')}`, [`172.16.${i}.0/24`]]),
    );
    // 102 locations: office sorts last (page 2 of ListCidrLocations); its 150 blocks take two pages.
    const id = await createCidrCollection(client, 'tm-big', { ...others, office });

    await gateway.syncCidrCollections([
      { id: '', name: 'tm-big', locations: { office: office.slice(0, 140) } },
    ]);

    const after = await blocks(id);
    expect(Object.keys(after)).toEqual(['office']);
    expect(after['office']).toEqual(office.slice(0, 140).sort());
  });
});
