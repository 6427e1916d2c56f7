/**
 * `npm run bench:probe` — the probe fleet's figures (not a test; prints figures, asserts none):
 *  1. the local round timer's lateness, idle and during one local-mode round of 10,000 targets;
 *  2. the cloud path simulated (test/bench/support/fleet-sim.ts): the real tick and round
 *     handler, emulated SQS delays, shards as processes, loopback targets (10 % black-holed)
 *     at 10,000 and 30,000 targets every 10 s and 100,000 every 30 s;
 *  3. every core against one, and CPU per probe against a minimal undici loop and
 *     blackbox_exporter (test/bench/probers.bench.ts);
 *  4. DynamoDB writes per target-region-hour (fake prober and clock, real writes to
 *     DynamoDB Local): 10 and 1,000 targets steady and flapping; 100,000 targets steady, sharded;
 *  5. the monthly cost per endpoint at 10 s from 3 regions, from the measured CPU and durations.
 * `BENCH_SHORT=1` (or `--short`) runs a shorter version (~5–8 min; the default is longer);
 * `BENCH_ONLY=round|fleet|cores|writes` runs one part (the cost needs all of them);
 * `BENCH_REAL_SHARDS=N` runs N shards of each fleet as processes (default 2).
 * Backends run in child processes, on loopback only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import type { SQSEvent } from 'aws-lambda';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local.js';
import { createTable } from '../../infra/local/table.js';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbProbeStateStore } from '../../functions/probe/dynamodb-state-store.js';
import { MemoryProbeStateStore } from '../../functions/probe/memory-state-store.js';
import { startRoundScheduler } from '../../infra/local/round-scheduler.js';
import { probe } from '../../functions/probe/probers/registry.js';
import { createTickHandler, tickMessages } from '../../functions/probe/tick.js';
import { createRoundHandler } from '../../functions/probe/round-handler.js';
import { LAMBDA_MB_PER_VCPU } from '../../functions/probe/probe-pool.js';
import { DEFAULT_PROBE_MEMORY_MB, shardCountForPlan } from '../../shared/probe/shard-capacity.js';
import type { ProbeProtocol } from '../../shared/profile/types.js';
import { readDeployedConfig } from '../../functions/shared/config-reader.js';
import { CONFIG_CACHE_MAX_AGE_MS } from '../../functions/shared/config-cache.js';
import { planProbes, spreadOffsetMs } from '../../shared/probe/plan.js';
import { MAX_PROBE_SHARDS, SHARD_CAPACITY, shardCountFor } from '../../shared/probe/shards.js';
import { BLACK_HOLED_ADDRESSES, FLEET_REGION, fleetProfiles } from './support/fleet.js';
import { simulateFleet, startFleetServers, type FleetFigures, type FleetRun } from './support/fleet-sim.js';
import { createProbeWorker, DEFAULT_CONCURRENCY } from '../../functions/probe/worker.js';
import { COMPACT_SPREAD, roundDueAtOf, type SpreadPolicy } from '../../shared/probe/round-schedule.js';
import type { ProbeObservation } from '../../shared/probe/result.js';
import type { PlannedProbe, ProbeRequest } from '../../shared/probe/target.js';
import { Keys } from '../../shared/state/items.js';
import { marshall } from '@aws-sdk/util-dynamodb';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { meterCapacity } from './support/capacity-meter.js';
import { externalEndpoint, monitorConfig, profile } from '../support/profiles.js';
import { dynamoDbClient } from '../../functions/shared/aws-clients.js';

const here = dirname(fileURLToPath(import.meta.url));
const quiet = { warn: () => undefined, info: () => undefined };

const SHORT = process.env.BENCH_SHORT === '1' || process.argv.includes('--short');
const ONLY = process.env.BENCH_ONLY;
const REAL_SHARDS = Number(process.env.BENCH_REAL_SHARDS ?? 2);
const FLEET_RUNS: readonly FleetRun[] = [
  { spec: { targets: 10_000, intervalInSeconds: 10 }, realShards: REAL_SHARDS, intervals: SHORT ? 1 : 2 },
  { spec: { targets: 30_000, intervalInSeconds: 10 }, realShards: REAL_SHARDS, intervals: SHORT ? 1 : 2 },
  { spec: { targets: 100_000, intervalInSeconds: 30 }, realShards: REAL_SHARDS, intervals: 1 },
];

async function main(): Promise<void> {
  const runs = (part: string): boolean => ONLY === undefined || ONLY === part;
  console.log(
    `bench:probe${SHORT ? ' (short)' : ''} on ${availableParallelism()} cores, node ${process.version}; ` +
      'figures from a shared machine are distorted by its other load.',
  );
  if (runs('round')) {
    await idleJitter();
    if (!SHORT) {
      const servers = await startServers();
      try {
        await roundOf10k(servers.ports, 'interval', { kind: 'interval' }, DEFAULT_CONCURRENCY);
      } finally {
        servers.child.kill('SIGTERM');
      }
    }
  }
  const fleet: FleetFigures[] = [];
  if (runs('fleet')) {
    const servers = await startFleetServers(4);
    try {
      for (const run of FLEET_RUNS) fleet.push(await simulateFleet(run, servers.ports));
    } finally {
      servers.stop();
    }
  }
  const cores = runs('cores') ? await runProbersBench() : undefined;
  if (!runs('writes')) return;
  const ddb = await startDynamoDbLocal();
  try {
    const client = (): DynamoDBClient =>
      dynamoDbClient({
        endpoint: ddb.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
    if (!SHORT) await writeCosts(client());
    const sharded = await shardedWriteCost(client(), 100_000, SHORT ? 10 : 60);
    const timings = await handlerTimings(client());
    const fleetHttp = fleet.find((f) => f.run.spec.targets === 10_000);
    if (fleetHttp === undefined || cores === undefined)
      console.log('cost: needs the fleet and cores figures (run without BENCH_ONLY)');
    else printCost({ sharded, tickMs: timings.tickMs, fleet: fleetHttp, cores });
  } finally {
    await ddb.stop();
  }
}

async function startServers(): Promise<{ child: ChildProcess; ports: { http: number; blackHole: number } }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--servers'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ports = await new Promise<{ http: number; blackHole: number }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`backend process exited (${code})`)));
    child.stdout?.once('data', (chunk: Buffer) =>
      resolve(JSON.parse(chunk.toString()) as { http: number; blackHole: number }),
    );
  });
  return { child, ports };
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function describeLateness(samples: readonly number[]): string {
  return `n=${samples.length} p50=${percentile(samples, 50)} ms p99=${percentile(samples, 99)} ms max=${Math.max(...samples)} ms`;
}

async function idleJitter(): Promise<void> {
  const scheduler = startRoundScheduler({ roundPeriodMs: () => 100, runRound: async () => undefined });
  await new Promise((resolve) => setTimeout(resolve, 5_100));
  await scheduler.stop();
  console.log(
    `local round timer, idle process, 100 ms period for 5 s: lateness ${describeLateness(scheduler.lateness())}`,
  );
}

/** One probe judged by one 10 s profile judge (tolerated 3, 9 s timeout). */
function benchProbe(key: string, request: Omit<ProbeRequest, 'key'>, offsetMs: number): PlannedProbe {
  return {
    key,
    ...request,
    intervalMs: 10_000,
    offsetMs,
    judges: [
      {
        key,
        timeoutMs: 9_000,
        expectedStatusCodeRanges: [{ min: 200, max: 200 }],
        healthRule: { kind: 'consecutiveFailures' },
        toleratedNumberOfFailures: 3,
        intervalMs: 10_000,
        servedEndpoints: [{ profile: 'bench', endpoint: key }],
      },
    ],
  };
}

