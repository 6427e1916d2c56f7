/**
 * Integration: a sharded probe region on DynamoDB Local. Each shard is its own round
 * handler and worker (its own Lambda container), the shard count changes from round to
 * round as the tick's messages say, and every target's failure count continues exactly
 * across the moves: requests go to their new shard with the checkpoint of the shard that
 * counted them, so each target reaches Degraded on exactly its (tolerated+1)-th check and
 * no check is counted twice or lost — whichever shard of a round runs first, and when a shard
 * that loses requests is a new container.
 */
import type { SQSEvent } from 'aws-lambda';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDbProbeStateStore } from '../../functions/probe/dynamodb-state-store.js';
import { createRoundHandler, type RoundHandler } from '../../functions/probe/round-handler.js';
import { createProbeWorker, type ProbeWorker } from '../../functions/probe/worker.js';
import { planProbes } from '../../shared/probe/plan.js';
import { shardOf } from '../../shared/probe/shards.js';
import type { PlannedProbe } from '../../shared/probe/target.js';
import { type HeartbeatItem, type VerdictItem } from '../../shared/state/items.js';
import { KeyPrefix } from '../../shared/state/keys.js';
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

/** Which shards of a round run first: the tick's messages reach them in no set order. */
const ORDERS = {
  // Each gaining shard restores after the shard that lost the requests wrote its next heartbeat
  // (a new shard's cold start, a late delivery).
  'one after another, lowest shard first': 'ascending',
  'one after another, highest shard first': 'descending',
  'all at once': 'together',
} as const;

async function runShards(
  handlers: readonly RoundHandler[],
  order: (typeof ORDERS)[keyof typeof ORDERS],
  event: SQSEvent,
): Promise<void> {
  if (order === 'together') {
    await Promise.all(handlers.map((handler) => handler(event)));
    return;
  }
  for (const handler of order === 'ascending' ? handlers : [...handlers].reverse()) await handler(event);
}

/**
 * A region of 60 targets on a fresh table: each `container(shard)` is a new round handler and
 * worker (a new Lambda container of that shard), all sharing one prober and clock.
 */
async function shardedRegion() {
  const { dynamodb, tableName } = await freshTable('tm-shards');
  // Time moves 1 ms whenever it is read, as it does while a round runs.
  const manual = fakeClock(1_800_000_000_000);
  const clock = { now: () => manual.advance(1), set: manual.set };
  const plan = planProbes([shop], REGION, [REGION]);
  expect(plan).toHaveLength(60);
  const script = scriptedProber(clock);
  const probedBy = [0, 0, 0];
  const container = (shard: number) => {
    const worker = createProbeWorker({
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
    });
    const handler = createRoundHandler({
      worker,
      clock,
      loadConfig: async () => ({ profiles: [shop], defaultProbeRegions: [REGION] }),
      fallbackProbeRegions: [REGION],
      logger: quiet,
    });
    return { worker, handler };
  };
  const scan = async () =>
    ((await dynamodb.send(new ScanCommand({ TableName: tableName }))).Items ?? []).map((raw) =>
      unmarshall(raw),
    );
  return {
    plan,
    script,
    probedBy,
    container,
    dueAt0: Math.ceil(clock.now() / PERIOD) * PERIOD,
    /** Starts a round: the clock 50 ms past its due time. */
    startRound: (dueAt: number) => clock.set(dueAt + 50),
    verdicts: async () =>
      (await scan()).filter((item) => String(item.pk).startsWith(KeyPrefix.verdict)) as (VerdictItem & {
        pk: string;
      })[],
    heartbeats: async () =>
      (await scan()).filter(
        (item) => item.pk === `${KeyPrefix.region}${REGION}` && String(item.sk).startsWith('HEARTBEAT'),
      ) as (HeartbeatItem & { sk: string })[],
  };
}

/** Each target's consecutive failures as counted by the worker of the shard holding it under `shards`. */
function failureCounts(plan: readonly PlannedProbe[], workers: readonly ProbeWorker[], shards: number) {
  return plan.map((probe) => {
    const state = workers[shardOf(probe.key, shards)]!.ruleState(probe.judges[0]!.key);
    return state?.kind === 'consecutiveFailures' ? state.failures : undefined;
  });
}

