/**
 * `tm` — one commander program for every command (registered in program.ts). Exit codes
 * are the same everywhere: 0 done (and `--help`, `--version`), 1 the command failed, 2 a
 * usage error (unknown command or flag, bad or missing value) with a hint on stderr.
 */
import { CommanderError } from 'commander';
import type { Io } from './io.js';
import { buildProgram } from './program.js';

export async function main(argv: readonly string[], io: Io = process): Promise<number> {
  let exitCode = 0;
  const program = buildProgram(io, (code) => (exitCode = code));
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    // exitOverride: commander throws instead of exiting; it has already written help or the error.
    if (!(error instanceof CommanderError)) throw error;
    return error.exitCode === 0 ? 0 : 2;
  }
  return exitCode;
}