function targets10k(ports: { http: number; blackHole: number }): PlannedProbe[] {
  return Array.from({ length: 10_000 }, (_, i): PlannedProbe => {
    const dead = i % 10 === 0;
    const key = `HTTP:127.0.0.1:${dead ? ports.blackHole : ports.http}/t/${i}#bench`;
    const request = {
      protocol: 'HTTP' as const,
      host: '127.0.0.1',
      port: dead ? ports.blackHole : ports.http,
      path: `/t/${i}`,
      method: 'GET' as const,
      headers: [],
    };
    return benchProbe(key, request, spreadOffsetMs(key, 10_000));
  });
}

async function roundOf10k(
  ports: { http: number; blackHole: number },
  name: string,
  spread: SpreadPolicy,
  concurrency: number,
): Promise<void> {
  const starts: number[] = [];
  const outcomes = { ok: 0, timeout: 0, other: 0 };
  const okDurations: number[] = [];
  const prober = async (request: ProbeRequest, timeoutMs: number): Promise<ProbeObservation> => {
    const started = Date.now();
    starts.push(started);
    const result = await probe(request, timeoutMs);
    if (result.answered) {
      outcomes.ok++;
      okDurations.push(Date.now() - started);
    } else if (result.reason === 'timeout') outcomes.timeout++;
    else outcomes.other++;
    return result;
  };
  const worker = createProbeWorker({
    region: 'bench',
    store: new MemoryProbeStateStore(),
    prober,
    clock: { now: () => Date.now() },
    spread,
    concurrency,
    logger: quiet,
  });
  worker.setTargets(targets10k(ports));
  const dueAt = roundDueAtOf(Date.now(), 10_000) + 10_000;
  await new Promise((resolve) => setTimeout(resolve, dueAt - Date.now()));
  // The local timer keeps a 1 s grid while the round runs: its lateness under load.
  const timer = startRoundScheduler({ roundPeriodMs: () => 1_000, runRound: async () => undefined });
  const cpuBefore = process.cpuUsage();
  const report = await worker.runRound(dueAt, 10_000);
  const cpu = process.cpuUsage(cpuBefore);
  await timer.stop();
  const duration = report.finishedAt - dueAt;
  const lastStart = Math.max(...starts) - dueAt;
  console.log(
    `round of 10,000 HTTP targets (10% black-holed, 9 s timeout, ${name} spread, concurrency ${concurrency}): ` +
      `${report.probed} probed (${outcomes.ok} ok, ${outcomes.timeout} timeout, ${outcomes.other} other); ` +
      `last probe started at +${lastStart} ms (${lastStart <= 10_100 ? 'every probe started inside the 10 s interval' : 'probes started AFTER the interval: backlog'}); ` +
      `last result at +${duration} ms (${duration <= 10_000 ? 'inside the interval' : 'the tail overlaps the next round'}); ` +
      `CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms; peak RSS so far ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
  );
  console.log(`  successful probe durations: ${describeLateness(okDurations)}`);
  console.log(
    `  local round timer (1 s grid) during that round: lateness ${describeLateness(timer.lateness())}`,
  );
}

interface WriteFigure {
  readonly targets: number;
  readonly scenario: string;
  readonly writeRequests: number;
  readonly writeUnits: number;
  readonly perTargetHour: number;
}

/** One simulated hour of 10 s rounds per scenario, counting real writes on DynamoDB Local (metered client). */
async function writeCosts(client: DynamoDBClient): Promise<WriteFigure[]> {
  const figures: WriteFigure[] = [];
  const usage = meterCapacity(client);
  for (const targets of [10, 1_000]) {
    for (const scenario of ['steady', '10% flapping'] as const) {
      const tableName = `bench-${targets}-${scenario === 'steady' ? 's' : 'f'}`;
      await createTable(client, tableName);
      const store = new DynamoDbProbeStateStore(client, tableName);
      let now = Date.UTC(2025, 0, 1);
      const flapping = scenario === 'steady' ? 0 : Math.max(1, targets / 10);
      // A flapping target is down 2 min out of every 5 (phases staggered), tolerated 3.
      const prober = async (request: ProbeRequest, timeoutMs: number): Promise<ProbeObservation> => {
        const index = Number(request.key.split('#')[1]);
        const isDown = index < flapping && (now / 10_000 + index * 7) % 30 < 12;
        const base = { startedAt: now, timeoutMs, timings: {} };
        return isDown
          ? {
              ...base,
              answered: false,
              reason: 'timeout',
              detail: 'x',
              durationMs: timeoutMs,
              latencyMs: undefined,
            }
          : { ...base, answered: true, durationMs: 12.5, latencyMs: 12.5, statusCode: 200 };
      };
      const worker = createProbeWorker({
        region: 'us-east-1',
        store,
        prober,
        clock: { now: () => now },
        sleep: async () => undefined,
        logger: quiet,
      });
      worker.setTargets(
        Array.from({ length: targets }, (_, i) =>
          benchProbe(
            `HTTPS:host-${i}.example.net:443/health#${i}`,
            {
              protocol: 'HTTPS',
              host: `host-${i}.example.net`,
              port: 443,
              path: '/health',
              method: 'GET',
              headers: [],
            },
            0,
          ),
        ),
      );
      await worker.runRound(now, 10_000); // first decisions: not steady state
      now += 10_000;
      const before = { ...usage };
      for (let round = 0; round < 360; round++, now += 10_000) await worker.runRound(now, 10_000);
      const writeRequests = usage.writeRequests - before.writeRequests;
      const writeUnits = usage.writeUnits - before.writeUnits;
      figures.push({ targets, scenario, writeRequests, writeUnits, perTargetHour: writeRequests / targets });
      console.log(
        `DynamoDB writes, ${targets} targets, ${scenario}, one hour of 10 s rounds: ${writeRequests} requests, ` +
          `${writeUnits} write units → ${(writeRequests / targets).toFixed(3)} writes (${(writeUnits / targets).toFixed(3)} WCU) per target-region-hour`,
      );
    }
  }
  return figures;
}

