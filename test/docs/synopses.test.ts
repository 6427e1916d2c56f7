/**
 * Every `tm` synopsis in README.md and docs/cli.md matches the command it names: the command
 * exists (`tm <command> --help` exits 0) and the synopsis lists exactly the options its
 * `--help` lists (besides `--help` itself), so the docs neither promise a flag the CLI does
 * not take nor leave one out.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmInProcess } from '../support/tm.js';

const ROOT = join(import.meta.dirname, '..', '..');

interface Synopsis {
  readonly where: string;
  readonly text: string;
}

/** `### \`tm …\`` headings of docs/cli.md and the first cells of README's command table. */
function synopses(): Synopsis[] {
  const cli = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return [
    ...[...cli.matchAll(/^### `(tm [^`]+)`/gm)].map((m) => ({ where: 'docs/cli.md', text: m[1]! })),
    ...[...readme.matchAll(/^\| `(tm [^`]+)` \|/gm)].map((m) => ({
      where: 'README.md',
      text: m[1]!.replace(/\\\|/g, '|'),
    })),
  ];
}

/** `tm endpoint disable|enable PROFILE/…` → ['endpoint', 'disable']: the words before the operands. */
function commandOf(text: string): string[] {
  const words: string[] = [];
  for (const word of text.split(/\s+/).slice(1)) {
    if (!/^[a-z]+(\|[a-z]+)*$/.test(word)) break;
    words.push(word.split('|')[0]!);
  }
  return words;
}

const optionsIn = (text: string) => new Set(text.match(/(?<![\w-])--?[a-z][a-z-]*/g) ?? []);

describe('tm synopses in the docs', () => {
  const all = synopses();

  it('finds the synopses it checks', () => {
    expect(all.filter((s) => s.where === 'docs/cli.md').length).toBeGreaterThanOrEqual(7);
    expect(all.filter((s) => s.where === 'README.md').length).toBeGreaterThanOrEqual(10);
  });

  it.each(all.map((s) => ({ ...s, name: `${s.where}: ${s.text}` })))('$name', async ({ text }) => {
    const command = commandOf(text);
    const { code, stdout } = await tmInProcess(...command, '--help');
    expect(code, `tm ${command.join(' ')} --help`).toBe(0);
    const help = stdout.split('\nOptions:\n')[1]?.split('\n\n')[0] ?? '';
    const lines = [...help.matchAll(/^ {2}(?:(-\w), )?(--[a-z-]+)/gm)];
    const longOf = new Map(lines.filter((m) => m[1] !== undefined).map((m) => [m[1]!, m[2]!]));
    const helpOptions = new Set(lines.map((m) => m[2]!).filter((option) => option !== '--help'));
    const documented = [...optionsIn(text)].map((o) => longOf.get(o) ?? o);
    expect([...new Set(documented)].sort()).toEqual([...helpOptions].sort());
  });
});
