/**
 * The CPU a probe shard spends per probe beyond the prober's (not a test: it prints figures).
 * A fleet's loopback backends (fleet-servers.ts; 10 % black-holed) and, taking turns, two child
 * processes (support/round-cpu-child.ts) that run warmed-up rounds of one shard on the round
 * grid: `worker`, the round handler over a worker with the Lambda's settings (compact spread,
 * 800 probes in flight, the production probers in-process), and `bare`, the same requests at the same start times and the same limit sent
 * by the prober alone. Their difference is the worker's own CPU per probe. With `--profile`
 * both run once more with their measured rounds under the V8 CPU profiler, and their CPU is
 * split by part
 * (support/cpu-profile.ts; the profiler's own cost inflates all parts alike).
 *
 *   npx tsx test/bench/round-cpu.bench.ts [--targets 2000] [--rounds 4] [--repeats 2] [--profile]
 *
 * CPU time (`process.cpuUsage`) is less distorted than wall time by a loaded machine, but
 * not immune to it (caches, frequency): compare figures of one run, and the spread it prints.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuByPart } from './support/cpu-profile.js';
import { startFleetServers } from './support/fleet-sim.js';
import type { FleetSpec } from './support/fleet.js';
import type { RoundCpu } from './support/round-cpu-child.js';
import { percentile } from './support/stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    targets: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '4' },
    repeats: { type: 'string', default: '2' },
    profile: { type: 'boolean', default: false },
  },
});
const ROUNDS = Number(args.rounds);
const REPEATS = Number(args.repeats);

type Mode = 'worker' | 'bare';

function runChild(spec: FleetSpec, mode: Mode, profileFile?: string): Promise<RoundCpu[]> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(here, 'support/round-cpu-child.ts'),
      JSON.stringify(spec),
      mode,
      String(ROUNDS),
      ...(profileFile === undefined ? [] : [profileFile]),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1769' },
    },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0
        ? resolve((JSON.parse(out.trim()) as { rounds: RoundCpu[] }).rounds)
        : reject(new Error(`${mode} child exited (${code})`)),
    ),
  );
}

const perProbe = (rounds: readonly RoundCpu[]): number[] =>
  rounds.map((r) => r.cpuMs / Math.max(1, r.probed));
const fmt = (values: readonly number[]): string =>
  `median ${percentile(values, 50).toFixed(3)} ms (${Math.min(...values).toFixed(3)}–${Math.max(...values).toFixed(3)}, ${values.length} rounds)`;

const servers = await startFleetServers(4);
try {
  const spec: FleetSpec = { targets: Number(args.targets), intervalInSeconds: 10, ports: servers.ports };
  console.log(
    `round CPU per probe: one shard of ${spec.targets} HTTP targets every 10 s (10 % black-holed), ` +
      `${ROUNDS} measured rounds after a warm-up round per process, ${REPEATS} repeats, loaded machine`,
  );
  const all: Record<Mode, number[]> = { worker: [], bare: [] };
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    for (const mode of ['bare', 'worker'] as const) {
      const figures = perProbe(await runChild(spec, mode));
      all[mode].push(...figures);
      console.log(`  repeat ${repeat + 1} ${mode.padEnd(6)} CPU per probe ${fmt(figures)}`);
    }
  }
  const worker = percentile(all.worker, 50);
  const bare = percentile(all.bare, 50);
  console.log(
    `  worker ${fmt(all.worker)}; bare prober ${fmt(all.bare)}; ` +
      `the worker's own: ${(worker - bare).toFixed(3)} ms per probe (${(((worker - bare) / worker) * 100).toFixed(0)} % of the shard's)`,
  );
  if (args.profile) {
    for (const mode of ['bare', 'worker'] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'round-cpu-'));
      try {
        const file = join(dir, `${mode}.cpuprofile`);
        const rounds = await runChild(spec, mode, file);
        const probes = rounds.reduce((sum, r) => sum + r.probed, 0);
        const { total, parts } = cpuByPart(file);
        console.log(
          `  ${mode} under the CPU profiler (measured rounds; process CPU ${fmt(perProbe(rounds))}): ` +
            `main thread ${(total / probes).toFixed(3)} ms per probe sampled`,
        );
        for (const [part, ms] of [...parts]
          .sort((a, b) => b[1] - a[1])
          .filter(([, ms]) => ms / total >= 0.002))
          console.log(
            `    ${part.padEnd(32)} ${(ms / probes).toFixed(4)} ms per probe (${((ms / total) * 100).toFixed(1)} %)`,
          );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
} finally {
  servers.stop();
}
