/**
 * `tm local` as real processes: what it listens on (loopback only, DynamoDB Local included),
 * what it prints and writes to its state file, `tm status --dns-port`, a malformed request
 * that must not kill it, and every way of stopping it — nothing may stay behind. (Its state
 * store going away: state-store-gone.test.ts.)
 */
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { ListHostedZonesByNameCommand, Route53Client } from '@aws-sdk/client-route-53';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { dig, digAvailable } from './dns-fixtures.js';
import { rawRequest } from '../support/raw-http.js';
import { isLoopback, isRunning, listeningSockets, procAvailable, processTree } from '../support/sockets.js';
import { REPO, type TmProcess } from '../support/tm-process.js';
import { compiledTm } from '../support/compiled-tm.js';
import { knownDnsPort } from '../support/dns-port.js';
import { allGone, dynamoDbLocalIn, startTracked, statePath } from './tm-local-fixtures.js';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
/** util-linux `script`, which runs tm on a pseudo-terminal (essential on Debian). */
const scriptAvailable = spawnSync('script', ['--version']).status === 0;
const start = startTracked();
const stateOf = (tm: TmProcess) =>
  JSON.parse(readFileSync(statePath(tm), 'utf8')) as {
    pid: number;
    dnsPort: number;
    route53Endpoint: string;
    dynamodbEndpoint: string;
    tableName: string;
  };

async function tmStatus(stateDir: string, ...args: string[]) {
  return promisify(execFile)(process.execPath, [await compiledTm(), 'status', ...args], {
    cwd: REPO,
    env: { ...process.env, TM_STATE_DIR: stateDir },
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      stdout: e.stdout,
      stderr: e.stderr,
    }),
  );
}

