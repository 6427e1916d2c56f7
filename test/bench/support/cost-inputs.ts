/**
 * What bench:probe's cost model measures of the probe tick and the round handler (besides the
 * fleet, the probers and the writes): the real tick on DynamoDB Local, reading the config as
 * the deployed tick does (`cachedEffectiveConfig`), with and without targets; and the CPU of
 * what a full config read sets off — after a change, the hourly re-read and in a new
 * container — in the tick (read + plan) and in each shard (read + re-plan, as the round
 * handler's `refreshConfig` does).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { putConfigItem } from '../../../functions/config-writer/sync.js';
import { CONFIG_CACHE_MAX_AGE_MS, cachedEffectiveConfig } from '../../../functions/shared/config-cache.js';
import { dynamoDbCapacityStore } from '../../../functions/probe/capacity-store.js';
import { MemoryProbeStateStore } from '../../support/memory-probe-state-store.js';
import { createTickHandler, tickPlan } from '../../../functions/probe/tick.js';
import { createProbeWorker } from '../../../functions/probe/worker.js';
import { createTable } from '../../../infra/local/table.js';
import { planProbes } from '../../../shared/probe/plan.js';
import { MAX_PROBE_SHARDS } from '../../../shared/probe/shards.js';
import { DEFAULT_PROBE_MEMORY_MB } from '../../../shared/probe/shard-capacity.js';
import type { Profile } from '../../../shared/profile/types.js';
import { externalEndpoint, monitorConfig, profile } from '../../support/profiles.js';
import { FLEET_REGION, fleetProfiles } from './fleet.js';
import { mean, percentile, sleep } from './stats.js';

export interface TickTimings {
  /** A tick of a region without targets: its config check only; it sends nothing and never waits (median ms). */
  readonly idleMs: number;
  /** A tick of a region with targets, its plan kept: config check, messages, sends, without its wait (median ms). */
  readonly workMs: number;
  /** Its wait for the next whole second (mean ms over ticks started at moments spread over the second). */
  readonly waitMs: number;
}

const quiet = { warn: () => undefined, info: () => undefined };
const TICKS = 20;
const WARM_UP_TICKS = 5;

/** The real tick handler reading `tableName` as the deployed tick does; `waits` collects its waits. */
function tickOf(client: DynamoDBClient, tableName: string, waits: number[] = []): () => Promise<unknown> {
  const effectiveConfig = cachedEffectiveConfig(client, tableName);
  return createTickHandler({
    capacity: dynamoDbCapacityStore(client, tableName),
    region: FLEET_REGION,
    clock: { now: () => Date.now() },
    // No SQS locally: the sends' latency is not in the figure.
    queues: Array.from({ length: MAX_PROBE_SHARDS }, () => ({ sendRounds: async () => undefined })),
    loadConfig: () => effectiveConfig(Date.now()),
    fallbackProbeRegions: [FLEET_REGION],
    sleep: (ms) => {
      waits.push(ms);
      return sleep(ms);
    },
  });
}

async function putProfiles(
  client: DynamoDBClient,
  tableName: string,
  profiles: readonly Profile[],
): Promise<void> {
  for (let i = 0; i < profiles.length; i += 25)
    await Promise.all(
      profiles.slice(i, i + 25).map((p) =>
        putConfigItem(client, tableName, {
          name: p.name,
          definition: JSON.stringify(p),
          version: '1',
          defaultProbeRegions: [FLEET_REGION],
        }),
      ),
    );
}

/**
 * The tick without targets (an empty table: a deployment with no endpoints) and with one
 * profile, after warm-up ticks (the first reads and plans). The ticks with targets start at
 * moments spread evenly over a second, as the scheduler's invocations fall, so their waits
 * for the next whole second average what production's do.
 */
export async function measureTicks(client: DynamoDBClient): Promise<TickTimings> {
  await createTable(client, 'bench-tick-idle');
  await createTable(client, 'bench-tick');
  await putProfiles(client, 'bench-tick', [
    profile({
      name: 'shop',
      monitorConfig: monitorConfig({ port: 8080, path: '/health', intervalInSeconds: 10 }),
      endpoints: [externalEndpoint({ name: 'a', target: '127.0.0.1' })],
    }),
  ]);
  const idle = tickOf(client, 'bench-tick-idle');
  const waits: number[] = [];
  const tick = tickOf(client, 'bench-tick', waits);
  const idleDurations: number[] = [];
  const work: number[] = [];
  // Interleaved, so both see DynamoDB Local (and the machine) in the same state.
  for (let i = 0; i < TICKS + WARM_UP_TICKS; i++) {
    let t0 = performance.now();
    await idle();
    idleDurations.push(performance.now() - t0);
    const phase = ((i % TICKS) * 1_000) / TICKS;
    await sleep((phase - (Date.now() % 1_000) + 1_000) % 1_000);
    const waited = waits.length;
    t0 = performance.now();
    await tick();
    if (waits.length === waited) waits.push(0);
    work.push(performance.now() - t0 - waits[waited]!);
  }
  const timings = {
    idleMs: percentile(idleDurations.slice(WARM_UP_TICKS), 50),
    workMs: percentile(work.slice(WARM_UP_TICKS), 50),
    waitMs: mean(waits.slice(WARM_UP_TICKS)),
  };
  console.log(
    `tick (the real handler, DynamoDB Local, the deployed config and capacity readers; ${TICKS} ticks after ${WARM_UP_TICKS} warm-up): ` +
      `without targets ${timings.idleMs.toFixed(1)} ms median (config check; sends nothing, never waits); ` +
      `with targets (one profile, plan kept) ${timings.workMs.toFixed(1)} ms median + its wait for the whole second ` +
      `${timings.waitMs.toFixed(0)} ms mean (ticks started across the second) = ${(timings.workMs + timings.waitMs).toFixed(0)} ms billed`,
  );
  return timings;
}

