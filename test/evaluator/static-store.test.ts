/**
 * What the evaluator keeps of the static-failover structure it applied (STATIC / STRUCTURE,
 * functions/evaluator/static-failover-store.ts), on DynamoDB Local with its real 400 KB item
 * limit: a structure of thousands of endpoints — over 400 KB of JSON from ~500 endpoints on —
 * is saved and read back whole; one that needs several items is too, and a smaller one saved
 * after it leaves no part behind; an item written before compression still reads.
 */
import { randomUUID } from 'node:crypto';
import { PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbStaticFailoverStore } from '../../functions/evaluator/static-failover-store.js';
import { parseDefinitionsOrThrow } from '../support/parse-definitions.js';
import type { StaticStructureItem } from '../../shared/state/items.js';
import { planStaticFailover } from '../../shared/static-failover/plan.js';
import { freshTable } from '../support/dynamodb.js';

const ZONE = 'Z00000000000000000001';
let table: Awaited<ReturnType<typeof freshTable>>;
let store: DynamoDbStaticFailoverStore;

beforeAll(async () => {
  table = await freshTable('tm-static-store');
  store = new DynamoDbStaticFailoverStore(table.dynamodb, table.tableName);
});

afterAll(() => table?.dynamodb.destroy());

/** What the evaluator stores after applying `endpoints` Priority endpoints (10, or past 2,000 100, a profile): Route 53's random ids included. */
function appliedStructure(endpoints: number): StaticStructureItem {
  const perProfile = endpoints > 2_000 ? 100 : 10;
  const definitions = Array.from({ length: Math.ceil(endpoints / perProfile) }, (_, p) => ({
    name: `p${p}`,
    trafficRoutingMethod: 'Priority',
    dnsConfig: { zoneName: 'example.com', hostedZoneId: ZONE, relativeName: `p${p}` },
    endpoints: Array.from({ length: perProfile }, (_, i) => ({
      name: `e${i}`,
      target: `host-${p}-${i}.example.net`,
      priority: i + 1,
    })),
  }));
  const plan = planStaticFailover(parseDefinitionsOrThrow(definitions), {
    deployment: 'traffic-manager',
    defaultProbeRegions: ['us-east-1', 'eu-west-1', 'ap-southeast-1'],
  });
  const checks = Object.fromEntries(
    plan.healthChecks.map((c) => [c.id, { healthCheckId: randomUUID(), generation: 1_796_316_360_000 }]),
  );
  const records = plan.records.map(({ healthCheckRef, ...record }) =>
    healthCheckRef === undefined
      ? record
      : { ...record, healthCheckId: checks[healthCheckRef]?.healthCheckId },
  );
  return {
    digest: randomUUID(),
    checks,
    alarmRegions: ['ap-southeast-1', 'eu-west-1', 'us-east-1'],
    zones: { [ZONE]: records },
    appliedAt: 1_796_316_360_000,
  };
}

async function staticItems(): Promise<string[]> {
  const out = await table.dynamodb.send(
    new QueryCommand({
      TableName: table.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: marshall({ ':pk': 'STATIC' }),
    }),
  );
  return (out.Items ?? []).map((item) => String(item.sk?.S)).sort();
}

describe('the stored static-failover structure', () => {
  it('of 2,000 endpoints (1.7 MB of JSON) is saved and read back whole', async () => {
    const item = appliedStructure(2_000);
    expect(JSON.stringify(item).length).toBeGreaterThan(1_500_000);

    await store.saveStructure(item);

    expect(await store.loadStructure()).toEqual(item);
  });

  it('needing several items is read back whole; a smaller one saved after it leaves no part behind', async () => {
    const large = appliedStructure(12_000);
    await store.saveStructure(large);
    const parts = await staticItems();
    expect(parts.length).toBeGreaterThan(1);
    expect(await store.loadStructure()).toEqual(large);

    const small = {
      ...appliedStructure(20),
      problem: { at: 5, reason: 'CloudWatch in eu-west-1: throttled' },
    };
    await store.saveStructure(small);

    expect(await staticItems()).toEqual(['STRUCTURE']);
    expect(await store.loadStructure()).toEqual(small);
  });

  it('written before compression (the maps as JSON strings) still reads', async () => {
    const item = appliedStructure(20);
    await table.dynamodb.send(
      new PutItemCommand({
        TableName: table.tableName,
        Item: marshall({
          pk: 'STATIC',
          sk: 'STRUCTURE',
          digest: item.digest,
          checks: JSON.stringify(item.checks),
          alarmRegions: item.alarmRegions,
          zones: JSON.stringify(item.zones),
          appliedAt: item.appliedAt,
        }),
      }),
    );

    expect(await store.loadStructure()).toEqual(item);
  });
});
