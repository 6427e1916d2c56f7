/**
 * `tm local` as a user runs it: a real process (the installed package's `tm`, `npm start` or
 * `npm exec` in this repository, where bin/tm.js runs the TypeScript sources through tsx),
 * its own state directory, its output collected, started once the banner shows.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compiledTm } from './compiled-tm.js';

export const REPO = resolve(import.meta.dirname, '../..');

/** `node`: the installed package's `tm` (test/support/compiled-tm.ts). `terminal`: that `tm` under `script`, which gives it a pseudo-terminal (stdin a TTY: keys are read). */
export type Launcher = 'node' | 'npm start' | 'npm exec' | 'terminal';

export interface TmProcess {
  /** The spawned process: node itself, or the npm wrapper. */
  readonly child: ChildProcess;
  readonly dnsPort: number;
  readonly stateDir: string;
  output(): string;
  /** Resolves when the spawned process exits. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once the output matches (or rejects after `timeoutMs`). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
}

export interface StartOptions {
  readonly launcher?: Launcher;
  readonly env?: Readonly<Record<string, string>>;
  readonly stateDir?: string;
  /** Keep stdin open as a pipe (the default closes it: not a terminal, no keys). */
  readonly stdin?: 'pipe' | 'ignore';
  /**
   * Start it as the leader of its own process group, as a shell starts a foreground job, so
   * `process.kill(-child.pid, 'SIGINT')` reaches every process of the group the way a
   * terminal's Ctrl-C does.
   */
  readonly processGroup?: boolean;
}

const BANNER = /DNS\s+127\.0\.0\.1:(\d+) \(UDP and TCP\)/;

export async function startTm(args: readonly string[], options: StartOptions = {}): Promise<TmProcess> {
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), 'tm-proc-'));
  const launcher = options.launcher ?? 'node';
  const bin = await compiledTm();
  const [command, argv] =
    launcher === 'node'
      ? [process.execPath, [bin, 'local', ...args]]
      : launcher === 'npm start'
        ? ['npm', ['start', '--', ...args]]
        : launcher === 'npm exec'
          ? ['npm', ['exec', '--', 'node', 'bin/tm.js', 'local', ...args]]
          : [
              'script',
              [
                '--quiet',
                '--return',
                '--command',
                [process.execPath, bin, 'local', ...args].join(' '),
                '/dev/null',
              ],
            ];
  const child = spawn(command, argv, {
    cwd: REPO,
    env: { ...process.env, TM_STATE_DIR: stateDir, ...options.env },
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
    detached: options.processGroup ?? false,
  });
  let output = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => {
      done({ code, signal });
      for (const listener of listeners) listener();
    }),
  );

  const waitFor = (pattern: RegExp, timeoutMs = 120_000) =>
    new Promise<RegExpMatchArray>((resolveMatch, reject) => {
      const check = () => {
        const match = pattern.exec(output);
        if (match !== null) {
          cleanup();
          resolveMatch(match);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          cleanup();
          reject(
            new Error(`tm exited (${child.exitCode ?? child.signalCode}) before ${pattern}:\n${output}`),
          );
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${output}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });

  const banner = await waitFor(BANNER);
  return {
    child,
    dnsPort: Number(banner[1]),
    stateDir,
    output: () => output,
    exited,
    waitFor,
  };
}
