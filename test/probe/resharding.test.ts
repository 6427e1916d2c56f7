/**
 * Integration: a sharded probe region on DynamoDB Local. Each shard is its own round
 * handler and worker (its own Lambda container), the shard count changes from round to
 * round as the tick's messages say, and every target's failure count continues exactly
 * across the moves: requests go to their new shard with the checkpoint of the shard that
 * counted them, so each target reaches Degraded on exactly its (tolerated+1)-th check and
 * no check is counted twice or lost.
 */
import type { SQSEvent } from 'aws-lambda';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDbProbeStateStore } from '../../functions/probe/dynamodb-state-store.js';
import { createRoundHandler, type RoundHandler } from '../../functions/probe/round-handler.js';
import { createProbeWorker } from '../../functions/probe/worker.js';
import { planProbes } from '../../shared/probe/plan.js';
import { shardOf } from '../../shared/probe/shards.js';
import { KeyPrefix, type HeartbeatItem, type VerdictItem } from '../../shared/state/items.js';
import { freshTable } from '../support/dynamodb.js';
import { external, fakeClock, monitor, noSleep, profile, scriptedProber } from './worker.fixtures.js';

const REGION = 'eu-central-1';
const PERIOD = 10_000;
const TOLERATED = 4;
const quiet = { warn: () => undefined, info: () => undefined };

const shop = profile('shop', {
  probeRegions: [REGION],
  monitorConfig: monitor({
    intervalInSeconds: 10,
    timeoutInSeconds: 5,
    toleratedNumberOfFailures: TOLERATED,
  }),
  endpoints: Array.from({ length: 60 }, (_, i) => external(`e${i}`, `host-${i}.example.net`)),
});

function roundEvent(dueAt: number, shards: number): SQSEvent {
  return {
    Records: [
      {
        messageId: `m-${dueAt}`,
        body: JSON.stringify({ dueAt, roundPeriodMs: PERIOD, shards }),
      } as SQSEvent['Records'][number],
    ],
  };
}

describe('a sharded probe region', () => {
  it('grows and shrinks its shards between rounds without losing or double-counting a check', async () => {
    // Prepare: up to 3 shard "containers", every request failing
    const { dynamodb, tableName } = await freshTable('tm-shards');
    // Time moves 1 ms whenever it is read, as it does while a round runs.
    const manual = fakeClock(1_800_000_000_000);
    const clock = { now: () => manual.advance(1), set: manual.set };
    const plan = planProbes([shop], REGION, [REGION]);
    expect(plan).toHaveLength(60);
    const script = scriptedProber(clock);
    for (const probe of plan) script.down.add(probe.key);
    const probedBy = [0, 0, 0];
    const shardsOf: RoundHandler[] = [0, 1, 2].map((shard) =>
      createRoundHandler({
        worker: createProbeWorker({
          region: REGION,
          shard,
          store: new DynamoDbProbeStateStore(dynamodb, tableName),
          prober: (request, timeoutMs) => {
            probedBy[shard]!++;
            return script.prober(request, timeoutMs);
          },
          clock,
          sleep: noSleep,
          logger: quiet,
        }),
        clock,
        loadConfig: async () => ({ profiles: [shop], defaultProbeRegions: [REGION] }),
        fallbackProbeRegions: [REGION],
        logger: quiet,
      }),
    );
    const verdicts = async () =>
      ((await dynamodb.send(new ScanCommand({ TableName: tableName }))).Items ?? [])
        .map((raw) => unmarshall(raw) as VerdictItem & { pk: string })
        .filter((item) => item.pk.startsWith(KeyPrefix.verdict));

    // Act: 5 rounds at 1, 2, 1, 3 and 2 shards (each a move of some requests)
    const counts = [1, 2, 1, 3, 2];
    const dueAt0 = Math.ceil(clock.now() / PERIOD) * PERIOD;
    for (const [round, shards] of counts.entries()) {
      const dueAt = dueAt0 + round * PERIOD;
      clock.set(dueAt + 50);
      const callsBefore = script.calls();
      probedBy.fill(0);
      await Promise.all(shardsOf.slice(0, shards).map((handler) => handler(roundEvent(dueAt, shards))));
      // Assess: every request was sent once in the round, by its own shard only
      expect(script.calls() - callsBefore).toBe(60);
      expect(probedBy).toEqual([0, 1, 2].map((s) => plan.filter((p) => shardOf(p.key, shards) === s).length));
      // Assess: nobody is Degraded before its (tolerated+1)-th failed check
      if (round < TOLERATED) expect(await verdicts()).toEqual([]);
    }

    // Assess: every target is down, decided by the 5th check (the last round), counted 5 in a row
    const decided = await verdicts();
    expect(decided).toHaveLength(60);
    expect(new Set(decided.map((v) => v.verdict))).toEqual(new Set(['down']));
    const lastDueAt = dueAt0 + 4 * PERIOD;
    expect(decided.every((v) => v.checkedAt > lastDueAt && v.checkedAt < lastDueAt + PERIOD)).toBe(true);
    expect(new Set(decided.map((v) => v.detail.split(':')[0]))).toEqual(
      new Set([`${TOLERATED + 1} consecutive failures (tolerated ${TOLERATED})`]),
    );
    // Each shard heartbeats under its own key and says which split its checkpoint belongs to
    const heartbeats = ((await dynamodb.send(new ScanCommand({ TableName: tableName }))).Items ?? [])
      .map((raw) => unmarshall(raw) as HeartbeatItem & { pk: string; sk: string })
      .filter((item) => item.pk === `${KeyPrefix.region}${REGION}` && item.sk.startsWith('HEARTBEAT'))
      .map((item) => [item.sk, item.shard ?? 0, item.shards ?? 1]);
    expect(heartbeats.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ['HEARTBEAT', 0, 2],
      ['HEARTBEAT#1', 1, 2],
      ['HEARTBEAT#2', 2, 3],
    ]);
  });
});