describe.skipIf(!procAvailable || !digAvailable)(
  'a running tm local (the demo)',
  { timeout: 180_000 },
  () => {
    let tm: TmProcess;
    beforeAll(async () => {
      tm = await start(['--dns-port', '0']);
    }, 180_000);

    it('listens on loopback only: DNS, the local Route 53, DynamoDB Local (Java), the demo ports', () => {
      const tree = processTree(tm.child.pid as number);
      const sockets = listeningSockets(tree);
      const state = stateOf(tm);
      const ports = new Set(sockets.map((s) => s.port));
      expect(ports).toContain(tm.dnsPort);
      expect(ports).toContain(Number(new URL(state.route53Endpoint).port));
      expect(ports).toContain(Number(new URL(state.dynamodbEndpoint).port));
      expect(
        sockets
          .filter((s) => s.port === tm.dnsPort)
          .map((s) => s.protocol)
          .sort(),
      ).toEqual(['tcp', 'udp']);
      expect(sockets.filter((s) => !isLoopback(s.address))).toEqual([]);
    });

    it('prints the local Route 53 and DynamoDB endpoints; the state file carries both, and both answer', async () => {
      const state = stateOf(tm);
      expect(state.dnsPort).toBe(tm.dnsPort);
      expect(tm.output()).toContain(`Route 53   ${state.route53Endpoint}`);
      expect(tm.output()).toContain(`DynamoDB   ${state.dynamodbEndpoint}`);
      const route53 = new Route53Client({
        endpoint: state.route53Endpoint,
        region: 'us-east-1',
        credentials,
      });
      const zones = await route53.send(new ListHostedZonesByNameCommand({}));
      expect(zones.HostedZones?.map((z) => z.Name)).toEqual(['example.com.']);
      const dynamodb = new DynamoDBClient({
        endpoint: state.dynamodbEndpoint,
        region: 'us-east-1',
        credentials,
      });
      expect((await dynamodb.send(new ListTablesCommand({}))).TableNames).toContain(state.tableName);
      route53.destroy();
      dynamodb.destroy();
    });

    it('GET http://[::1 HTTP/1.1 to the local Route 53 is answered 400, and DNS keeps answering', async () => {
      const port = Number(new URL(stateOf(tm).route53Endpoint).port);
      const reply = await rawRequest(port, `GET http://[::1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      expect(reply.status).toBe(400);
      await new Promise((r) => setTimeout(r, 500));
      expect(isRunning(tm.child.pid as number)).toBe(true);
      const answer = await dig(tm.dnsPort, ['example.com', 'SOA']);
      expect(answer.status).toBe('NOERROR');
    });

    it('DynamoDB Local refuses browser requests (an Origin), and still serves the SDK', async () => {
      const port = Number(new URL(stateOf(tm).dynamodbEndpoint).port);
      const body = '{}';
      const reply = await rawRequest(
        port,
        `POST / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://evil.example\r\nContent-Type: text/plain\r\n` +
          `X-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      expect(reply.status).toBe(403);
      expect(reply.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('tm status --dns-port picks one of two running stacks; without it, the message names both', async () => {
      const second = await start(['--dns-port', '0'], { stateDir: tm.stateDir });
      const both = await tmStatus(tm.stateDir);
      expect(both.code).toBe(1);
      expect(both.stderr).toContain('2 local stacks are running; pick one with');
      expect(both.stderr).toContain(`--dns-port ${tm.dnsPort} (pid`);
      expect(both.stderr).toContain(`--dns-port ${second.dnsPort} (pid`);
      const picked = await tmStatus(tm.stateDir, '--dns-port', String(second.dnsPort), '--json');
      expect(picked.stderr).toBe('');
      expect(picked.code).toBe(0);
      expect(JSON.parse(picked.stdout)).toHaveProperty('profiles');
      second.child.kill('SIGINT');
      expect(await second.exited).toEqual({ code: 0, signal: null });
    });
  },
);

describe.skipIf(!procAvailable)('stops leave nothing behind', { timeout: 180_000 }, () => {
  /** Everything `tm` started (node, Java) is gone, and so are its listening sockets. */
  async function nothingLeft(tm: TmProcess, tree: readonly number[]) {
    await allGone(tm, tree);
    expect(listeningSockets(tree)).toEqual([]);
  }

  it.each(['npm start', 'npm exec'] as const)(
    'SIGTERM to the %s wrapper stops tm and DynamoDB Local, and removes the state file',
    async (launcher) => {
      const tm = await start(['--dns-port', '0'], { launcher });
      const tree = processTree(tm.child.pid as number);
      expect(tree.length).toBeGreaterThanOrEqual(3); // npm, (sh), node, java
      tm.child.kill('SIGTERM');
      await nothingLeft(tm, tree);
      expect(existsSync(statePath(tm))).toBe(false);
      stoppedQuietly(tm);
    },
  );

  /** tm said it was stopping, and nothing after that reads as a failure. */
  function stoppedQuietly(tm: TmProcess) {
    const [, ...afterStopping] = tm.output().split(/^stopping \(/m);
    expect(afterStopping, tm.output()).toHaveLength(1);
    const [, ...lines] = (afterStopping[0] as string).split('\n');
    expect(lines.filter((line) => /gone|error|fail|exited|ECONN|refused/i.test(line))).toEqual([]);
  }

  it.each(['node', 'npm start'] as const)(
    'Ctrl-C where keys are not read (stdin not a terminal): SIGINT to the whole foreground process group under %s stops quietly, exit code 0, nothing left',
    async (launcher) => {
      const tm = await start(['--dns-port', '0'], { launcher, processGroup: true });
      const tree = processTree(tm.child.pid as number);
      process.kill(-(tm.child.pid as number), 'SIGINT');
      const exit = await tm.exited;
      // npm's sh (dash) got the SIGINT too: once tm has exited it dies of it, and npm re-raises it.
      if (launcher === 'npm start' && exit.signal === 'SIGINT') expect(exit.code).toBeNull();
      else expect(exit).toEqual({ code: 0, signal: null });
      await nothingLeft(tm, tree);
      expect(existsSync(statePath(tm))).toBe(false);
      stoppedQuietly(tm);
    },
  );

  it('a stop signal sent to every process of the stack at once (DynamoDB Local too): exit code 0, quiet, nothing left', async () => {
    const tm = await start(['--dns-port', '0'], { processGroup: true });
    const tree = processTree(tm.child.pid as number);
    const java = dynamoDbLocalIn(tree);
    process.kill(-(tm.child.pid as number), 'SIGTERM');
    process.kill(java, 'SIGTERM');
    expect(await tm.exited).toEqual({ code: 0, signal: null });
    await nothingLeft(tm, tree);
    expect(existsSync(statePath(tm))).toBe(false);
    stoppedQuietly(tm);
  });

  it.skipIf(!scriptAvailable).each([
    ['q', 'q'],
    ['Ctrl-C', '\x03'],
  ])('in a terminal, the %s key stops quietly: exit code 0, nothing left', async (key, typed) => {
    const tm = await start(['--dns-port', '0'], { launcher: 'terminal', stdin: 'pipe' });
    await tm.waitFor(/Press q \(or Ctrl-C\) to stop everything/);
    const tree = processTree(tm.child.pid as number);
    tm.child.stdin?.write(typed);
    expect(await tm.exited).toEqual({ code: 0, signal: null });
    await nothingLeft(tm, tree);
    expect(existsSync(statePath(tm))).toBe(false);
    expect(tm.output()).toContain(`stopping (${key})`);
    stoppedQuietly(tm);
  });

  it('SIGKILL of tm: Java dies with it; the stale state file is ignored, then replaced by the next stack', async () => {
    const tm = await start(['--dns-port', String(await knownDnsPort())]);
    const tree = processTree(tm.child.pid as number);
    tm.child.kill('SIGKILL');
    await nothingLeft(tm, tree);
    expect(existsSync(statePath(tm))).toBe(true);
    const status = await tmStatus(tm.stateDir);
    expect(status.code).toBe(1);
    expect(status.stderr).toContain('no local stack is running');

    const next = await start(['--dns-port', String(tm.dnsPort)], { stateDir: tm.stateDir });
    expect(next.output()).toContain(`replaced the state file of a stack that is gone (pid ${tm.child.pid}`);
    expect(stateOf(next).pid).not.toBe(tm.child.pid);
    next.child.kill('SIGTERM');
    expect(await next.exited).toEqual({ code: 0, signal: null });
  });
});
