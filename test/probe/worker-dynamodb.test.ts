import { GetItemCommand, PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDbProbeStateStore } from '../../functions/probe/dynamodb-state-store.js';
import { createProbeWorker } from '../../functions/probe/worker.js';
import { Keys } from '../../shared/state/keys.js';
import { freshTable } from '../support/dynamodb.js';
import { fakeClock, noSleep, planned, scriptedProber } from './worker.fixtures.js';

const REGION = 'eu-west-1';
const ROUND = 10_000;
const quiet = { warn: () => undefined };

/** Counts PutItem requests, and throws on the next `failNext` of them. */
function instrument(client: DynamoDBClient) {
  const counts = { puts: 0, failNext: 0 };
  const send = client.send.bind(client) as (command: unknown) => Promise<unknown>;
  (client as { send: unknown }).send = async (command: unknown) => {
    if (command instanceof PutItemCommand) {
      if (counts.failNext > 0) {
        counts.failNext--;
        throw new Error('simulated DynamoDB outage');
      }
      counts.puts++;
    }
    return send(command);
  };
  return counts;
}

async function setup() {
  const { dynamodb, tableName } = await freshTable();
  const counts = instrument(dynamodb);
  const clock = fakeClock();
  const makeWorker = () => {
    const script = scriptedProber(clock);
    const worker = createProbeWorker({
      region: REGION,
      store: new DynamoDbProbeStateStore(dynamodb, tableName),
      prober: script.prober,
      clock,
      sleep: noSleep,
      logger: quiet,
    });
    return { worker, script };
  };
  let dueAt = Math.ceil(clock.now() / ROUND) * ROUND;
  const round = async (worker: ReturnType<typeof makeWorker>['worker']) => {
    clock.set(dueAt);
    const report = await worker.runRound(dueAt, ROUND);
    dueAt += ROUND;
    return report;
  };
  const storedVerdict = async (key: string) => {
    const got = await dynamodb.send(
      new GetItemCommand({ TableName: tableName, Key: marshall(Keys.verdict(key, REGION)) }),
    );
    return got.Item === undefined ? undefined : unmarshall(got.Item);
  };
  return { dynamodb, tableName, counts, clock, makeWorker, round, storedVerdict };
}

describe('probe worker against DynamoDB Local', () => {
  it('a verdict change is in the table when its round ends', async () => {
    // Prepare
    const { makeWorker, round, storedVerdict } = await setup();
    const { worker, script } = makeWorker();
    worker.setTargets([planned('t', { toleratedNumberOfFailures: 0 })]);
    await round(worker);
    script.down.add('t');
    // Act
    await round(worker);
    // Assess
    expect(await storedVerdict('t')).toMatchObject({ verdict: 'down', reason: 'timeout', region: REGION });
  });

  it('in steady state only heartbeats are written (and the first check summaries): 20 healthy targets, 2 minutes → 2 heartbeats', async () => {
    // Prepare
    const { makeWorker, round, counts } = await setup();
    const { worker } = makeWorker();
    worker.setTargets(Array.from({ length: 20 }, (_, i) => planned(`t${i}`)));
    await round(worker);
    expect(counts.puts).toBe(21);
    // Act: 12 more rounds = 120 s
    for (let i = 0; i < 12; i++) await round(worker);
    // Assess: 2 heartbeats, and at the first the shard's judge list and check summaries (then every 5 minutes)
    expect(counts.puts - 21).toBe(4);
  });

  it('a restarted worker continues the counts from the table: 2 failures in A, B’s first makes 3 → down (tolerated 2)', async () => {
    // Prepare
    const { makeWorker, round, storedVerdict } = await setup();
    const a = makeWorker();
    a.worker.setTargets([planned('t', { toleratedNumberOfFailures: 2 })]);
    await round(a.worker);
    a.script.down.add('t');
    await round(a.worker);
    await round(a.worker);
    expect((await storedVerdict('t'))?.verdict).toBe('up');
    // Act
    const b = makeWorker();
    b.worker.setTargets([planned('t', { toleratedNumberOfFailures: 2 })]);
    b.script.down.add('t');
    const report = await round(b.worker);
    // Assess
    expect(report.changes.map((c) => c.detail)).toEqual([
      expect.stringMatching(/^3 consecutive failures \(tolerated 2\)/),
    ]);
    expect((await storedVerdict('t'))?.verdict).toBe('down');
  });

  it('a failing DynamoDB write is retried next round and the verdict lands', async () => {
    // Prepare
    const { makeWorker, round, counts, storedVerdict } = await setup();
    const { worker, script } = makeWorker();
    worker.setTargets([planned('t', { toleratedNumberOfFailures: 0 })]);
    await round(worker);
    script.down.add('t');
    counts.failNext = 1;
    // Act
    const failed = await round(worker);
    const afterFailure = await storedVerdict('t');
    const retried = await round(worker);
    // Assess
    expect(failed.pendingWrites).toBe(1);
    expect(afterFailure?.verdict).toBe('up');
    expect(retried.pendingWrites).toBe(0);
    expect(await storedVerdict('t')).toMatchObject({ verdict: 'down', checkedAt: failed.dueAt });
  });

  it('an overlapping older invocation cannot move a verdict backwards', async () => {
    // Prepare: B (newer) writes down; A (older, slower) then tries to write up with an older check time
    const { dynamodb, tableName, storedVerdict } = await setup();
    const store = new DynamoDbProbeStateStore(dynamodb, tableName);
    const item = { targetKey: 't', region: REGION, detail: 'x' };
    await store.putVerdict({ ...item, verdict: 'down', since: 2_000, checkedAt: 2_000 });
    // Act
    const outcome = await store.putVerdict({ ...item, verdict: 'up', since: 1_000, checkedAt: 1_000 });
    // Assess
    expect(outcome).toBe('superseded');
    expect((await storedVerdict('t'))?.verdict).toBe('down');
  });
});
