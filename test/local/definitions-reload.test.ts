/**
 * `tm local FILE` as a process follows its definitions file: a valid edit is applied (DNS
 * answers the new target, one line says what changed); an invalid edit is reported and the
 * stack keeps running the previous definitions.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { profileDefinition } from '../support/profiles.js';
import { startTm, type TmProcess } from '../support/tm-process.js';
import { dig, digAvailable } from './dns-fixtures.js';

let dir = '';
let stack: TmProcess | undefined;

afterAll(async () => {
  if (stack !== undefined && stack.child.exitCode === null) {
    stack.child.kill('SIGTERM');
    await stack.exited;
  }
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

const definitions = (target: string, ttl: unknown = 1) =>
  JSON.stringify([
    profileDefinition({
      name: 'app',
      dnsConfig: { ttl: ttl as number },
      endpoints: [{ name: 'primary', target }],
    }),
  ]);

describe.skipIf(!digAvailable)('tm local FILE, the file edited while it runs', { timeout: 180_000 }, () => {
  it('applies a valid edit and says what changed; reports an invalid one and keeps the previous definitions', async () => {
    // Prepare
    dir = await mkdtemp(join(tmpdir(), 'tm-reload-'));
    const file = join(dir, 'definitions.json');
    await writeFile(file, definitions('127.0.0.81'));
    stack = await startTm([file, '--dns-port', '0'], { stateDir: dir });
    const answer = async () =>
      (await dig(stack?.dnsPort ?? 0, ['app.example.com', 'A'])).answers.map((a) => a.data).join();
    await eventually(answer, (a) => a === '127.0.0.81', 60_000);

    // Act: a valid edit
    await writeFile(file, definitions('127.0.0.82'));

    // Assess
    await stack.waitFor(/definitions: \S+ reloaded: changed app/, 30_000);
    await eventually(answer, (a) => a === '127.0.0.82', 30_000);

    // Act: an invalid edit
    await writeFile(file, definitions('127.0.0.83', -1));

    // Assess: the problem is printed, the stack runs on with the previous definitions.
    await stack.waitFor(/definitions: \S+: 1 problem; still running the previous definitions/, 30_000);
    expect(stack.output()).toMatch(/definitions: .*ttl/);
    expect(stack.child.exitCode).toBeNull();
    expect(await answer()).toBe('127.0.0.82');
  });
});