/** 100,000 targets' steady writes, sharded: one shard through the real round handler on DynamoDB Local. */
interface ShardedWrites {
  readonly targets: number;
  readonly shards: number;
  readonly perTargetHour: number;
  readonly unitsPerTargetHour: number;
}

/**
 * `minutes` of 10 s rounds of shard 0 of a `targets` fleet (fake prober and clock; the fleet's
 * black-holed 10 % time out),
 * through `createRoundHandler` with real writes to DynamoDB Local. Every shard holds the same
 * share of the requests and writes the same way (one heartbeat a minute, verdicts on change),
 * so the region's writes are this shard's × the shard count.
 */
async function shardedWriteCost(
  client: DynamoDBClient,
  targets: number,
  minutes: number,
): Promise<ShardedWrites> {
  const tableName = 'bench-sharded-writes';
  await createTable(client, tableName);
  const usage = meterCapacity(client);
  const profiles = fleetProfiles({ targets, intervalInSeconds: 10, ports: [8080] });
  const plan = planProbes(profiles, FLEET_REGION, [FLEET_REGION]);
  const shards = shardCountFor(plan.length, MAX_PROBE_SHARDS);
  let now = Date.UTC(2025, 0, 1);
  const clock = { now: () => now };
  const worker = createProbeWorker({
    region: FLEET_REGION,
    shard: 0,
    store: new DynamoDbProbeStateStore(client, tableName),
    prober: async (request, timeoutMs) =>
      BLACK_HOLED_ADDRESSES.includes(request.host)
        ? {
            startedAt: now,
            timeoutMs,
            timings: {},
            answered: false,
            reason: 'timeout',
            detail: 'no answer',
            durationMs: timeoutMs,
            latencyMs: undefined,
          }
        : {
            startedAt: now,
            timeoutMs,
            timings: {},
            answered: true,
            durationMs: 12.5,
            latencyMs: 12.5,
            statusCode: 200,
          },
    clock,
    sleep: async () => undefined,
    spread: COMPACT_SPREAD,
    logger: quiet,
  });
  const handler = createRoundHandler({
    worker,
    clock,
    loadConfig: async () => ({ profiles, defaultProbeRegions: [FLEET_REGION] }),
    fallbackProbeRegions: [],
    logger: quiet,
  });
  const round = (dueAt: number) =>
    handler({
      Records: [{ messageId: `m-${dueAt}`, body: JSON.stringify({ dueAt, roundPeriodMs: 10_000, shards }) }],
    } as unknown as SQSEvent);
  // Warm-up, not steady state: a minute of rounds (the black-holed targets decide down on their
  // 4th check), then until no write waits for a retry.
  let warmUp = 0;
  for (; warmUp < 6 || (worker.pendingWrites() > 0 && warmUp < 60); warmUp++, now += 10_000) await round(now);
  const before = { ...usage };
  for (let i = 0; i < minutes * 6; i++, now += 10_000) await round(now);
  const hours = minutes / 60;
  const writes = (usage.writeRequests - before.writeRequests) * shards;
  const units = (usage.writeUnits - before.writeUnits) * shards;
  const figure = {
    targets: plan.length,
    shards,
    perTargetHour: writes / plan.length / hours,
    unitsPerTargetHour: units / plan.length / hours,
  };
  console.log(
    `\nDynamoDB writes, ${plan.length.toLocaleString('en-US')} targets steady (10 % black-holed, timing out) in ${shards} shards, ` +
      `${minutes} min of 10 s rounds after ${warmUp} warm-up rounds (the decisions): ` +
      `shard 0 (${worker.targets().length} targets) wrote ${usage.writeRequests - before.writeRequests} requests through the round handler; ` +
      `× ${shards} shards → ${figure.perTargetHour.toFixed(4)} writes (${figure.unitsPerTargetHour.toFixed(4)} WCU) per target-region-hour ` +
      `(target ≤ 0.1 each: requests ${figure.perTargetHour <= 0.1 ? 'met' : 'NOT met'}, write units ${figure.unitsPerTargetHour <= 0.1 ? 'met' : 'NOT met'}); scaled: one shard written for real, the others by symmetry`,
  );
  return figure;
}

