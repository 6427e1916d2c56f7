/** The definitions custom resource: CONFIG items equal the deployed definitions after every deploy, and nothing more is written. */
import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../functions/config-writer/handler.js';
import { configItemOf, planConfigSync } from '../../functions/config-writer/plan.js';
import type { Profile } from '../../shared/profile/types.js';
import { freshTable } from '../support/dynamodb.js';
import { logLinesOf, powertoolsLine } from '../support/log-lines.js';
import { profile } from './fixtures/profiles.js';

const REGIONS = ['us-east-1', 'eu-west-1'];
const shop = profile('shop');
const api = profile('api', { method: 'Weighted' });
const shopRetuned: Profile = { ...shop, dnsConfig: { ...shop.dnsConfig, ttl: 60 } };

describe('planning the CONFIG items', () => {
  it.each([
    {
      name: 'a first deploy puts every profile',
      existing: [],
      profiles: [shop, api],
      regions: REGIONS,
      puts: ['shop', 'api'],
      deletes: [],
    },
    {
      name: 'an unchanged deploy writes nothing',
      existing: [configItemOf(shop, REGIONS)],
      profiles: [shop],
      regions: REGIONS,
      puts: [],
      deletes: [],
    },
    {
      name: 'a changed profile is rewritten',
      existing: [configItemOf(shop, REGIONS)],
      profiles: [shopRetuned],
      regions: REGIONS,
      puts: ['shop'],
      deletes: [],
    },
    {
      name: 'changed default probe regions rewrite every profile',
      existing: [configItemOf(shop, REGIONS)],
      profiles: [shop],
      regions: ['us-east-1'],
      puts: ['shop'],
      deletes: [],
    },
    {
      name: 'a profile no longer defined is deleted',
      existing: [configItemOf(shop, REGIONS), configItemOf(api, REGIONS)],
      profiles: [shop],
      regions: REGIONS,
      puts: [],
      deletes: ['api'],
    },
  ])('$name', ({ existing, profiles, regions, puts, deletes }) => {
    const plan = planConfigSync(existing, profiles, regions, Date.parse('2026-01-01T00:00:00Z'));
    expect(plan.puts.map((p) => p.name)).toEqual(puts);
    expect(plan.deletes).toEqual(deletes);
  });

  it('an item holds the profile as JSON, a hash version and the default probe regions', () => {
    const item = configItemOf(shop, REGIONS);
    expect(JSON.parse(item.definition)).toEqual(JSON.parse(JSON.stringify(shop)));
    expect(item.version).toMatch(/^[0-9a-f]{16}$/);
    expect(configItemOf(shopRetuned, REGIONS).version).not.toBe(item.version);
    expect(item.defaultProbeRegions).toEqual(REGIONS);
  });
});

describe('the custom resource handler against DynamoDB Local', () => {
  let table: Awaited<ReturnType<typeof freshTable>>;
  const configItems = async () =>
    (
      (
        await table.dynamodb.send(
          new QueryCommand({
            TableName: table.tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': { S: 'CONFIG' } },
          }),
        )
      ).Items ?? []
    ).map((i) => unmarshall(i));

  const event = (type: 'Create' | 'Update' | 'Delete', profiles: readonly Profile[]) =>
    ({
      RequestType: type,
      ResourceProperties: {
        ServiceToken: 'arn:aws:lambda:us-east-1:123456789012:function:provider',
        TableName: table.tableName,
        Profiles: JSON.stringify(profiles),
        DefaultProbeRegions: REGIONS.join(','),
      },
    }) as unknown as CloudFormationCustomResourceEvent;

  beforeAll(async () => {
    table = await freshTable('tm-config');
    process.env.AWS_ENDPOINT_URL_DYNAMODB = table.endpoint;
    process.env.AWS_REGION = 'us-east-1';
    process.env.AWS_ACCESS_KEY_ID = 'local';
    process.env.AWS_SECRET_ACCESS_KEY = 'local';
  });

  it('create writes one CONFIG / PROFILE#<name> item per profile, and says so in a Powertools log line', async () => {
    let response: Awaited<ReturnType<typeof handler>> | undefined;
    const lines = await logLinesOf(async () => (response = await handler(event('Create', [shop, api]))));
    expect(lines).toContainEqual(
      expect.objectContaining({
        ...powertoolsLine('INFO', 'config synced'),
        written: ['shop', 'api'],
        deleted: [],
      }),
    );
    if (response === undefined) throw new Error('no response');
    expect(response.PhysicalResourceId).toBe(`traffic-manager-config:${table.tableName}`);
    const items = await configItems();
    expect(items.map((i) => [i.pk, i.sk, i.name]).sort()).toEqual([
      ['CONFIG', 'PROFILE#api', 'api'],
      ['CONFIG', 'PROFILE#shop', 'shop'],
    ]);
    expect(items.find((i) => i.name === 'shop')).toMatchObject({ ...configItemOf(shop, REGIONS) });
  });

  it('an update with the same definitions writes nothing (idempotent)', async () => {
    const response = await handler(event('Update', [shop, api]));
    expect(response.Data).toEqual({ Written: 0, Deleted: 0 });
  });

  it('an update rewrites changed profiles and deletes removed ones, keeping the physical id', async () => {
    const response = await handler(event('Update', [shopRetuned]));
    expect(response).toEqual({
      PhysicalResourceId: `traffic-manager-config:${table.tableName}`,
      Data: { Written: 1, Deleted: 1 },
    });
    const items = await configItems();
    expect(items.map((i) => i.name)).toEqual(['shop']);
    expect(JSON.parse(String(items[0]?.definition)).dnsConfig.ttl).toBe(60);
  });

  it('delete leaves the table alone (the table is retained)', async () => {
    await handler(event('Delete', []));
    expect((await configItems()).map((i) => i.name)).toEqual(['shop']);
  });

  it('fails on properties it cannot use', async () => {
    const bad = {
      RequestType: 'Create',
      ResourceProperties: { TableName: 1 },
    } as unknown as CloudFormationCustomResourceEvent;
    await expect(handler(bad)).rejects.toThrow('TableName, Profiles and DefaultProbeRegions must be strings');
  });
});
