/**
 * CPU per probe of our probers against the floor for Node (a minimal undici loop) and
 * against prometheus-blackbox-exporter, on loopback, a new connection per probe.
 * Not a test: it prints figures.
 *
 *   npx tsx test/bench/probers.bench.ts [--n 1000,10000] [--https-n 1000] [--concurrency 16]
 *                                       [--rounds 3] [--only HTTP,HTTPS,TCP] [--no-blackbox]
 *                                       [--warm-up 200]
 *                                       [--json FILE]
 *   npx tsx test/bench/probers.bench.ts --nginx [--https-n 1000] [--concurrency 16] [--rounds 3]
 *                                       [--warm-up 200] [--nginx-ports 50] [--nginx-workers 2]
 *
 * `--json FILE` writes the figures for the cost model of test/bench/probe.bench.ts.
 *
 * `--nginx` measures HTTPS only, against two farms served by Debian's nginx instead of the Node
 * servers (test/bench/support/nginx-farm.ts: `--nginx-ports` ports of 127.0.0.1, an ECDSA
 * P-256 certificate, a fixed `200 ok`): one with `ssl_session_tickets on`, one with tickets
 * and the session cache off (nothing can be resumed). Against each it measures the engine and
 * the minimal undici loop (a new `Client` per probe, as below), each probe to the next port in
 * turn, and prints CPU per probe (the median and the rounds' range), their ratio and the share
 * of handshakes the server logged as resumed (warm-up included). Without `--nginx` the run is
 * the one above, unchanged.
 *
 * Each figure is the median of `rounds` runs, each after `warm-up` probes that are not measured
 * (JIT, lazy modules: HTTPS needs ~1,000 before its CPU per probe settles); the implementations take turns within a
 * round, so a neighbour's load on a shared machine hits them alike.
 * The target servers run in a child process, so their CPU is not counted in ours. Our CPU is
 * `process.cpuUsage()` over the run; blackbox_exporter's is utime+stime of its process
 * from /proc/<pid>/stat (10 ms ticks: fine over ≥ 1,000 probes).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { parseArgs } from 'node:util';
import { Client, Pool } from 'undici';
import { createHttpProber, probeHttp } from '../../functions/probe/probers/http.js';
import { probeTcp } from '../../functions/probe/probers/tcp.js';
import type { ProbeProtocol } from '../../shared/profile/types.js';
import { judgeObservation } from '../../shared/probe/judge.js';
import type { ProbeJudging, ProbeRequest, Prober } from '../../shared/probe/target.js';
import { selfSignedCertificate } from '../support/servers.js';
import { NGINX, reachable, startNginxFarm, type NginxFarm } from './support/nginx-farm.js';

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '1000,10000' },
    'https-n': { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '3' },
    only: { type: 'string', default: 'HTTP,HTTPS,TCP' },
    'no-blackbox': { type: 'boolean', default: false },
    'warm-up': { type: 'string', default: '200' },
    json: { type: 'string' },
    nginx: { type: 'boolean', default: false },
    'nginx-ports': { type: 'string', default: '50' },
    'nginx-workers': { type: 'string', default: '2' },
  },
});
const COUNTS = args.n.split(',').map(Number);
const HTTPS_COUNTS = args['https-n'].split(',').map(Number);
const CONCURRENCY = Number(args.concurrency);
const ROUNDS = Number(args.rounds);
const WARM_UP = Number(args['warm-up']);
const PROTOCOLS = args.only.split(',') as ProbeProtocol[];
const BLACKBOX = '/usr/bin/prometheus-blackbox-exporter';
const CLOCK_TICKS_PER_SECOND = 100;

/** One probe of some implementation; resolves true on success. */
type OneProbe = () => Promise<boolean>;

interface Run {
  readonly cpuMsPerProbe: number;
  readonly probesPerSecond: number;
  readonly failures: number;
}

interface Ports {
  readonly http: number;
  readonly https: number;
  readonly tcp: number;
}

