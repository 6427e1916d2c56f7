/**
 * Every `tm` synopsis in the docs names the flags `tm <command> --help` lists, no more and no
 * fewer: the README's command table (first column) and docs/cli.md's `### \`tm …\`` headings.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmInProcess } from '../support/tm.js';

const ROOT = join(import.meta.dirname, '..', '..');

interface Synopsis {
  /** Where it is written, for the failure message. */
  readonly where: string;
  /** The command words, e.g. ['endpoint', 'override']. */
  readonly command: readonly string[];
  readonly text: string;
}

/** The command words of a synopsis: `tm endpoint disable\|enable …` names two commands. */
function commandsOf(text: string): string[][] {
  const words = text.replace(/\\\|/g, '|').split(/\s+/).slice(1);
  const command: string[][] = [[]];
  for (const word of words) {
    if (!/^[a-z]+(\|[a-z]+)*$/.test(word)) break;
    const choices = word.split('|');
    const next = command.flatMap((prefix) => choices.map((choice) => [...prefix, choice]));
    command.splice(0, command.length, ...next);
  }
  return command;
}

function synopses(): Synopsis[] {
  const found: Synopsis[] = [];
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  for (const [index, line] of readme.split('\n').entries())
    for (const match of line.matchAll(/^\| `(tm [^`]+)` \|/g)) {
      const text = match[1] ?? '';
      for (const command of commandsOf(text)) found.push({ where: `README.md:${index + 1}`, command, text });
    }
  const cli = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
  for (const [index, line] of cli.split('\n').entries())
    for (const match of line.matchAll(/^#{2,4} `(tm [^`]+)`$/g)) {
      const text = match[1] ?? '';
      for (const command of commandsOf(text))
        found.push({ where: `docs/cli.md:${index + 1}`, command, text });
    }
  return found;
}

/** The flags a synopsis names, long form (`-o` counts as the long flag it stands for in `help`). */
function synopsisFlags(text: string, help: string): string[] {
  const flags = new Set([...text.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]));
  for (const [, short, long] of help.matchAll(/^\s+(-\w), (--[a-z-]+)/gm))
    if (short !== undefined && long !== undefined && new RegExp(`(^|\\s|\\[)${short}(\\s|$)`).test(text))
      flags.add(long);
  return [...flags].sort();
}

/** The flags `--help` lists, `--help` itself left out. */
function helpFlags(help: string): string[] {
  const flags = [...help.matchAll(/^\s+(?:-\w, )?(--[a-z][a-z-]*)/gm)].map((m) => m[1] ?? '');
  return flags.filter((flag) => flag !== '--help').sort();
}

describe('tm synopses in the docs', { timeout: 60_000 }, () => {
  it('finds the synopses it checks (the README table and every command heading of docs/cli.md)', () => {
    // Act
    const commands = new Set(synopses().map((s) => `${s.where.split(':')[0]} ${s.command.join(' ')}`));

    // Assess
    for (const command of ['validate', 'plan', 'local', 'status', 'history', 'ui', 'import azure'])
      for (const file of ['README.md', 'docs/cli.md']) expect(commands).toContain(`${file} ${command}`);
    expect(commands).toContain('README.md endpoint override');
    expect(commands).toContain('README.md profile enable');
  });

  it('every synopsis names exactly the flags tm <command> --help lists', async () => {
    // Act
    const problems: string[] = [];
    for (const synopsis of synopses()) {
      const { code, stdout: help } = await tmInProcess(...synopsis.command, '--help');
      if (code !== 0) {
        problems.push(`${synopsis.where}: tm ${synopsis.command.join(' ')} --help exited ${code}`);
        continue;
      }
      const named = synopsisFlags(synopsis.text, help);
      const listed = helpFlags(help);
      const missing = listed.filter((flag) => !named.includes(flag));
      const unknown = named.filter((flag) => !listed.includes(flag));
      if (missing.length > 0 || unknown.length > 0)
        problems.push(
          `${synopsis.where}: tm ${synopsis.command.join(' ')}` +
            (missing.length > 0 ? ` leaves out ${missing.join(' ')}` : '') +
            (unknown.length > 0 ? ` names ${unknown.join(' ')}, which --help does not list` : ''),
        );
    }

    // Assess
    expect(problems).toEqual([]);
  });
});