/** The tick's duration against DynamoDB Local (one profile: config read + plan + send), median of 25. */
async function handlerTimings(client: DynamoDBClient): Promise<{ tickMs: number }> {
  const tableName = 'bench-handlers';
  await createTable(client, tableName);
  const definition = profile({
    name: 'shop',
    monitorConfig: monitorConfig({ port: 8080, path: '/health', intervalInSeconds: 10 }),
    endpoints: [externalEndpoint({ name: 'a', target: '127.0.0.1' })],
  });
  await client.send(
    new PutItemCommand({
      TableName: tableName,
      Item: marshall(
        {
          ...Keys.config('shop'),
          name: 'shop',
          definition: JSON.stringify(definition),
          version: '1',
          defaultProbeRegions: ['us-east-1'],
        },
        { removeUndefinedValues: true },
      ),
    }),
  );
  const tick = createTickHandler({
    region: 'us-east-1',
    clock: { now: () => Date.now() },
    queues: [{ sendRounds: async () => undefined }],
    loadConfig: () => readDeployedConfig(client, tableName),
    fallbackProbeRegions: [],
  });
  const durations: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now();
    await tick();
    durations.push(performance.now() - t0);
  }
  const tickMs = percentile(durations.slice(5), 50);
  console.log(`tick (config read + plan, DynamoDB Local, one profile) median ${tickMs.toFixed(1)} ms`);
  return { tickMs };
}

