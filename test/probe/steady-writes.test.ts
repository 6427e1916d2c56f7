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
  type ProbeStateStore,
} from '../../functions/probe/dynamodb-state-store.js';
import { MemoryProbeStateStore } from '../support/memory-probe-state-store.js';
import { createProbeWorker } from '../../functions/probe/worker.js';
import type { ProbeObservation } from '../../shared/probe/result.js';
import type { Prober } from '../../shared/probe/target.js';
import { fnv1a32 } from '../../shared/hash/fnv1a.js';
import { freshTable } from '../support/dynamodb.js';
import { meterCapacity } from '../bench/support/capacity-meter.js';
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

describe('write units scale with change, not with targets', () => {
  /** A full shard's worth of HTTPS judges, keyed the way the planner keys them (~55 characters). */
  const SHARD_TARGETS = 2_000;
  const keyOf = (i: number) => `HTTPS:ep-${i}.shop.example.net:443/health#0f1e2d3c|4b5a6978`;

  it('a steady full shard (2,000 healthy HTTPS judges) writes at most 0.1 write units per target-hour', async () => {
    // Prepare: the shard's own items on DynamoDB Local, metered; its verdicts in memory (written
    // on change only: none in the steady state, asserted below; 2,000 first decisions on a
    // loaded DynamoDB Local take a minute and are not what is measured)
    const { dynamodb, tableName } = await freshTable();
    const usage = meterCapacity(dynamodb);
    const table = new DynamoDbProbeStateStore(dynamodb, tableName);
    const verdicts = new MemoryProbeStateStore();
    const store: ProbeStateStore = {
      loadVerdicts: (region, keys) => verdicts.loadVerdicts(region, keys),
      putVerdict: (item) => verdicts.putVerdict(item),
      loadHeartbeats: (region) => table.loadHeartbeats(region),
      loadCertificates: (region) => table.loadCertificates(region),
      putHeartbeat: (item) => table.putHeartbeat(item),
      putJudgeList: (item) => table.putJudgeList(item),
      putCheckSummaries: (item) => table.putCheckSummaries(item),
      putCertificates: (item) => table.putCertificates(item),
    };
    const clock = fakeClock();
    const worker = createProbeWorker({
      region: REGION,
      store,
      // Latencies spread 5–300 ms, different on every check (what real answers compress like);
      // each endpoint presents its own certificate.
      prober: async (request, timeoutMs) => {
        const latencyMs = 5 + (fnv1a32(`${request.key}@${clock.now()}`) % 2_950) / 10;
        return {
          startedAt: clock.now(),
          timeoutMs,
          timings: {},
          answered: true,
          durationMs: latencyMs,
          latencyMs,
          statusCode: 200,
          certificate: {
            notAfter: Date.UTC(2027, 0, 1) + (fnv1a32(request.key) % 90) * 86_400_000,
            subject: request.host,
            issuer: 'R11',
          },
        };
      },
      clock,
      sleep: noSleep,
      logger: { warn: () => undefined },
    });
    worker.setTargets(
      Array.from({ length: SHARD_TARGETS }, (_, i) =>
        planned(keyOf(i), { protocol: 'HTTPS', port: 443, host: `ep-${i}.shop.example.net` }),
      ),
    );
    let dueAt = Math.ceil(clock.now() / ROUND) * ROUND;
    const round = async () => {
      clock.set(dueAt);
      const report = await worker.runRound(dueAt, ROUND);
      dueAt += ROUND;
      return report;
    };
    for (let i = 0; i < 6; i++) await round();
    const before = { ...usage };
    const verdictWrites = verdicts.writes;
    // Act: 10 minutes of 10 s rounds
    const minutes = 10;
    let pending = 0;
    for (let i = 0; i < minutes * 6; i++) pending += (await round()).pendingWrites;
    // Assess: counted in consumed capacity (1 KB per write unit), never in time
    expect(pending).toBe(0);
    expect(verdicts.writes).toBe(verdictWrites);
    const unitsPerTargetHour = (usage.writeUnits - before.writeUnits) / SHARD_TARGETS / (minutes / 60);
    expect(unitsPerTargetHour).toBeLessThanOrEqual(0.1);
  }, 120_000);
});