async function main(): Promise<void> {
  if (args.nginx) return nginxMain();
  const { key, cert } = await selfSignedCertificate();
  const servers = await startServersInChild(key, cert);
  const blackbox = args['no-blackbox'] || !existsSync(BLACKBOX) ? undefined : await startBlackbox();
  if (!args['no-blackbox'] && blackbox === undefined)
    console.log(`${BLACKBOX} is not installed: no blackbox_exporter figures`);
  const rows: string[][] = [];
  const figures: Record<string, Record<string, Run>> = {};
  try {
    for (const protocol of PROTOCOLS) {
      for (const n of protocol === 'HTTPS' ? HTTPS_COUNTS : COUNTS) {
        const floors = minimalProbes(protocol, servers.ports);
        const rounds: (Run | undefined)[][] = [];
        for (let round = 0; round < ROUNDS; round++) {
          rounds.push([
            await measure(n, engineProbe(protocol, servers.ports)),
            await measure(n, floors.plain),
            floors.sharedContext === undefined ? undefined : await measure(n, floors.sharedContext),
            blackbox === undefined ? undefined : await measureBlackbox(blackbox, protocol, servers.ports, n),
          ]);
        }
        const [engine, floor, floorShared, bb] = [0, 1, 2, 3].map((i) => median(rounds.map((r) => r[i])));
        if (engine === undefined || floor === undefined) throw new Error('no measurement');
        figures[protocol] = { engine, minimal: floor };
        rows.push([
          protocol,
          String(n),
          fmt(engine.cpuMsPerProbe),
          fmt(floor.cpuMsPerProbe),
          ratio(engine.cpuMsPerProbe, floor.cpuMsPerProbe),
          floorShared === undefined
            ? '-'
            : `${fmt(floorShared.cpuMsPerProbe)} (${ratio(engine.cpuMsPerProbe, floorShared.cpuMsPerProbe)})`,
          bb === undefined ? '-' : fmt(bb.cpuMsPerProbe),
          bb === undefined ? '-' : ratio(engine.cpuMsPerProbe, bb.cpuMsPerProbe),
          String(Math.round(engine.probesPerSecond)),
          [engine, floor, floorShared, bb].map((r) => r?.failures ?? '-').join('/'),
        ]);
      }
    }
    printTable(
      [
        'protocol',
        'N',
        'engine ms',
        'minimal ms',
        'engine/minimal',
        'minimal, shared ctx ms (ratio)',
        'blackbox ms',
        'engine/blackbox',
        'engine probes/s',
        'failures e/m/ms/bb',
      ],
      rows,
    );
    console.log(
      `\nCPU ms per probe, median of ${ROUNDS} rounds after ${WARM_UP} warm-up probes each; concurrency ${CONCURRENCY}; node ${process.version}; loopback; a new connection per probe.`,
    );
    if (blackbox !== undefined) await stop(blackbox.process);
  } finally {
    await stop(blackbox?.process);
    if (blackbox !== undefined) rmSync(blackbox.directory, { recursive: true, force: true });
    await stop(servers.process);
  }
  if (args.json !== undefined) writeFileSync(args.json, JSON.stringify(figures));
}