describe('a sharded probe region', () => {
  it.each(Object.entries(ORDERS))(
    'grows and shrinks its shards between rounds without losing or double-counting a check (%s)',
    async (_, order) => {
      // Prepare: 3 shard containers; every request fails, except that every 6th answers in the
      // 3rd round (a check counted twice would show in its count after that)
      const region = await shardedRegion();
      const { plan, script, probedBy, dueAt0 } = region;
      const recovering = new Set(plan.filter((_, i) => i % 6 === 0).map((probe) => probe.key));
      const shardsOf = [0, 1, 2].map(region.container);

      // Act: 5 rounds at 1, 2, 1, 3 and 2 shards (each a move of some requests)
      const counts = [1, 2, 1, 3, 2];
      for (const [round, shards] of counts.entries()) {
        const dueAt = dueAt0 + round * PERIOD;
        region.startRound(dueAt);
        script.down.clear();
        for (const probe of plan) if (round !== 2 || !recovering.has(probe.key)) script.down.add(probe.key);
        const callsBefore = script.calls();
        probedBy.fill(0);
        const handlers = shardsOf.slice(0, shards).map((s) => s.handler);
        await runShards(handlers, order, roundEvent(dueAt, shards));
        // Assess: every request was sent once in the round, by its own shard only
        expect(script.calls() - callsBefore).toBe(60);
        expect(probedBy).toEqual(
          [0, 1, 2].map((s) => plan.filter((p) => shardOf(p.key, shards) === s).length),
        );
        // Assess: every check counted once, by whichever shard holds the target now
        const workers = shardsOf.map((s) => s.worker);
        expect(failureCounts(plan, workers, shards)).toEqual(
          plan.map((probe) => (recovering.has(probe.key) ? (round < 2 ? round + 1 : round - 2) : round + 1)),
        );
        // Assess: nobody is Degraded before its (tolerated+1)-th failed check
        if (round < TOLERATED)
          expect((await region.verdicts()).filter((v) => v.verdict === 'down')).toEqual([]);
      }

      // Assess: every failing target is down, decided by its 5th check (the last round), counted
      // 5 in a row; the recovering ones are up since their answer in the 3rd round
      const decided = await region.verdicts();
      const lastDueAt = dueAt0 + 4 * PERIOD;
      const keysOf = (probes: readonly PlannedProbe[]) => probes.map((p) => p.judges[0]!.key).sort();
      const down = decided.filter((v) => v.verdict === 'down');
      expect(down.map((v) => v.targetKey).sort()).toEqual(keysOf(plan.filter((p) => !recovering.has(p.key))));
      expect(down.every((v) => v.checkedAt > lastDueAt && v.checkedAt < lastDueAt + PERIOD)).toBe(true);
      expect(new Set(down.map((v) => v.detail.split(':')[0]))).toEqual(
        new Set([`${TOLERATED + 1} consecutive failures (tolerated ${TOLERATED})`]),
      );
      const up = decided.filter((v) => v.verdict !== 'down');
      expect(up.map((v) => v.targetKey).sort()).toEqual(keysOf(plan.filter((p) => recovering.has(p.key))));
      const thirdDueAt = dueAt0 + 2 * PERIOD;
      expect(
        up.every((v) => v.verdict === 'up' && v.since > thirdDueAt && v.since < thirdDueAt + PERIOD),
      ).toBe(true);
      // Each shard heartbeats under its own key and says which split its checkpoint belongs to
      const heartbeats = (await region.heartbeats()).map((item) => [
        item.sk,
        item.shard ?? 0,
        item.shards ?? 1,
      ]);
      expect(heartbeats.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
        ['HEARTBEAT', 0, 2],
        ['HEARTBEAT#1', 1, 2],
        ['HEARTBEAT#2', 2, 3],
      ]);
    },
  );

  it('hands the counts over when the shard that loses requests is a new container', async () => {
    // Prepare: one round at 1 shard, every request failing
    const region = await shardedRegion();
    const { plan, script, dueAt0 } = region;
    for (const probe of plan) script.down.add(probe.key);
    region.startRound(dueAt0);
    await region.container(0).handler(roundEvent(dueAt0, 1));

    // Act: the next round at 2 shards; shard 0's container was replaced meanwhile, and it
    // writes its heartbeat before the new shard 1 restores
    const shards = [region.container(0), region.container(1)];
    region.startRound(dueAt0 + PERIOD);
    for (const { handler } of shards) await handler(roundEvent(dueAt0 + PERIOD, 2));

    // Assess: every target's second failed check is its second, in either shard
    expect(
      failureCounts(
        plan,
        shards.map((s) => s.worker),
        2,
      ),
    ).toEqual(plan.map(() => 2));
  });
});
