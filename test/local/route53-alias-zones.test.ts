/**
 * The local Route 53 refuses an alias into another hosted zone as Route 53 does: an alias to
 * a Route 53 record reaches only records of the alias's own hosted zone ("Another Route 53
 * record in the same hosted zone"), so Route 53 looks the target up in the zone being
 * changed and answers with its alias errors ("Tried to create an alias that targets …, but
 * the alias target name does not lie within the target zone" / "… but that target was not
 * found") even when another of the account's zones holds that record.
 */
import {
  ChangeResourceRecordSetsCommand,
  type Route53Client,
  type ResourceRecordSet,
} from '@aws-sdk/client-route-53';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRoute53, type LocalRoute53 } from '../../infra/local/route53/server.js';
import { route53Client } from '../../functions/shared/aws-clients.js';

let route53: LocalRoute53;
let client: Route53Client;
let com: string;
let eu: string;
let org: string;

const a = (name: string, value: string): ResourceRecordSet => ({
  Name: name,
  Type: 'A',
  TTL: 60,
  ResourceRecords: [{ Value: value }],
});
const alias = (name: string, zoneId: string, target: string): ResourceRecordSet => ({
  Name: name,
  Type: 'A',
  AliasTarget: { HostedZoneId: zoneId, DNSName: target, EvaluateTargetHealth: false },
});
const create = (zoneId: string, record: ResourceRecordSet) =>
  client.send(
    new ChangeResourceRecordSetsCommand({
      HostedZoneId: zoneId,
      ChangeBatch: { Changes: [{ Action: 'CREATE', ResourceRecordSet: record }] },
    }),
  );

beforeAll(async () => {
  route53 = await startLocalRoute53();
  client = route53Client({
    endpoint: route53.endpoint,
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    requestsPerSecond: 1000,
  });
  com = route53.createHostedZone('example.com');
  eu = route53.createHostedZone('eu.example.com');
  org = route53.createHostedZone('example.org');
  await create(eu, a('shop.eu.example.com', '192.0.2.1'));
  await create(org, a('shop.example.org', '192.0.2.2'));
});
afterAll(async () => {
  client.destroy();
  await route53.stop();
});

describe('local Route 53: aliases stay within their hosted zone', () => {
  it.each([
    {
      name: 'refuses an alias to a record of a delegated subzone (the name is under the zone, the record is not in it)',
      record: 'eu.example.com',
      target: 'shop.eu.example.com',
      zone: () => eu,
      says: [
        /^Tried to create an alias that targets shop\.eu\.example\.com\., type A in zone \w+, but that target was not found$/,
      ],
    },
    {
      name: 'refuses an alias to a record of an unrelated zone of the account',
      record: 'org.example.com',
      target: 'shop.example.org',
      zone: () => org,
      says: [
        /^Tried to create an alias that targets shop\.example\.org\., type A in zone \w+, but the alias target name does not lie within the target zone$/,
        /^Tried to create an alias that targets shop\.example\.org\., type A in zone \w+, but that target was not found$/,
      ],
    },
  ])('$name', async ({ record, target, zone, says }) => {
    const error = (await create(com, alias(record, zone(), target)).catch((e: unknown) => e)) as {
      name: string;
      message: string;
    };
    expect(error.name).toBe('InvalidChangeBatch');
    const messages = error.message
      .replace(/^\[|\]$/g, '')
      .split(', Tried')
      .map((m, i) => (i === 0 ? m : `Tried${m}`));
    expect(messages).toEqual(says.map((pattern) => expect.stringMatching(pattern)));
    expect(route53.records(com).some((r) => r.name === record)).toBe(false);
  });

  it('still accepts an alias to a record of its own zone', async () => {
    await create(com, a('origin.example.com', '192.0.2.9'));
    await create(com, alias('www.example.com', com, 'origin.example.com'));
    expect(route53.records(com).find((r) => r.name === 'www.example.com')?.aliasTarget?.dnsName).toBe(
      'origin.example.com',
    );
  });
});