/** `--nginx`: HTTPS against the two nginx farms, the engine beside the minimal undici loop. */
async function nginxMain(): Promise<void> {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is not installed`);
  const portCount = Number(args['nginx-ports']);
  const workers = Number(args['nginx-workers']);
  const farms: NginxFarm[] = [];
  try {
    farms.push(await startNginxFarm({ name: 'tickets-on', tickets: true, ports: portCount, workers }));
    farms.push(await startNginxFarm({ name: 'tickets-off', tickets: false, ports: portCount, workers }));
    const implementations = farms.map((farm) => ({
      farm,
      probes: [
        ['engine', nginxEngineProbe(farm.ports, createHttpProber())],
        ['minimal undici', nginxUndiciProbe(farm.ports)],
      ] as const,
    }));
    const rows: string[][] = [];
    for (const n of HTTPS_COUNTS) {
      // rounds[farm][implementation][round]
      const rounds = implementations.map(({ probes }) => probes.map(() => [] as Run[]));
      const resumed = implementations.map(({ probes }) => probes.map(() => ({ total: 0, resumed: 0 })));
      for (let round = 0; round < ROUNDS; round++) {
        for (const [f, { farm, probes }] of implementations.entries()) {
          for (const [i, [, probe]] of probes.entries()) {
            farm.handshakesSince();
            rounds[f]![i]!.push(await measure(n, probe));
            const logged = farm.handshakesSince();
            resumed[f]![i] = {
              total: resumed[f]![i]!.total + logged.total,
              resumed: resumed[f]![i]!.resumed + logged.resumed,
            };
          }
        }
      }
      for (const [f, { farm, probes }] of implementations.entries()) {
        const runs = probes.map((_, i) => median(rounds[f]![i]!));
        const undici = runs[runs.length - 1];
        if (runs.some((run) => run === undefined) || undici === undefined) throw new Error('no measurement');
        for (const [i, [name]] of probes.entries()) {
          const run = runs[i]!;
          const logged = resumed[f]![i]!;
          const each = rounds[f]![i]!.map((r) => r.cpuMsPerProbe);
          rows.push([
            farm.name,
            String(n),
            name,
            fmt(run.cpuMsPerProbe),
            `${fmt(Math.min(...each))}–${fmt(Math.max(...each))}`,
            ratio(run.cpuMsPerProbe, undici.cpuMsPerProbe),
            logged.total === 0 ? '-' : `${((100 * logged.resumed) / logged.total).toFixed(1)} %`,
            String(Math.round(run.probesPerSecond)),
            String(run.failures),
          ]);
        }
      }
    }
    printTable(
      [
        'nginx farm',
        'N',
        'prober',
        'CPU ms/probe',
        'rounds min–max',
        '/ undici',
        'resumed',
        'probes/s',
        'failures',
      ],
      rows,
    );
    console.log(
      `\nHTTPS, CPU ms per probe of this process, median of ${ROUNDS} rounds after ${WARM_UP} warm-up probes each; concurrency ${CONCURRENCY}; ${portCount} ports per farm, each probe to the next; nginx ${nginxVersion()} with ${workers} workers, ECDSA P-256; node ${process.version}; "resumed": handshakes the server logged as resumed, warm-up included, all rounds.`,
    );
  } finally {
    for (const farm of farms) await farm.stop();
  }
}

function nginxEngineProbe(ports: readonly number[], prober: Prober): OneProbe {
  const targets = ports.map((port) => ({
    ...target('HTTPS', { http: 0, https: port, tcp: 0 }),
    key: `nginx-${port}`,
  }));
  let next = 0;
  return async () => {
    const probeTarget = targets[next++ % targets.length]!;
    return judgeObservation(await prober(probeTarget, probeTarget.timeoutMs), probeTarget).ok;
  };
}

/** The minimal undici loop of `minimalProbes` (plain), each probe to the next port. */
function nginxUndiciProbe(ports: readonly number[]): OneProbe {
  const loops = ports.map((port) => minimalProbes('HTTPS', { http: 0, https: port, tcp: 0 }).plain);
  let next = 0;
  return () => loops[next++ % loops.length]!();
}

function nginxVersion(): string {
  const result = spawnSync(NGINX, ['-v'], { encoding: 'utf8' });
  return (result.stderr.trim().split('/')[1] ?? '?').trim();
}

function target(protocol: ProbeProtocol, ports: Ports): ProbeRequest & ProbeJudging {
  return {
    key: `bench-${protocol}`,
    protocol,
    host: '127.0.0.1',
    port: protocol === 'HTTP' ? ports.http : protocol === 'HTTPS' ? ports.https : ports.tcp,
    path: protocol === 'TCP' ? undefined : '/',
    method: 'GET',
    headers: [],
    expectedStatusCodeRanges: protocol === 'TCP' ? [] : [{ min: 200, max: 200 }],
    timeoutMs: 5_000,
    healthRule: { kind: 'consecutiveFailures' },
    toleratedNumberOfFailures: 3,
    intervalMs: 10_000,
  };
}

function engineProbe(protocol: ProbeProtocol, ports: Ports): OneProbe {
  const probeTarget = target(protocol, ports);
  const prober = protocol === 'TCP' ? probeTcp : probeHttp;
  return async () => judgeObservation(await prober(probeTarget, probeTarget.timeoutMs), probeTarget).ok;
}

/** The floor: the least a Node program can do for the same check. */
function minimalProbes(protocol: ProbeProtocol, ports: Ports): { plain: OneProbe; sharedContext?: OneProbe } {
  if (protocol === 'TCP') {
    return {
      plain: () =>
        new Promise<boolean>((resolve) => {
          const socket = net.connect({ host: '127.0.0.1', port: ports.tcp });
          socket.once('connect', () => {
            socket.resetAndDestroy();
            resolve(true);
          });
          socket.once('error', () => resolve(false));
        }),
    };
  }
  const origin = protocol === 'HTTP' ? `http://127.0.0.1:${ports.http}` : `https://127.0.0.1:${ports.https}`;
  const undiciLoop =
    (connect: Client.Options['connect']): OneProbe =>
    async () => {
      const client = new Client(origin, { connect });
      try {
        const { statusCode, body } = await client.request({ path: '/', method: 'GET' });
        await body.dump();
        return statusCode === 200;
      } catch {
        return false;
      } finally {
        await client.close();
      }
    };
  if (protocol === 'HTTP') return { plain: undiciLoop(undefined) };
  const secureContext = tls.createSecureContext();
  return {
    plain: undiciLoop({ rejectUnauthorized: false }),
    sharedContext: undiciLoop({ rejectUnauthorized: false, secureContext }),
  };
}

