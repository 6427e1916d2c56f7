/**
 * One parser for every `tm` command, tested through the real `bin/tm.js` as a child
 * process: `--help` exits 0, an unknown flag exits 2 with a hint, `--version`, and
 * `tm plan --status` taking every status an operator can cause, as comma lists too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tm } from '../support/tm.js';

/** Every command as typed, e.g. `['endpoint', 'disable']`. */
const COMMANDS: string[][] = [['validate'], ['plan'], ['local'], ['status']];

// Each run starts Node + tsx (about a second on an idle machine); the runs are independent.
describe.concurrent('tm (child process)', { timeout: 90_000 }, () => {
  it('--version prints the package version and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const { code, stdout } = await tm(['--version']);
    expect({ code, stdout }).toEqual({ code: 0, stdout: `${version}\n` });
  });

  it('--help lists every command and exits 0', async () => {
    const { code, stdout } = await tm(['--help']);
    expect(code).toBe(0);
    for (const [name] of COMMANDS) expect(stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
  });

  it('no command: the command list on stderr, exit 2', async () => {
    const { code, stderr } = await tm([]);
    expect(code).toBe(2);
    expect(stderr).toContain('Usage: tm [options] [command]');
  });

  it('an unknown command exits 2 and suggests the nearest one', async () => {
    const { code, stderr } = await tm(['stauts']);
    expect(code).toBe(2);
    expect(stderr).toContain("tm: unknown command 'stauts'");
    expect(stderr).toContain('(Did you mean status?)');
  });

  it.each(COMMANDS.map((command) => ({ command, name: command.join(' ') })))(
    'tm $name --help prints its usage and exits 0',
    async ({ command, name }) => {
      const { code, stdout, stderr } = await tm([...command, '--help']);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout).toContain(`Usage: tm ${name} [options]`);
    },
  );

  it.each(COMMANDS.map((command) => ({ command, name: command.join(' ') })))(
    'tm $name --frobnicate exits 2 naming the flag, with a hint',
    async ({ command, name }) => {
      const { code, stdout, stderr } = await tm([...command, '--frobnicate']);
      expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
      expect(stderr).toContain(`tm ${name}: unknown option '--frobnicate'`);
      expect(stderr).toContain(`(tm ${name} --help shows the usage)`);
    },
  );

  it('an unknown flag close to a real one gets a "did you mean"', async () => {
    const { code, stderr } = await tm(['plan', 'examples/definitions.ts', '--jsn']);
    expect(code).toBe(2);
    expect(stderr).toContain('(Did you mean --json?)');
  });

  it('a bad flag value exits 2 naming the flag and the rule', async () => {
    const { code, stderr } = await tm(['local', '--dns-port', 'many']);
    expect(code).toBe(2);
    expect(stderr).toContain(
      "tm local: option '--dns-port <port>' argument 'many' is invalid. must be an integer 0–65535.",
    );
  });

  it('tm plan --status accepts Disabled: "what if I disable it" — the next endpoint answers', async () => {
    const { code, stdout } = await tm(['plan', 'examples/definitions.ts', '--status', 'shop/east=Disabled']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/ {2}east +Disabled\n/);
    expect(stdout).toContain('  shop.example.com  CNAME  30  west.shop.example.net\n');
  });

  it('tm plan --status takes comma lists as well as repeated flags', async () => {
    const { code, stdout } = await tm([
      'plan',
      'examples/definitions.ts',
      '--status',
      'shop/east=Degraded,shop/west=Disabled',
      '--status=www-eu/frankfurt=Degraded',
      '--json',
    ]);
    expect(code).toBe(0);
    const plan = JSON.parse(stdout) as {
      profiles: { profile: string; endpoints: { endpoint: string; status: string }[] }[];
    };
    const statusOf = (p: string, e: string) =>
      plan.profiles.find((r) => r.profile === p)?.endpoints.find((x) => x.endpoint === e)?.status;
    expect([statusOf('shop', 'east'), statusOf('shop', 'west'), statusOf('www-eu', 'frankfurt')]).toEqual([
      'Degraded',
      'Disabled',
      'Degraded',
    ]);
  });
});
