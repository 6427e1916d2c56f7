import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDbProbeStateStore } from '../../functions/probe/dynamodb-state-store.js';
import { MemoryProbeStateStore } from '../support/memory-probe-state-store.js';
import type { ProbeStateStore } from '../../functions/probe/dynamodb-state-store.js';
import { type HeartbeatItem, type VerdictItem } from '../../shared/state/items.js';
import { Keys } from '../../shared/state/keys.js';
import { freshTable } from '../support/dynamodb.js';

const verdict = (checkedAt: number, v: 'up' | 'down' = 'up'): VerdictItem => ({
  targetKey: 'HTTP:a.example.net:80/#00000000',
  region: 'eu-west-1',
  verdict: v,
  since: checkedAt,
  checkedAt,
  detail: v === 'up' ? 'check succeeded' : '1 consecutive failure (tolerated 0)',
});
const heartbeat = (at: number, failures = 1): HeartbeatItem => ({
  region: 'eu-west-1',
  at,
  targets: 1,
  periodMs: 60_000,
  checkpoint: { 'HTTP:b.example.net:80/#00000000': { kind: 'consecutiveFailures', failures } },
});

const implementations: { name: string; make: () => Promise<ProbeStateStore> }[] = [
  { name: 'in memory', make: async () => new MemoryProbeStateStore() },
  {
    name: 'DynamoDB',
    make: async () => {
      const { dynamodb, tableName } = await freshTable();
      return new DynamoDbProbeStateStore(dynamodb, tableName);
    },
  },
];

describe.each(implementations)('probe state store ($name)', ({ make }) => {
  it('a verdict round-trips, and missing targets are simply absent', async () => {
    const store = await make();
    await store.putVerdict(verdict(1_000));
    const loaded = await store.loadVerdicts('eu-west-1', [verdict(0).targetKey, 'HTTP:missing:80/#1']);
    expect(loaded).toEqual([verdict(1_000)]);
  });

  it('a newer verdict replaces an older one', async () => {
    const store = await make();
    await store.putVerdict(verdict(1_000));
    expect(await store.putVerdict(verdict(2_000, 'down'))).toBe('written');
    expect((await store.loadVerdicts('eu-west-1', [verdict(0).targetKey]))[0]?.verdict).toBe('down');
  });

  it.each([
    { name: 'an overlapping older verdict write does not overwrite a newer one', at: 1_000 },
    { name: 'a retried write of the same check is a no-op', at: 2_000 },
  ])('$name', async ({ at }) => {
    const store = await make();
    await store.putVerdict(verdict(2_000, 'down'));
    expect(await store.putVerdict(verdict(at, 'up'))).toBe('superseded');
    expect((await store.loadVerdicts('eu-west-1', [verdict(0).targetKey]))[0]).toEqual(
      verdict(2_000, 'down'),
    );
  });

  it('an older heartbeat does not overwrite a newer one', async () => {
    const store = await make();
    await store.putHeartbeat(heartbeat(5_000, 2));
    expect(await store.putHeartbeat(heartbeat(4_000, 1))).toBe('superseded');
    expect(await store.loadHeartbeats('eu-west-1')).toEqual([heartbeat(5_000, 2)]);
    expect(await store.loadHeartbeats('us-east-1')).toEqual([]);
  });

  it('each shard of a region has its own heartbeat, and the region’s are loaded together', async () => {
    const store = await make();
    const shard = (at: number, index: number) => ({ ...heartbeat(at, 1), shard: index, shards: 3 });
    await store.putHeartbeat(shard(5_000, 0));
    await store.putHeartbeat(shard(4_000, 2));
    expect(await store.putHeartbeat(shard(3_000, 2))).toBe('superseded');
    const loaded = await store.loadHeartbeats('eu-west-1');
    expect(loaded.sort((a, b) => (a.shard ?? 0) - (b.shard ?? 0))).toEqual([
      shard(5_000, 0),
      shard(4_000, 2),
    ]);
  });
});

describe('DynamoDB probe state store: the table layout', () => {
  it('writes verdicts at VERDICT#<region>#<key> / VERDICT with the VerdictItem fields', async () => {
    const { dynamodb, tableName } = await freshTable();
    await new DynamoDbProbeStateStore(dynamodb, tableName).putVerdict(verdict(1_000));
    const got = await dynamodb.send(
      new GetItemCommand({
        TableName: tableName,
        Key: marshall(Keys.verdict(verdict(0).targetKey, 'eu-west-1')),
      }),
    );
    expect(unmarshall(got.Item!)).toEqual({
      ...Keys.verdict(verdict(0).targetKey, 'eu-west-1'),
      ...verdict(1_000),
    });
  });

  it('loads more verdicts than one BatchGetItem takes (100)', async () => {
    const { dynamodb, tableName } = await freshTable();
    const store = new DynamoDbProbeStateStore(dynamodb, tableName);
    const keys = Array.from({ length: 130 }, (_, i) => `HTTP:h${i}:80/#0`);
    await Promise.all(keys.map((targetKey) => store.putVerdict({ ...verdict(1_000), targetKey })));
    expect(await store.loadVerdicts('eu-west-1', keys)).toHaveLength(130);
  });
});

describe('DynamoDB probe state store: what it asks DynamoDB for', () => {
  it('never requests consumed capacity (only the benchmark needs it, and meters its own client)', async () => {
    const { dynamodb, tableName } = await freshTable();
    const inputs: Record<string, unknown>[] = [];
    dynamodb.middlewareStack.add(
      (next) => async (args) => {
        inputs.push(args.input as Record<string, unknown>);
        return next(args);
      },
      { step: 'initialize', name: 'recordInputs' },
    );
    const store = new DynamoDbProbeStateStore(dynamodb, tableName);
    await store.putVerdict(verdict(2_000));
    await store.putVerdict(verdict(1_000)); // superseded
    await store.putHeartbeat(heartbeat(1_000));
    await store.loadVerdicts('eu-west-1', [verdict(0).targetKey]);
    await store.loadHeartbeats('eu-west-1');
    expect(inputs).toHaveLength(5);
    for (const input of inputs) expect(input).not.toHaveProperty('ReturnConsumedCapacity');
  });
});