async function measure(n: number, probe: OneProbe, concurrency = CONCURRENCY): Promise<Run> {
  await drive(WARM_UP, probe, concurrency); // warm-up: JIT, lazy modules
  const cpu = process.cpuUsage();
  const start = performance.now();
  const failures = await drive(n, probe, concurrency);
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  return { cpuMsPerProbe: cpuMs / n, probesPerSecond: (n / wallMs) * 1000, failures };
}

/** Runs `n` probes, at most CONCURRENCY at a time; returns the number that failed. */
async function drive(n: number, probe: OneProbe, concurrency = CONCURRENCY): Promise<number> {
  let next = 0;
  let failures = 0;
  const worker = async (): Promise<void> => {
    while (next < n) {
      next++;
      if (!(await probe())) failures++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  return failures;
}

interface Blackbox {
  readonly process: ChildProcess;
  readonly port: number;
  readonly directory: string;
}

async function startBlackbox(): Promise<Blackbox> {
  const directory = mkdtempSync(join(tmpdir(), 'bench-blackbox-'));
  const config = join(directory, 'blackbox.yml');
  writeFileSync(
    config,
    `modules:
  http:
    prober: http
    timeout: 5s
    http: { preferred_ip_protocol: ip4, valid_status_codes: [200] }
  https:
    prober: http
    timeout: 5s
    http: { preferred_ip_protocol: ip4, valid_status_codes: [200], tls_config: { insecure_skip_verify: true } }
  tcp:
    prober: tcp
    timeout: 5s
    tcp: { preferred_ip_protocol: ip4 }
`,
  );
  const port = await freePort();
  const child = spawn(
    BLACKBOX,
    [`--config.file=${config}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=error'],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  for (let i = 0; i < 100; i++) {
    if (await reachable(port)) return { process: child, port, directory };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('blackbox_exporter did not start');
}

async function measureBlackbox(
  blackbox: Blackbox,
  protocol: ProbeProtocol,
  ports: Ports,
  n: number,
): Promise<Run> {
  const module = protocol.toLowerCase();
  const probeTarget =
    protocol === 'HTTP'
      ? `http://127.0.0.1:${ports.http}/`
      : protocol === 'HTTPS'
        ? `https://127.0.0.1:${ports.https}/`
        : `127.0.0.1:${ports.tcp}`;
  const path = `/probe?module=${module}&target=${encodeURIComponent(probeTarget)}`;
  const pool = new Pool(`http://127.0.0.1:${blackbox.port}`, { connections: CONCURRENCY });
  const one: OneProbe = async () => {
    const { body } = await pool.request({ path, method: 'GET' });
    return /^probe_success 1$/m.test(await body.text());
  };
  const pid = blackbox.process.pid ?? 0;
  try {
    await drive(Math.min(200, n), one);
    const ticks = cpuTicksOf(pid);
    const start = performance.now();
    const failures = await drive(n, one);
    const wallMs = performance.now() - start;
    const used = cpuTicksOf(pid) - ticks;
    return {
      cpuMsPerProbe: ((used / CLOCK_TICKS_PER_SECOND) * 1000) / n,
      probesPerSecond: (n / wallMs) * 1000,
      failures,
    };
  } finally {
    await pool.close();
  }
}

/**
 * utime + stime of a process (`pid`) or of the calling thread (`thread-self`), in clock ticks
 * (fields 14 and 15 of /proc/<pid>/stat).
 */
function cpuTicksOf(pid: number | string): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * The targets, as cheap as the work they must do, so they leave the probers as much of the
 * shared cores as possible: HTTP and HTTPS answer a fixed `200 ok` (Connection: close) to the
 * first bytes of a request, straight on the socket (no HTTP parser, no request/response
 * objects); TCP accepts and closes (`pauseOnConnect`: the socket is never read).
 */
const SERVERS_PROGRAM = `
const net = require('node:net'), tls = require('node:tls');
const RESPONSE = 'HTTP/1.1 200 OK\\r\\ncontent-type: text/plain\\r\\ncontent-length: 2\\r\\nconnection: close\\r\\n\\r\\nok';
const answer = (socket) => { socket.on('error', () => {}); socket.once('data', () => socket.end(RESPONSE)); };
const h = net.createServer(answer);
const s = tls.createServer({ key: process.env.KEY, cert: process.env.CERT }, answer);
s.on('tlsClientError', (e, socket) => socket.destroy());
const t = net.createServer({ pauseOnConnect: true }, (socket) => socket.destroy());
let left = 3;
const ready = () => { if (--left === 0) process.stdout.write(JSON.stringify({ http: h.address().port, https: s.address().port, tcp: t.address().port }) + '\\n'); };
for (const server of [h, s, t]) server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, ready);
`;

async function startServersInChild(
  key: string,
  cert: string,
): Promise<{ process: ChildProcess; ports: Ports }> {
  const child = spawn(process.execPath, ['-e', SERVERS_PROGRAM], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, KEY: key, CERT: cert },
  });
  const ports = await new Promise<Ports>((resolve, reject) => {
    child.stdout?.once('data', (data: Buffer) => resolve(JSON.parse(data.toString()) as Ports));
    child.once('error', reject);
  });
  return { process: child, ports };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The run with the median CPU per probe (failures summed over the rounds). */
function median(runs: (Run | undefined)[]): Run | undefined {
  const measured = runs
    .filter((r): r is Run => r !== undefined)
    .sort((a, b) => a.cpuMsPerProbe - b.cpuMsPerProbe);
  const middle = measured[Math.floor(measured.length / 2)];
  return middle === undefined
    ? undefined
    : { ...middle, failures: measured.reduce((sum, r) => sum + r.failures, 0) };
}

function fmt(ms: number): string {
  return ms.toFixed(3);
}

function ratio(a: number, b: number): string {
  return `${(a / b).toFixed(2)}×`;
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