/** CPU (ms) of one tick's planning (`tickMessages`) for a fleet of `targets`, median of 3. */
function tickPlanCpuMs(targets: number): number {
  const profiles = fleetProfiles({ targets, intervalInSeconds: 10, ports: [8080] });
  const samples = Array.from({ length: 3 }, () => {
    const cpu = process.cpuUsage();
    tickMessages(profiles, FLEET_REGION, [FLEET_REGION], Date.now(), MAX_PROBE_SHARDS);
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / 1000;
  });
  return percentile(samples, 50);
}

/** Published us-east-1 prices (2025), without free tiers. */
const PRICE = {
  lambdaGbSecond: 0.0000133334, // arm64
  lambdaRequest: 0.2 / 1e6,
  sqsRequest: 0.4 / 1e6, // standard; a batch of ≤10 messages is one request
  dynamoWriteUnit: 0.625 / 1e6, // on-demand WRU (≤1 KB)
  dynamoReadUnit: 0.125 / 1e6, // on-demand RRU (≤4 KB strongly consistent)
  schedulerInvocation: 1.0 / 1e6,
  interRegionGb: 0.02,
  route53NonAwsCheck: 0.75, // a basic health check of a non-AWS endpoint, a month
  route53NonAwsFeature: 2.0, // each optional feature of it: HTTPS, fast interval (10 s), …
};
/** A Route 53 health check doing the same work: non-AWS endpoint, fast interval, HTTPS a feature too ($4.75). */
function route53FastCheck(protocol: ProbeProtocol): number {
  return PRICE.route53NonAwsCheck + PRICE.route53NonAwsFeature * (protocol === 'HTTPS' ? 2 : 1);
}
const MINUTES_PER_MONTH = 43_800;
const HOURS_PER_MONTH = 730;
const REGIONS = 3;
const TICK_MEMORY_MB = 128;
/** Assumption (not documented exactly by AWS): an idle SQS event source keeps ~5 pollers long-polling 20 s. */
const IDLE_POLL_REQUESTS_PER_MINUTE = 15;
/** Assumption: the config (or a runtime control) changes this often a month. */
const CONFIG_CHANGES_PER_MONTH = 30;
/** Full config reads per reader a month: one per change, and at least one an hour (config-cache.ts). */
const FULL_CONFIG_READS_PER_MONTH =
  CONFIG_CHANGES_PER_MONTH + HOURS_PER_MONTH * (3_600_000 / CONFIG_CACHE_MAX_AGE_MS);
