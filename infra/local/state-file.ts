/**
 * Where a running `tm local` says how to reach it: one JSON file per stack, keyed by its
 * DNS port, in a directory only this user can write (`$TM_STATE_DIR`, else
 * `<tmpdir>/traffic-manager-<uid>`). `tm status` and the other commands that read a
 * stack find it there; a user points the AWS CLI or an SDK at `route53Endpoint` or
 * `dynamodbEndpoint`.
 *
 * A stack killed with SIGKILL cannot remove its file, so a file counts only while its
 * process lives: the pid must exist and (on Linux) have the start time the file records,
 * so a pid reused by another program does not pass for the stack.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StateFileError } from './errors.js';

export interface LocalStackPointer {
  readonly pid: number;
  /** The DNS port (UDP and TCP on 127.0.0.1): the key of the file. */
  readonly dnsPort: number;
  /** The local Route 53 API, for `aws route53 … --endpoint-url` or `AWS_ENDPOINT_URL_ROUTE_53`. */
  readonly route53Endpoint: string;
  /** DynamoDB Local, for `aws dynamodb … --endpoint-url` or `AWS_ENDPOINT_URL_DYNAMODB`. */
  readonly dynamodbEndpoint: string;
  readonly tableName: string;
  /** The local CloudWatch (every region), for `aws cloudwatch … --endpoint-url` or `AWS_ENDPOINT_URL_CLOUDWATCH`. */
  readonly cloudWatchEndpoint?: string;
  /** The fault control endpoint `tm fault` and `tm status` use (infra/local/faults.ts). */
  readonly controlEndpoint?: string;
  /** The deployment name the stack's health-check ids derive from (STATIC_FAILOVER_DEPLOYMENT). */
  readonly deployment?: string;
  /** ISO time the stack started. */
  readonly startedAt: string;
  /** The process start time in clock ticks since boot (Linux `/proc/<pid>/stat`), when known. */
  readonly processStart?: number;
}

const FILE_PATTERN = /^local-(\d+)\.json$/;

function stateDirectory(): string {
  const configured = process.env.TM_STATE_DIR;
  if (configured !== undefined && configured !== '') return configured;
  const uid = process.getuid?.();
  return join(tmpdir(), uid === undefined ? 'traffic-manager' : `traffic-manager-${uid}`);
}

export const stateFilePath = (dnsPort: number): string => join(stateDirectory(), `local-${dnsPort}.json`);

/**
 * Where the stack on `dnsPort` keeps its DynamoDB Local table across restarts (one per DNS
 * port, beside the state files); the state directory is created and checked first.
 */
export function tableDirectory(dnsPort: number): string {
  return join(ensureDirectory(), `dynamodb-${dnsPort}`);
}

/** Creates the directory (mode 0700) and checks that it is ours and not a symlink planted by someone else. */
function ensureDirectory(): string {
  const directory = stateDirectory();
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const stat = lstatSync(directory);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid))
    throw new StateFileError(
      `${directory} is not a directory owned by this user; remove it or set TM_STATE_DIR`,
    );
  return directory;
}

/** Start time of a process in clock ticks since boot, from `/proc` (Linux); `undefined` elsewhere. */
export function processStartOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22; the command name (field 2) is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = Number(fields[19]);
    return Number.isFinite(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pointer: LocalStackPointer): boolean {
  try {
    process.kill(pointer.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (pointer.processStart === undefined) return true;
  const start = processStartOf(pointer.pid);
  return start === undefined || start === pointer.processStart;
}

function readPointer(path: string): LocalStackPointer | undefined {
  try {
    const pointer = JSON.parse(readFileSync(path, 'utf8')) as LocalStackPointer;
    return typeof pointer.pid === 'number' && typeof pointer.dnsPort === 'number' ? pointer : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes this stack's file (atomically, mode 0600). Returns the stale pointer it replaced —
 * the file of a stack on the same DNS port that was killed without removing it — if any.
 */
export function writeStateFile(
  pointer: Omit<LocalStackPointer, 'processStart' | 'startedAt' | 'pid'> & { readonly pid?: number },
): LocalStackPointer | undefined {
  const directory = ensureDirectory();
  const path = stateFilePath(pointer.dnsPort);
  const previous = readPointer(path);
  const pid = pointer.pid ?? process.pid;
  const start = processStartOf(pid);
  const full: LocalStackPointer = {
    ...pointer,
    pid,
    startedAt: new Date().toISOString(),
    ...(start === undefined ? {} : { processStart: start }),
  };
  const temporary = join(directory, `.local-${pointer.dnsPort}.${process.pid}.tmp`);
  writeFileSync(temporary, `${JSON.stringify(full, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
  return previous !== undefined && previous.pid !== pid ? previous : undefined;
}

/** Removes the file of the stack on `dnsPort` if it is this process's (never another stack's). */
export function removeStateFile(dnsPort: number, pid = process.pid): void {
  const path = stateFilePath(dnsPort);
  if (readPointer(path)?.pid === pid) rmSync(path, { force: true });
}

/** Every running local stack, by DNS port; files of stacks that are gone are ignored. */
export function runningStacks(): LocalStackPointer[] {
  let names: string[];
  try {
    names = readdirSync(stateDirectory());
  } catch {
    return [];
  }
  return names
    .filter((name) => FILE_PATTERN.test(name))
    .map((name) => readPointer(join(stateDirectory(), name)))
    .filter((pointer): pointer is LocalStackPointer => pointer !== undefined && isAlive(pointer))
    .sort((a, b) => a.dnsPort - b.dnsPort);
}

/** The running stack on `dnsPort`, or the only one running; otherwise a message saying what exists. */
export function selectRunningStack(
  dnsPort?: number,
): { readonly stack: LocalStackPointer } | { readonly problem: string } {
  const running = runningStacks();
  const list = running.map((s) => `--dns-port ${s.dnsPort} (pid ${s.pid}, since ${s.startedAt})`).join(', ');
  if (dnsPort !== undefined) {
    const stack = running.find((s) => s.dnsPort === dnsPort);
    if (stack !== undefined) return { stack };
    const others = running.length === 0 ? '' : `; running: ${list}`;
    return { problem: `no local stack is running on DNS port ${dnsPort}${others}` };
  }
  const [only, ...more] = running;
  if (only !== undefined && more.length === 0) return { stack: only };
  return {
    problem:
      running.length === 0
        ? 'no local stack is running'
        : `${running.length} local stacks are running; pick one with ${list}`,
  };
}
