/**
 * The definitions custom resource: CONFIG items equal the deployed definitions after every
 * deploy, and nothing more is written. The handler reads the definitions from the asset the
 * CDK construct synthesizes, served by a loopback stand-in for S3's GetObject
 * (test/support/s3-objects.ts: there is no local S3), with its clients from the production
 * factory (AWS_ENDPOINT_URL_S3 / _DYNAMODB).
 */
import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { Stack } from 'aws-cdk-lib';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/config-writer/handler.js';
import { configItemOf, planConfigSync } from '../../functions/config-writer/plan.js';
import type { Profile } from '../../shared/profile/types.js';
import { freshTable } from '../support/dynamodb.js';
import { logLinesOf, powertoolsLine } from '../support/log-lines.js';
import { profile } from './fixtures/profiles.js';
import { ProfileConfig } from '../../infra/cdk/profile-config.js';
import { startLocalS3, type LocalS3 } from '../support/s3-objects.js';
import { definitionsProperties, shippedDefinitions, testApp } from './support.js';

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

/** The bucket name the template's `Fn::Sub` names for a deployment to this account and region. */
const ASSETS_BUCKET = 'cdk-hnb659fds-assets-123456789012-us-east-1';

/**
 * Synthesizes the construct for these profiles and uploads its asset as `cdk deploy` would:
 * returns the custom resource's properties with the bucket resolved and the table named.
 */
function deploy(s3: LocalS3, tableName: string, profiles: readonly Profile[]): Record<string, unknown> {
  const app = testApp({ nag: false });
  const stack = new Stack(app, 'Home', { env: { region: 'us-east-1' } });
  const table = new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
  new ProfileConfig(stack, 'Profiles', { table, profiles, defaultProbeRegions: REGIONS });
  const assembly = app.synth();
  const template = assembly.getStackByName('Home').template as { Resources: Record<string, unknown> };
  const props = definitionsProperties(template);
  s3.put(
    ASSETS_BUCKET,
    String(props.DefinitionsKey),
    JSON.stringify(shippedDefinitions(assembly.directory, template)),
  );
  return {
    ServiceToken: 'arn:aws:lambda:us-east-1:123456789012:function:provider',
    ...props,
    TableName: tableName,
    DefinitionsBucket: ASSETS_BUCKET,
  };
}

describe('the custom resource handler against DynamoDB Local, reading the definitions asset', () => {
  let table: Awaited<ReturnType<typeof freshTable>>;
  let s3: LocalS3;
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

  const event = (type: 'Create' | 'Update' | 'Delete', properties: Record<string, unknown>) =>
    ({ RequestType: type, ResourceProperties: properties }) as unknown as CloudFormationCustomResourceEvent;

  beforeAll(async () => {
    table = await freshTable('tm-config');
    s3 = await startLocalS3();
    vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', table.endpoint);
    vi.stubEnv('AWS_ENDPOINT_URL_S3', s3.endpoint);
    vi.stubEnv('AWS_REGION', 'us-east-1');
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'local');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'local');
  }, 60_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await s3.close();
  });

  it('create writes one CONFIG / PROFILE#<name> item per profile of the asset, and says so in a Powertools log line', async () => {
    const properties = deploy(s3, table.tableName, [shop, api]);
    let response: Awaited<ReturnType<typeof handler>> | undefined;
    const lines = await logLinesOf(async () => (response = await handler(event('Create', properties))));
    expect(s3.gets).toEqual([`${ASSETS_BUCKET}/${String(properties.DefinitionsKey)}`]);
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
  }, 60_000);

  it('the same definitions synthesize the same properties: no update, and an update with them writes nothing', async () => {
    const first = deploy(s3, table.tableName, [shop, api]);
    const again = deploy(s3, table.tableName, [shop, api]);
    expect(again).toEqual(first);
    const response = await handler(event('Update', again));
    expect(response.Data).toEqual({ Written: 0, Deleted: 0 });
  }, 60_000);

  it('an update that removes a profile: a new hash, changed profiles rewritten, the removed one deleted, the physical id kept', async () => {
    const before = deploy(s3, table.tableName, [shop, api]);
    const after = deploy(s3, table.tableName, [shopRetuned]);
    expect(after.DefinitionsHash).not.toBe(before.DefinitionsHash);
    const response = await handler(event('Update', after));
    expect(response).toEqual({
      PhysicalResourceId: `traffic-manager-config:${table.tableName}`,
      Data: { Written: 1, Deleted: 1 },
    });
    const items = await configItems();
    expect(items.map((i) => i.name)).toEqual(['shop']);
    expect(JSON.parse(String(items[0]?.definition)).dnsConfig.ttl).toBe(60);
  }, 60_000);

  it('delete leaves the table alone (the table is retained) and reads nothing', async () => {
    const properties = deploy(s3, table.tableName, [shopRetuned]);
    const reads = s3.gets.length;
    await handler(event('Delete', properties));
    expect(s3.gets).toHaveLength(reads);
    expect((await configItems()).map((i) => i.name)).toEqual(['shop']);
  }, 60_000);

  it("fails with S3's error when the asset is not there", async () => {
    const properties = { ...deploy(s3, table.tableName, [shop]), DefinitionsKey: 'missing.json' };
    await expect(handler(event('Update', properties))).rejects.toMatchObject({ name: 'NoSuchKey' });
  }, 60_000);

  it('fails on properties it cannot use, naming them', async () => {
    const bad = {
      RequestType: 'Create',
      ResourceProperties: { TableName: 1, DefinitionsBucket: 'b' },
    } as unknown as CloudFormationCustomResourceEvent;
    await expect(handler(bad)).rejects.toThrow(
      'TableName, DefinitionsKey, DefinitionsHash, DefaultProbeRegions: must be strings',
    );
  });
});
