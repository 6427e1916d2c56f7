/**
 * One parser for every `tm` command, tested through `tm` as the installed package runs it, as a child
 * process: `--help` exits 0, an unknown flag exits 2 with a hint, `--version`, and
 * `tm plan --status` taking every status an operator can cause, as comma lists too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tm } from '../support/tm.js';

/** Every command as typed, e.g. `['endpoint', 'disable']`. */
const COMMANDS: string[][] = [
  ['validate'],
  ['plan'],
  ['local'],
  ['status'],
  ['history'],
  ['ui'],
  ['endpoint', 'disable'],
  ['endpoint', 'enable'],
  ['endpoint', 'override'],
  ['endpoint', 'clear'],
  ['profile', 'disable'],
  ['profile', 'enable'],
];

/** Required flags (commander reports a missing one before an unknown one). */
const REQUIRED: Record<string, string[]> = {
  'endpoint override': ['--status', 'Online', '--for', '1m', '--reason', 'test'],
};

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
    expect(stdout).toContain('Usage: tm [options] [command]');
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
      const { code, stdout, stderr } = await tm([...command, ...(REQUIRED[name] ?? []), '--frobnicate']);
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

  it.each([
    {
      name: 'no PROFILE/ENDPOINT',
      args: ['endpoint', 'disable'],
      message: "missing required argument 'profile/endpoint'",
    },
    {
      name: 'an endpoint without its profile',
      args: ['endpoint', 'disable', 'east'],
      message: 'name the endpoint as PROFILE/ENDPOINT (e.g. shop/east), got "east"',
    },
    {
      name: 'override without --for',
      args: ['endpoint', 'override', 'a/b', '--status', 'Degraded', '--reason', 'x'],
      message: "required option '--for <duration>' not specified",
    },
    {
      name: 'override to a status that is not Online or Degraded',
      args: ['endpoint', 'override', 'a/b', '--status', 'Stopped', '--for', '1h', '--reason', 'x'],
      message: "argument 'Stopped' is invalid. must be one of Online, Degraded.",
    },
    {
      name: 'override for longer than 30 days',
      args: ['endpoint', 'override', 'a/b', '--status', 'Online', '--for', '31d', '--reason', 'x'],
      message: "argument '31d' is invalid. must be more than 0 and at most 30 days.",
    },
    {
      name: 'a duration without a unit',
      args: ['endpoint', 'override', 'a/b', '--status', 'Online', '--for', '30', '--reason', 'x'],
      message: 'must be a duration such as 90s, 30m, 1h30m or 2d.',
    },
  ])('runtime control usage errors exit 2: $name', async ({ args, message }) => {
    const { code, stderr } = await tm(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
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
