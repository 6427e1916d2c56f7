/**
 * Steady state writes only heartbeats: once every judge has decided, a shard of up,
 * timing-out and failing (500) targets writes one heartbeat per period and no verdict, on
 * DynamoDB Local through the client factory's settings. A burst of decisions (a new
 * shard's first round) is written within its round, never more writes in flight than the
 * client has sockets for.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  DynamoDbProbeStateStore,
  STORE_WRITES_IN_FLIGHT,
} from '../../functions/probe/dynamodb-state-store.js';
import { createProbeWorker } from '../../functions/probe/worker.js';
import type { ProbeObservation } from '../../shared/probe/result.js';
import type { Prober } from '../../shared/probe/target.js';
import { freshTable } from '../support/dynamodb.js';
import { fakeClock, noSleep, planned } from './worker.fixtures.js';

const REGION = 'eu-west-1';
const ROUND = 10_000;
/** The SDK's NodeHttpHandler default: sockets per client. */
const CLIENT_SOCKETS = 50;

/** PutItem requests by item kind (the sort key's first part), and the most in flight at once. */
function meterPuts(client: DynamoDBClient) {
  const puts = { VERDICT: 0, HEARTBEAT: 0, inFlight: 0, maxInFlight: 0 };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'PutItemCommand') return next(args);
      const item = (args.input as { Item: { sk: { S: string } } }).Item;
      const kind = item.sk.S.split('#')[0] as 'VERDICT' | 'HEARTBEAT';
      puts[kind]++;
      puts.maxInFlight = Math.max(puts.maxInFlight, ++puts.inFlight);
      try {
        return await next(args);
      } finally {
        puts.inFlight--;
      }
    },
    { step: 'initialize', name: 'testPutMeter' },
  );
  return puts;
}

/** `t<i>`: i % 8 === 6 times out, i % 8 === 7 answers 500, the rest answer 200. */
function mixedProber(clock: { now(): number }): Prober {
  return async (request, timeoutMs): Promise<ProbeObservation> => {
    const index = Number(request.key.slice(1));
    const base = { startedAt: clock.now(), timeoutMs, timings: {} };
    if (index % 8 === 6)
      return {
        ...base,
        answered: false,
        reason: 'timeout',
        detail: 'no answer',
        durationMs: timeoutMs,
        latencyMs: undefined,
      };
    const statusCode = index % 8 === 7 ? 500 : 200;
    return { ...base, answered: true, durationMs: 3, latencyMs: 3, statusCode };
  };
}

async function setup(targets: number) {
  const { dynamodb, tableName } = await freshTable();
  const puts = meterPuts(dynamodb);
  const clock = fakeClock();
  const worker = createProbeWorker({
    region: REGION,
    store: new DynamoDbProbeStateStore(dynamodb, tableName),
    prober: mixedProber(clock),
    clock,
    sleep: noSleep,
    logger: { warn: () => undefined },
  });
  // Tolerated 2: the failing targets decide down on their 3rd check.
  worker.setTargets(
    Array.from({ length: targets }, (_, i) => planned(`t${i}`, { toleratedNumberOfFailures: 2 })),
  );
  let dueAt = Math.ceil(clock.now() / ROUND) * ROUND;
  const round = async () => {
    clock.set(dueAt);
    const report = await worker.runRound(dueAt, ROUND);
    dueAt += ROUND;
    return report;
  };
  return { puts, round };
}

describe('probe writes scale with change, not with targets', () => {
  it('a round of 120 first decisions writes them all in that round, at most the store’s bound in flight', async () => {
    // Prepare
    const { puts, round } = await setup(160);
    // Act
    const first = await round();
    // Assess
    expect(first.pendingWrites).toBe(0);
    expect(puts.VERDICT).toBe(120);
    expect(puts.maxInFlight).toBeLessThanOrEqual(STORE_WRITES_IN_FLIGHT);
    expect(STORE_WRITES_IN_FLIGHT).toBeLessThan(CLIENT_SOCKETS);
  });

  it('steady (up, timing out, answering 500): 36 rounds after the decisions write 6 heartbeats and no verdict', async () => {
    // Prepare: round 3 decides the failing targets down (and writes the emptied checkpoint)
    const { puts, round } = await setup(400);
    for (let i = 0; i < 3; i++) await round();
    const decided = { ...puts };
    expect(decided.VERDICT).toBe(400);
    // Act: 6 minutes of 10 s rounds
    let pending = 0;
    for (let i = 0; i < 36; i++) pending += (await round()).pendingWrites;
    // Assess
    expect(pending).toBe(0);
    expect(puts.VERDICT - decided.VERDICT).toBe(0);
    expect(puts.HEARTBEAT - decided.HEARTBEAT).toBe(6);
  });
});
