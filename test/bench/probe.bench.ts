/**
 * `npm run bench:probe` — the probe fleet's figures (not a test; prints figures, asserts none):
 *  1. the local round timer's lateness, idle and during one local-mode round of 10,000 targets;
 *  2. the cloud path simulated (test/bench/support/fleet-sim.ts): the real tick and round
 *     handler, emulated SQS delays, shards as processes, loopback targets (10 % black-holed)
 *     at 10,000 and 30,000 targets every 10 s and 100,000 every 30 s;
 *  3. CPU per probe against a minimal undici loop and
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
import { MemoryProbeStateStore } from '../support/memory-probe-state-store.js';
import { startRoundScheduler } from '../../infra/local/round-scheduler.js';
import { probe } from '../../functions/probe/probers/registry.js';
import { createRoundHandler } from '../../functions/probe/round-handler.js';
import { planProbes, spreadOffsetMs } from '../../shared/probe/plan.js';
import { MAX_PROBE_SHARDS, shardCountFor } from '../../shared/probe/shards.js';
import { BLACK_HOLED_ADDRESSES, FLEET_REGION, fleetProfiles } from './support/fleet.js';
import { simulateFleet, startFleetServers, type FleetFigures, type FleetRun } from './support/fleet-sim.js';
import { measureReplanCpu, measureTicks } from './support/cost-inputs.js';
import { COST_SIZES, printCost, shardsFor, type CoreFigures } from './support/cost-model.js';
import { createProbeWorker, DEFAULT_CONCURRENCY } from '../../functions/probe/worker.js';
import { COMPACT_SPREAD, roundDueAtOf, type SpreadPolicy } from '../../shared/probe/round-schedule.js';
import type { ProbeObservation } from '../../shared/probe/result.js';
import type { PlannedProbe, ProbeRequest } from '../../shared/probe/target.js';
import { meterCapacity } from './support/capacity-meter.js';
import { fnv1a32 } from '../../shared/hash/fnv1a.js';
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
    const ticks = await measureTicks(client());
    const replan = await measureReplanCpu(client(), COST_SIZES, (endpoints) => shardsFor('HTTP', endpoints));
    const fleetHttp = fleet.find((f) => f.run.spec.targets === 10_000);
    if (fleetHttp === undefined || cores === undefined)
      console.log('cost: needs the fleet and cores figures (run without BENCH_ONLY)');
    else
      printCost({
        writeUnitsPerTargetHour: sharded.unitsPerTargetHour,
        ticks,
        replan,
        fleet: fleetHttp,
        cores,
        probersWarmUp: PROBERS_WARM_UP,
      });
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

/** The local round timer with rounds that do nothing, and how late each round started. */
function timedRounds(periodMs: number) {
  const lateness: number[] = [];
  const scheduler = startRoundScheduler({
    roundPeriodMs: () => periodMs,
    runRound: async (dueAt) => void lateness.push(Date.now() - dueAt),
  });
  return { lateness, stop: () => scheduler.stop() };
}

async function idleJitter(): Promise<void> {
  const timer = timedRounds(100);
  await new Promise((resolve) => setTimeout(resolve, 5_100));
  await timer.stop();
  console.log(
    `local round timer, idle process, 100 ms period for 5 s: lateness ${describeLateness(timer.lateness)}`,
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
  const timer = timedRounds(1_000);
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
    `  local round timer (1 s grid) during that round: lateness ${describeLateness(timer.lateness)}`,
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

/**
 * 5–300 ms, different for every check: the check summaries compress as real answers do (a
 * constant latency would compress to nothing and flatter the write units).
 */
function variedLatencyMs(key: string, at: number): number {
  return 5 + (fnv1a32(`${key}@${at}`) % 2_950) / 10;
}

/** 100,000 targets' steady writes, sharded: one shard through the real round handler on DynamoDB Local. */
interface ShardedWrites {
  readonly targets: number;
  readonly shards: number;
  readonly perTargetHour: number;
  readonly unitsPerTargetHour: number;
}

/**
 * `minutes` of 10 s rounds of shard 0 of a `targets` fleet (fake prober and clock, latencies
 * varied per check; the fleet's black-holed 10 % time out),
 * through `createRoundHandler` with real writes to DynamoDB Local. Every shard holds the same
 * share of the requests and writes the same way (a heartbeat a minute, the check summaries
 * every 5 minutes, verdicts on change), so the region's writes are this shard's × the shard count.
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
            durationMs: variedLatencyMs(request.key, now),
            latencyMs: variedLatencyMs(request.key, now),
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

/** Probes of each kind the probers bench runs before it measures (JIT warm-up: HTTPS settles after ~1,000). */
const PROBERS_WARM_UP = 1_000;

async function runProbersBench(): Promise<CoreFigures | undefined> {
  const path = join(here, 'probers.bench.ts');
  const json = join(mkdtempSync(join(tmpdir(), 'bench-probers-')), 'figures.json');
  const flags = SHORT
    ? ['--n', '2000', '--https-n', '1000', '--rounds', '3']
    : ['--n', '1000,10000', '--https-n', '1000', '--rounds', '3'];
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