export interface ReplanCpu {
  readonly endpoints: number;
  /** CPU (ms) of a tick's full config read and plan (`tickPlan`: requests, shard count). */
  readonly tickMs: number;
  /** CPU (ms) of a shard's full config read and re-plan (`planProbes` + `setTargets`, as the round handler does). */
  readonly shardMs: number;
  /** CPU (ms) of a reader's hourly re-read that finds the config unchanged (read and compared; no re-plan). */
  readonly rereadMs: number;
}

/** CPU (ms) `run` takes in this process, median of 3. */
async function cpuMsOf(run: () => unknown): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) {
    const cpu = process.cpuUsage();
    await run();
    const used = process.cpuUsage(cpu);
    samples.push((used.user + used.system) / 1000);
  }
  return percentile(samples, 50);
}

/** The fleet size whose full config read is measured on DynamoDB Local (CPU per endpoint: the read is linear in its bytes). */
const READ_SAMPLE_ENDPOINTS = 10_000;

/**
 * The CPU a full config read sets off, for the bench's HTTP fleet of each size (10 s, one
 * region): the read itself (a new reader's first read, `cachedEffectiveConfig`, of
 * `READ_SAMPLE_ENDPOINTS` on DynamoDB Local, per endpoint), then in the tick its plan
 * (`tickPlan`) and in shard 0 of `shardsOf(endpoints)` its re-plan on a real worker.
 */
export async function measureReplanCpu(
  client: DynamoDBClient,
  sizes: readonly number[],
  shardsOf: (endpoints: number) => number,
): Promise<ReplanCpu[]> {
  const tableName = 'bench-replan';
  await createTable(client, tableName);
  await putProfiles(
    client,
    tableName,
    fleetProfiles({ targets: READ_SAMPLE_ENDPOINTS, intervalInSeconds: 10, ports: [8080] }),
  );
  const readMsPerEndpoint =
    (await cpuMsOf(() => cachedEffectiveConfig(client, tableName)(Date.now()))) / READ_SAMPLE_ENDPOINTS;
  // A warm reader past the cache's maximum age: the whole config read again and compared with the one it holds.
  const reader = cachedEffectiveConfig(client, tableName);
  let readAt = Date.now();
  await reader(readAt);
  const rereadMsPerEndpoint =
    (await cpuMsOf(() => reader((readAt += CONFIG_CACHE_MAX_AGE_MS)))) / READ_SAMPLE_ENDPOINTS;
  const figures: ReplanCpu[] = [];
  for (const endpoints of sizes) {
    const profiles = fleetProfiles({ targets: endpoints, intervalInSeconds: 10, ports: [8080] });
    const region = [FLEET_REGION];
    const tickPlanMs = await cpuMsOf(() =>
      tickPlan(profiles, FLEET_REGION, region, MAX_PROBE_SHARDS, DEFAULT_PROBE_MEMORY_MB),
    );
    const worker = createProbeWorker({
      region: FLEET_REGION,
      store: new MemoryProbeStateStore(),
      prober: () => Promise.reject(new RangeError('not probed')),
      clock: { now: () => Date.now() },
      logger: quiet,
    });
    const shardPlanMs = await cpuMsOf(() =>
      worker.setTargets(planProbes(profiles, FLEET_REGION, region), shardsOf(endpoints)),
    );
    const readMs = readMsPerEndpoint * endpoints;
    figures.push({
      endpoints,
      tickMs: readMs + tickPlanMs,
      shardMs: readMs + shardPlanMs,
      rereadMs: rereadMsPerEndpoint * endpoints,
    });
  }
  console.log(
    `full config read + plan, CPU (median of 3; the read measured at ${READ_SAMPLE_ENDPOINTS.toLocaleString('en-US')} endpoints ` +
      `on DynamoDB Local: ${(readMsPerEndpoint * 1000).toFixed(1)} µs per endpoint, an unchanged hourly re-read (read + compare, ` +
      `no re-plan) ${(rereadMsPerEndpoint * 1000).toFixed(1)} µs; the bench's HTTP fleet): ` +
      figures
        .map(
          (f) =>
            `${f.endpoints.toLocaleString('en-US')} endpoints: tick ${f.tickMs.toFixed(0)} ms, shard ${f.shardMs.toFixed(0)} ms`,
        )
        .join('; '),
  );
  return figures;
}
