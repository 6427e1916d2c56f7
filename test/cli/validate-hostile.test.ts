/**
 * Every input file gets a summary or house-style errors, in bounded time and memory:
 * `tm validate` runs as a real child process on each generated hostile file, under GNU
 * time for its CPU time and maximum resident set size. Bounds per file: 2 s of CPU time
 * (user + system) beyond what starting `tm` costs, 300 MB, and a kill after 60 s of
 * wall-clock time so that a hang fails the test.
 *
 * Why beyond the start: most of a run's CPU time is node, tsx and the modules loading
 * (0.84-0.96 s for the small valid example, loaded 2-core machine), and that part grows with
 * the machine's load and speed: a bound of 2 s on the whole run failed at 2.01 and 2.13 s
 * under load. The validation itself is small (the heaviest file, endpoints-10000.json, took
 * 1.07-1.14 s in all) and what the bound guards against is large: with the value count
 * bound and the YAML alias limit lifted, an alias bomb ran 40-49 s of CPU before the kill.
 * So the test validates the small valid example between the hostile ones, under the same
 * load, and bounds each run by the most that took plus 2 s.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileFiles, type HostileFile } from './hostile-files.js';
import { compiledTm } from '../support/compiled-tm.js';

const root = new URL('../../', import.meta.url).pathname;
/** CPU time a file may take beyond the most the small valid file took in the same run. */
const WORK_CPU_LIMIT_S = 2;
/** The small valid file validated every this many hostile files: the cost of starting `tm`. */
const START_FILE = join(root, 'examples/definitions.json');
const START_EVERY = 10;
const RSS_LIMIT_KB = 300 * 1024;
const HANG_MS = 60_000;
/** One child per core. */
const PARALLEL = 2;

interface Run {
  readonly file: string;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallS: number;
  readonly cpuS: number;
  readonly rssKb: number;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tm-hostile-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function validate(file: HostileFile | 'start'): Promise<Run> {
  const path = file === 'start' ? START_FILE : join(dir, file.name);
  const timing = join(dir, `${file === 'start' ? `start-${randomUUID()}` : file.name}.time`);
  if (file !== 'start') await writeFile(path, file.content);
  const child = spawn(
    '/usr/bin/time',
    ['-o', timing, '-f', '%e %U %S %M', process.execPath, await compiledTm(), 'validate', path],
    // Its own process group, so that a hang kill ends tm too, not only GNU time (whose child
    // would go on, orphaned, burning CPU under the rest of the test run).
    { cwd: root, detached: true },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), HANG_MS);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  const figures = (await readFile(timing, 'utf8').catch(() => '')).trim().split('\n').at(-1) ?? '';
  const [wall, user, system, rss] = figures.split(' ').map(Number);
  return {
    file: file === 'start' ? 'start' : file.name,
    code,
    stdout,
    stderr,
    wallS: wall ?? Number.NaN,
    cpuS: (user ?? Number.NaN) + (system ?? Number.NaN),
    rssKb: rss ?? Number.NaN,
  };
}

/** What is wrong with one run; empty when it answered as it must. */
function problemsOf(run: Run, path: string, startCpuS: number): string[] {
  const problems: string[] = [];
  const output = `${run.stdout}\n${run.stderr}`;
  if (run.code !== 0 && run.code !== 1) problems.push(`exit ${run.code}`);
  if (/^\s+at /m.test(output) || /Node\.js v\d/.test(output)) problems.push('a stack trace');
  if (/internal error/.test(output)) problems.push('an internal error');
  if (!(run.cpuS - startCpuS <= WORK_CPU_LIMIT_S))
    problems.push(`${run.cpuS.toFixed(2)} s of CPU time (starting tm: ${startCpuS.toFixed(2)} s)`);
  if (!(run.rssKb <= RSS_LIMIT_KB)) problems.push(`${Math.round(run.rssKb / 1024)} MB resident`);
  if (run.code === 1) {
    const lines = run.stderr.trimEnd().split('\n');
    const last = lines.pop() ?? '';
    if (!last.startsWith(`tm validate: ${path}: `))
      problems.push(`last line ${JSON.stringify(last.slice(0, 120))}`);
    const odd = lines.find(
      (line) => !/^.+: .+, got .+$/.test(line) && !/^… and \d+ more problems?$/.test(line),
    );
    if (odd !== undefined) problems.push(`not house style: ${JSON.stringify(odd.slice(0, 120))}`);
  }
  if (run.code === 0 && run.stdout === '') problems.push('exit 0 without a summary');
  const notice =
    run.code === 0 &&
    run.stderr.split('\n').find((line) => line !== '' && !/^notice: .+: .+, got .+$/.test(line));
  if (notice)
    problems.push(`exit 0 with a stderr line that is not a notice: ${JSON.stringify(notice.slice(0, 120))}`);
  return problems.map((problem) => `${run.file}: ${problem}`);
}

describe('tm validate on hostile files', () => {
  it(
    'answers every one with a summary or house-style errors, within 2 s of CPU beyond starting tm and 300 MB',
    { timeout: 900_000 },
    async () => {
      // Prepare
      const files = hostileFiles();
      expect(files.length).toBeGreaterThanOrEqual(200);

      // Act: a first run fills tsx's transform cache, so every counted start is alike
      await validate('start');
      const runs: Run[] = [];
      const queue = files.flatMap((file, i) => (i % START_EVERY === 0 ? ['start' as const, file] : [file]));
      await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          for (let file = queue.shift(); file !== undefined; file = queue.shift())
            runs.push(await validate(file));
        }),
      );

      // Assess
      const starts = runs.filter((run) => run.file === 'start').map((run) => run.cpuS);
      const startCpuS = Math.max(...starts);
      const hostile = runs.filter((run) => run.file !== 'start');
      const worst = (key: 'cpuS' | 'rssKb' | 'wallS') => hostile.reduce((a, b) => (b[key] > a[key] ? b : a));
      console.log(
        `${hostile.length} hostile files: max CPU ${worst('cpuS').cpuS.toFixed(2)} s (${worst('cpuS').file}), ` +
          `starting tm ${Math.min(...starts).toFixed(2)}-${startCpuS.toFixed(2)} s (${starts.length} runs), ` +
          `max RSS ${Math.round(worst('rssKb').rssKb / 1024)} MB (${worst('rssKb').file}), ` +
          `max wall ${worst('wallS').wallS.toFixed(2)} s (${worst('wallS').file}); ` +
          `exit 0: ${hostile.filter((r) => r.code === 0).length}, exit 1: ${hostile.filter((r) => r.code === 1).length}`,
      );
      const pathOf = (run: Run) => (run.file === 'start' ? START_FILE : join(dir, run.file));
      expect(runs.flatMap((run) => problemsOf(run, pathOf(run), startCpuS))).toEqual([]);
    },
  );
});
