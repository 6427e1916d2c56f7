/**
 * `npm run bench:probe` — figures for issue 3 §5 (not a test; prints figures):
 *  1. one round of 10,000 targets at the 10 s interval, 10% never answer (9 s timeout):
 *     does it finish inside the interval, peak RSS;
 *  2. the local round timer's lateness (jitter), idle and during that round;
 *  3. DynamoDB writes per target-region-hour, steady and with 10% flapping, at 10 and
 *     1,000 targets (fake prober and clock, real writes to DynamoDB Local);
 *  4. the monthly cost of the cadence design (docs/adr/0001-probe-cadence.md);
 *  5. then spawns test/bench/probers.bench.ts (CPU per probe) when present.
 * Backends run in a child process (this file with `--servers`), on loopback only.
 * `BENCH_ONLY=round` stops after 1–2; `BENCH_ONLY=writes` runs only 3–4.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
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
import { createTickHandler } from '../../functions/probe/tick.js';
import { createProbeWorker, DEFAULT_CONCURRENCY } from '../../functions/probe/worker.js';
import { spreadOffsetMs } from '../../shared/probe/plan.js';
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

async function main(): Promise<void> {
  const servers = await startServers();
  try {
    if (process.env.BENCH_ONLY !== 'writes') {
      await idleJitter();
      await roundOf10k(servers.ports, 'compact', COMPACT_SPREAD, 2_000);
      await roundOf10k(servers.ports, 'interval', { kind: 'interval' }, DEFAULT_CONCURRENCY);
    }
    if (process.env.BENCH_ONLY === 'round') return;
    const ddb = await startDynamoDbLocal();
    try {
      const client = (): DynamoDBClient =>
        dynamoDbClient({
          endpoint: ddb.endpoint,
          region: 'us-east-1',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        });
      const writes = await writeCosts(client());
      const timings = await handlerTimings(client(), servers.ports);
      printCost(writes, timings);
    } finally {
      await ddb.stop();
    }
  } finally {
    servers.child.kill('SIGTERM');
  }
  if (process.env.BENCH_ONLY !== 'writes') await runProbersBench();
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

interface HandlerTimings {
  readonly tickMs: number;
  readonly roundMs: number;
}

/** Local durations of a tick (config read + plan) and of a one-target round (loopback probe + no write). */
async function handlerTimings(client: DynamoDBClient, ports: { http: number }): Promise<HandlerTimings> {
  const tableName = 'bench-handlers';
  await createTable(client, tableName);
  const definition = profile({
    name: 'shop',
    monitorConfig: monitorConfig({ port: ports.http, path: '/health', intervalInSeconds: 10 }),
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
  const { readDeployedConfig } = await import('../../functions/shared/config-reader.js');
  const tick = createTickHandler({
    region: 'us-east-1',
    clock: { now: () => Date.now() },
    queues: [{ sendRounds: async () => undefined }],
    loadConfig: () => readDeployedConfig(client, tableName),
    fallbackProbeRegions: [],
  });
  const tickDurations: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now();
    await tick();
    tickDurations.push(performance.now() - t0);
  }
  const worker = createProbeWorker({
    region: 'us-east-1',
    store: new DynamoDbProbeStateStore(client, tableName),
    prober: probe,
    clock: { now: () => Date.now() },
    spread: COMPACT_SPREAD,
    logger: quiet,
  });
  const { planProbes } = await import('../../shared/probe/plan.js');
  worker.setTargets(
    planProbes((await readDeployedConfig(client, tableName)).profiles, 'us-east-1', ['us-east-1']),
  );
  const roundDurations: number[] = [];
  for (let i = 0; i < 30; i++) {
    const dueAt = Date.now();
    const t0 = performance.now();
    await worker.runRound(dueAt, 10_000);
    roundDurations.push(performance.now() - t0);
  }
  const tickMs = percentile(tickDurations.slice(5), 50);
  const roundMs = percentile(roundDurations.slice(5), 50);
  console.log(
    `tick (config read + plan, DynamoDB Local) median ${tickMs.toFixed(1)} ms; one-target round (loopback probe) median ${roundMs.toFixed(1)} ms`,
  );
  return { tickMs, roundMs };
}

/** Published us-east-1 prices (2025). */
const PRICE = {
  lambdaGbSecond: 0.0000133334, // arm64
  lambdaRequest: 0.2 / 1e6,
  sqsRequest: 0.4 / 1e6, // standard; a batch of ≤10 messages is one request
  dynamoWriteUnit: 0.625 / 1e6, // on-demand WRU (≤1 KB)
  schedulerInvocation: 1.0 / 1e6,
};
const MINUTES_PER_MONTH = 43_200; // 30 days
const MEMORY_GB = 128 / 1024;
/** Assumption (not documented exactly by AWS): an idle SQS event source keeps ~5 pollers long-polling 20 s. */
const IDLE_POLL_REQUESTS_PER_MINUTE = 15;
/** Assumption: a remote HTTPS endpoint answers in ~150 ms (loopback rounds are faster than real ones). */
const REMOTE_PROBE_MS = 150;

function printCost(writes: readonly WriteFigure[], timings: HandlerTimings): void {
  const money = (x: number) => `$${x.toFixed(4)}`;
  const billedMs = (ms: number) => Math.ceil(ms);
  // Fixed, per region, no endpoints: scheduler + tick invocation + idle event-source polling.
  const scheduler = MINUTES_PER_MONTH * PRICE.schedulerInvocation;
  const tickLambda =
    MINUTES_PER_MONTH *
    (PRICE.lambdaRequest + (billedMs(timings.tickMs) / 1000) * MEMORY_GB * PRICE.lambdaGbSecond);
  const idlePolling = MINUTES_PER_MONTH * IDLE_POLL_REQUESTS_PER_MINUTE * PRICE.sqsRequest;
  const fixedRegion = scheduler + tickLambda + idlePolling;
  console.log(
    `cost, fixed (no endpoints), per region/month: scheduler ${money(scheduler)} + tick Lambda ${money(tickLambda)} ` +
      `(${billedMs(timings.tickMs)} ms billed) + idle SQS polling ${money(idlePolling)} (assumed ${IDLE_POLL_REQUESTS_PER_MINUTE} receives/min) = ${money(fixedRegion)}; ` +
      `3 regions ${money(3 * fixedRegion)}`,
  );
  // Activation, per region, once any 10 s target exists: 6 rounds a minute.
  const rounds = MINUTES_PER_MONTH * 6;
  const roundMs = billedMs(timings.roundMs + REMOTE_PROBE_MS);
  const roundLambda = rounds * (PRICE.lambdaRequest + (roundMs / 1000) * MEMORY_GB * PRICE.lambdaGbSecond);
  const sqs = (MINUTES_PER_MONTH /* SendMessageBatch */ + rounds) /* DeleteMessageBatch */ * PRICE.sqsRequest;
  const heartbeats = MINUTES_PER_MONTH * PRICE.dynamoWriteUnit;
  const activationRegion = roundLambda + sqs + heartbeats;
  console.log(
    `cost, first 10 s endpoint (rounds start), per region/month: round Lambda ${money(roundLambda)} (${rounds} × ${roundMs} ms billed, ` +
      `assumed ${REMOTE_PROBE_MS} ms remote probe) + SQS send/delete ${money(sqs)} + heartbeats ${money(heartbeats)} = ${money(activationRegion)}; ` +
      `3 regions ${money(3 * activationRegion)}`,
  );
  // Marginal, per endpoint: its spread slot in the round, and its writes.
  const perTargetMs = COMPACT_SPREAD.kind === 'compact' ? COMPACT_SPREAD.perTargetMs : 0;
  const spreadSeconds = (rounds * perTargetMs) / 1000;
  const spreadCost = spreadSeconds * MEMORY_GB * PRICE.lambdaGbSecond;
  for (const figure of writes.filter((w) => w.targets === 1_000)) {
    const writesCost = (figure.writeUnits / figure.targets) * 24 * 30 * PRICE.dynamoWriteUnit;
    const marginal = 3 * (spreadCost + writesCost);
    console.log(
      `cost, each further 10 s endpoint from 3 regions/month (${figure.scenario}): spread slot ${money(3 * spreadCost)} + writes ${money(3 * writesCost)} = ${money(marginal)}; ` +
        `average at 20 endpoints ${money((3 * activationRegion) / 20 + marginal)}, at 100 ${money((3 * activationRegion) / 100 + marginal)}`,
    );
  }
  console.log(
    'prices used (us-east-1): Lambda arm64 $0.0000133334/GB-s, $0.20/M requests; SQS standard $0.40/M requests; ' +
      'DynamoDB on-demand $0.625/M WRU; EventBridge Scheduler $1.00/M invocations; 128 MB functions; no free tier.',
  );
}

async function runProbersBench(): Promise<void> {
  const path = join(here, 'probers.bench.ts');
  if (!existsSync(path)) {
    console.log('test/bench/probers.bench.ts not present: no prober CPU figures');
    return;
  }
  console.log('\n── test/bench/probers.bench.ts ──');
  await new Promise<void>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path], { stdio: 'inherit' });
    child.once('exit', () => resolve());
  });
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
