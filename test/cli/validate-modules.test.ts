/**
 * A TypeScript/JavaScript definitions file is the user's code: `tm validate` (a real child
 * process) must end with a clear line naming the file whatever that code does while loading.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFINITIONS_LOAD_TIME_LIMIT_MS } from '../../infra/definitions/load.js';
import { compiledTm } from '../support/compiled-tm.js';

const root = new URL('../../', import.meta.url).pathname;
const defineImport = JSON.stringify(join(root, 'shared/profile/define.ts'));
/** Far beyond the load time limit plus start-up: a run still going then hangs. */
const HANG_MS = DEFINITIONS_LOAD_TIME_LIMIT_MS + 30_000;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tm-modules-'));
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** `tm validate FILE` as a child process, killed if it is still running after HANG_MS. */
async function validate(file: string): Promise<Exit> {
  const bin = await compiledTm();
  const started = Date.now();
  const child = spawn(process.execPath, [bin, 'validate', file], { cwd: root });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

const profile = `{ name: 'shop', trafficRoutingMethod: 'Priority', dnsConfig: { zoneName: 'example.com', hostedZoneId: 'Z00000000000000000001', relativeName: 'shop' }, endpoints: [] }`;

describe('tm validate on a definitions module that misbehaves while loading', () => {
  it.each([
    {
      name: 'a top-level await that never settles',
      file: 'await.ts',
      code: `await new Promise(() => {});\nexport default [];\n`,
      error: /await\.ts: its top-level await never settled/,
    },
    {
      name: 'process.exit(0)',
      file: 'exit.ts',
      code: `process.exit(0);\nexport default [];\n`,
      error: /exit\.ts: called process\.exit\(0\) while loading/,
    },
    {
      name: 'process.exit with an exit code set',
      file: 'exit-code.mts',
      code: `process.exitCode = 3;\nprocess.exit();\nexport default [];\n`,
      error: /exit-code\.mts: called process\.exit\(3\) while loading/,
    },
    {
      name: 'a busy loop',
      file: 'busy.ts',
      code: `while (Date.now() > 0) {}\nexport default [];\n`,
      error: new RegExp(
        `busy\\.ts: did not finish loading within ${DEFINITIONS_LOAD_TIME_LIMIT_MS / 1000} s`,
      ),
    },
    {
      name: 'a timer that waits longer than the limit',
      file: 'sleep.ts',
      code: `await new Promise((resolve) => setTimeout(resolve, 3_600_000));\nexport default [];\n`,
      error: /sleep\.ts: did not finish loading within/,
    },
    {
      name: 'a default export that is not plain data',
      file: 'function.ts',
      code: `export default [() => 1];\n`,
      error: /function\.ts: the default export must be plain data/,
    },
  ])('exits 1 naming the file: $name', async ({ file, code, error }) => {
    // Prepare
    const path = join(dir, file);
    await writeFile(path, code);

    // Act
    const exit = await validate(path);

    // Assess
    expect({ code: exit.code, stderr: exit.stderr }).toEqual({
      code: 1,
      stderr: expect.stringMatching(error),
    });
    expect(exit.stderr).not.toMatch(/\n\s+at /);
    expect(exit.stdout).toBe('');
  });

  it('exits 0 with the summary when the module leaves a timer running', async () => {
    // Prepare
    const path = join(dir, 'interval.ts');
    await writeFile(
      path,
      `import { defineProfiles } from ${defineImport};\nsetInterval(() => {}, 1000);\nexport default defineProfiles([${profile}]);\n`,
    );

    // Act
    const exit = await validate(path);

    // Assess
    expect({ code: exit.code, stderr: exit.stderr }).toEqual({ code: 0, stderr: '' });
    expect(exit.stdout).toMatch(/^shop +Priority +shop\.example\.com/);
    expect(exit.ms).toBeLessThan(HANG_MS);
  });
});