/** Assumption: the slowest remote HTTPS endpoint of a round answers in ~150 ms (loopback is faster). */
const REMOTE_PROBE_MS = 150;

interface CostInputs {
  readonly sharded: ShardedWrites;
  readonly tickMs: number;
  /** The 10,000-target fleet run: CPU per probe of a shard's round, worker included (HTTP). */
  readonly fleet: FleetFigures;
  readonly cores: CoreFigures;
}

/** Lambda bills by the millisecond; CPU-bound work runs at the memory's share of a vCPU. */
function lambdaWallMs(cpuMs: number, memoryMb: number): number {
  return cpuMs / Math.min(1, memoryMb / LAMBDA_MB_PER_VCPU);
}

function printCost(inputs: CostInputs): void {
  const { cores } = inputs;
  const money = (x: number) => `$${x < 1 ? x.toFixed(4) : x.toFixed(2)}`;
  const n = (x: number) => x.toLocaleString('en-US');
  const rounds = MINUTES_PER_MONTH * 6;
  // Priced as production deploys a shard: its default memory size, and as many shards as the
  // probe tick would choose (by request count and by CPU at that memory size).
  const memoryMb = DEFAULT_PROBE_MEMORY_MB;
  const memoryGb = memoryMb / 1024;
  // CPU per probe in a shard: the fleet's measured per-probe CPU (HTTP, worker included, its
  // warm-up round discarded) plus what the protocol's prober costs beyond HTTP's (the probers
  // bench, its warm-up probes discarded).
  const httpCpu = inputs.fleet.roundCpuMs / Math.max(1, inputs.fleet.probesPerRound);
  const engineCpu = (protocol: ProbeProtocol) => cores[protocol]?.engine?.cpuMsPerProbe ?? NaN;
  const cpuPerProbe = (protocol: ProbeProtocol): number =>
    Math.max(engineCpu(protocol), httpCpu + engineCpu(protocol) - engineCpu('HTTP'));
  const httpsCpu = cpuPerProbe('HTTPS');
  console.log(
    `\ncost model inputs (measured, warmed up: the fleet's first round and the probers' ${PROBERS_WARM_UP} first probes per run discarded): ` +
      `shard CPU per HTTP probe ${httpCpu.toFixed(3)} ms (fleet run, worker included); per probe HTTPS ${httpsCpu.toFixed(3)} ms, ` +
      `HTTP ${cpuPerProbe('HTTP').toFixed(3)} ms, TCP ${cpuPerProbe('TCP').toFixed(3)} ms (HTTP + the prober's difference from HTTP); tick ${inputs.tickMs.toFixed(1)} ms (one profile); ` +
      `writes ${inputs.sharded.unitsPerTargetHour.toFixed(4)} WCU per target-region-hour steady; assumed: ${REMOTE_PROBE_MS} ms slowest remote probe per round, ` +
      `${IDLE_POLL_REQUESTS_PER_MINUTE} idle SQS receives a minute per queue, ${CONFIG_CHANGES_PER_MONTH} config changes a month ` +
      `(each reader checks 2 revision counters a minute and reads the whole config ${FULL_CONFIG_READS_PER_MONTH} times a month: per change and hourly)`,
  );
  const configBytesPerEndpoint =
    JSON.stringify(fleetProfiles({ targets: 1_000, intervalInSeconds: 10, ports: [443] })).length / 1_000;

  // Memory per shard: a full shard's probe starts are CPU-bound at the memory's vCPU share.
  const fullShard = SHARD_CAPACITY;
  console.log(`memory per shard (a full shard: ${n(fullShard)} HTTPS requests every 10 s):`);
  for (const sizeMb of [128, 512, 1_024, LAMBDA_MB_PER_VCPU]) {
    const startMs = lambdaWallMs(fullShard * httpsCpu, sizeMb);
    const windowMs = Math.min(500, fullShard * 2);
    const wallMs = Math.max(windowMs, startMs) + REMOTE_PROBE_MS;
    const perMonth = rounds * (wallMs / 1000) * (sizeMb / 1024) * PRICE.lambdaGbSecond;
    console.log(
      `  ${String(sizeMb).padStart(5)} MB (${(Math.min(1, sizeMb / LAMBDA_MB_PER_VCPU) * 100).toFixed(0)} % of a vCPU): ` +
        `starts a full round's probes in ${(startMs / 1000).toFixed(2)} s (lateness target ≤ 1 s: ${startMs <= 1_000 ? 'met' : 'NOT met'}), ` +
        `duration ${money(perMonth)} per shard-month`,
    );
  }

  // Fixed part: no endpoints, one (idle) shard queue per region.
  const tickCost = (ms: number) =>
    MINUTES_PER_MONTH *
    (PRICE.lambdaRequest + (Math.ceil(ms) / 1000) * (TICK_MEMORY_MB / 1024) * PRICE.lambdaGbSecond);
  const scheduler = MINUTES_PER_MONTH * PRICE.schedulerInvocation;
  const idleQueue = MINUTES_PER_MONTH * IDLE_POLL_REQUESTS_PER_MINUTE * PRICE.sqsRequest;
  const fixed = REGIONS * (scheduler + tickCost(inputs.tickMs) + idleQueue);
  console.log(
    `cost, fixed (no endpoints, maxProbeShards 1), 3 regions/month: ${money(fixed)} (target ≤ $1: ${fixed <= 1 ? 'met' : 'NOT met'}); ` +
      `each further deployed shard adds its idle queue polling, ${money(idleQueue)} per region`,
  );
  console.log(
    `cost per endpoint-month, every 10 s from 3 regions, ${n(memoryMb)} MB shards (the default probeMemorySize), ` +
      `as many as the probe tick chooses at the fleet's measured CPU scale (${inputs.fleet.cpuScale?.toFixed(2) ?? 'none: the constants'}; ` +
      `the deployment sized to the fleet: maxProbeShards = shards used):`,
  );
  const rows: string[][] = [];
  const tickCpuOf = new Map<number, number>();
  for (const protocol of ['HTTPS', 'HTTP', 'TCP'] as const)
    for (const endpoints of [10, 1_000, 10_000, 100_000]) {
      const due = Array.from({ length: endpoints }, () => ({ protocol, intervalMs: 10_000 }));
      // As the tick sizes them once the shards measured: the fleet run's measured CPU scale.
      const shards = shardCountForPlan(due, 10_000, MAX_PROBE_SHARDS, memoryMb, inputs.fleet.cpuScale);
      const perShard = endpoints / shards;
      const tickCpu = tickCpuOf.get(endpoints) ?? tickPlanCpuMs(endpoints);
      tickCpuOf.set(endpoints, tickCpu);
      const tick = tickCost(inputs.tickMs + lambdaWallMs(tickCpu, TICK_MEMORY_MB));
      const queues = shards * (idleQueue + (MINUTES_PER_MONTH + 2 * rounds) * PRICE.sqsRequest);
      const roundMs =
        Math.max(Math.min(500, perShard * 2), lambdaWallMs(perShard * cpuPerProbe(protocol), memoryMb)) +
        REMOTE_PROBE_MS;
      const probing =
        shards *
        rounds *
        (PRICE.lambdaRequest + (Math.ceil(roundMs) / 1000) * memoryGb * PRICE.lambdaGbSecond);
      const writes = endpoints * inputs.sharded.unitsPerTargetHour * HOURS_PER_MONTH * PRICE.dynamoWriteUnit;
      // The tick and every shard read the two revision counters once a minute (one strongly
      // consistent read unit each), and the whole config only when it changed or an hour passed.
      const readers = 1 + shards;
      const configReads = readers * FULL_CONFIG_READS_PER_MONTH;
      const readUnits =
        readers * MINUTES_PER_MONTH * 2 +
        configReads * Math.ceil((endpoints * configBytesPerEndpoint) / 4_096);
      const reads = readUnits * PRICE.dynamoReadUnit;
      const transfer =
        ((REGIONS - 1) / REGIONS) *
        ((configReads * endpoints * configBytesPerEndpoint) / 1e9) *
        PRICE.interRegionGb;
      const perRegion = scheduler + tick + queues + probing + writes + reads + transfer;
      const total = REGIONS * perRegion;
      rows.push([
        protocol,
        n(endpoints),
        String(shards),
        `${money(REGIONS * probing)} + ${money(REGIONS * queues)}`,
        money(REGIONS * (reads + transfer)),
        money(REGIONS * (scheduler + tick + writes)),
        money(total),
        `${money(total / endpoints)}${endpoints >= 1_000 ? (total / endpoints <= 0.01 ? ' (met)' : ' (NOT met)') : ''}`,
        `$${route53FastCheck(protocol).toFixed(2)}`,
        `${lambdaWallMs(tickCpu, TICK_MEMORY_MB).toFixed(0)} ms`,
      ]);
    }
  printRows(
    [
      'protocol',
      'endpoints',
      'shards/region',
      'rounds + queues',
      'config reads + transfer',
      'tick + scheduler + writes',
      'total',
      'per endpoint (≤ $0.01 from 1,000)',
      'Route 53 per endpoint (non-AWS, 10 s)',
      'tick planning at 128 MB',
    ],
    rows,
  );
  console.log(
    `prices (us-east-1): Lambda arm64 $0.0000133334/GB-s, $0.20/M requests; SQS $0.40/M requests; DynamoDB on-demand $0.625/M WRU, $0.125/M RRU; ` +
      `Scheduler $1.00/M; inter-region transfer $0.02/GB (2 of 3 regions read the home table); ${n(MINUTES_PER_MONTH)}-minute month; ` +
      `config ${configBytesPerEndpoint.toFixed(0)} B per endpoint (the bench profiles' JSON); Route 53 health check of a non-AWS endpoint at 10 s: ` +
      `$${PRICE.route53NonAwsCheck.toFixed(2)} + $${PRICE.route53NonAwsFeature.toFixed(2)} fast interval (+ $${PRICE.route53NonAwsFeature.toFixed(2)} HTTPS).`,
  );
}

function printRows(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

/** Probes of each kind the probers bench runs before it measures (JIT warm-up: HTTPS settles after ~1,000). */
const PROBERS_WARM_UP = 1_000;

/** CPU per probe and throughput per protocol from test/bench/probers.bench.ts `--json`. */
type CoreFigures = Record<string, Record<string, { cpuMsPerProbe: number; probesPerSecond: number }>>;

async function runProbersBench(): Promise<CoreFigures | undefined> {
  const path = join(here, 'probers.bench.ts');
  const json = join(mkdtempSync(join(tmpdir(), 'bench-probers-')), 'figures.json');
  const flags = SHORT
    ? ['--n', '2000', '--https-n', '1000', '--rounds', '3', '--cores-n', '2000']
    : ['--n', '1000,10000', '--https-n', '1000', '--rounds', '3', '--cores-n', '4000'];
  flags.push('--warm-up', String(PROBERS_WARM_UP));
  console.log(`\n── test/bench/probers.bench.ts ${flags.join(' ')} ──`);
  await new Promise<void>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path, ...flags, '--json', json], {
      stdio: 'inherit',
    });
    child.once('exit', () => resolve());
  });
  try {
    return JSON.parse(readFileSync(json, 'utf8')) as CoreFigures;
  } catch {
    console.log('probers.bench.ts wrote no figures');
    return undefined;
  } finally {
    rmSync(dirname(json), { recursive: true, force: true });
  }
}

// ───────────────────────────── child: loopback backends ─────────────────────────────
if (process.argv.includes('--servers')) {
  const held: Socket[] = [];
  const http = createHttpServer({ keepAliveTimeout: 1 }, (_req, res) => {
    res.writeHead(200, { 'content-length': '2' });
    res.end('ok');
  });
  http.maxConnections = 20_000;
  const blackHole = createTcpServer((socket) => void held.push(socket)); // accepts, never answers
  http.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => {
    blackHole.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => {
      const ports = {
        http: (http.address() as AddressInfo).port,
        blackHole: (blackHole.address() as AddressInfo).port,
      };
      process.stdout.write(`${JSON.stringify(ports)}\n`);
    });
  });
} else {
  await main();
}
