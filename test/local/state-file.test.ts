/**
 * The local stack's state files: one per DNS port, in a private directory, carrying both
 * endpoints; files of stacks that are gone (dead pid, or a pid reused by another program)
 * are ignored and replaced; with several stacks, a DNS port picks one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  processStartOf,
  removeStateFile,
  runningStacks,
  selectRunningStack,
  stateFilePath,
  writeStateFile,
} from '../../infra/local/state-file.js';

let directory: string;
const children: ChildProcess[] = [];
const pointer = (dnsPort: number) => ({
  dnsPort,
  route53Endpoint: `http://127.0.0.1:${dnsPort + 1}`,
  dynamodbEndpoint: `http://127.0.0.1:${dnsPort + 2}`,
  tableName: 'traffic-manager',
});
/** A live process other than this one, to stand for another running stack. */
function otherProcess(): number {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  children.push(child);
  return child.pid as number;
}
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'tm-state-'));
  process.env.TM_STATE_DIR = directory;
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { mode: 0o700 });
});
afterAll(() => {
  delete process.env.TM_STATE_DIR;
  for (const child of children) child.kill('SIGKILL');
});

describe('local stack state files', () => {
  it('one file per DNS port, mode 0600, with route53Endpoint and dynamodbEndpoint', () => {
    writeStateFile(pointer(5353));
    const path = stateFilePath(5353);
    expect(path).toBe(join(directory, 'local-5353.json'));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({
      ...pointer(5353),
      pid: process.pid,
    });
    expect(runningStacks().map((s) => s.dnsPort)).toEqual([5353]);
  });

  it('a file left by a killed stack is ignored, and replaced by the next stack on that port', async () => {
    const pid = await deadPid();
    writeFileSync(stateFilePath(5353), JSON.stringify({ ...pointer(5353), pid, startedAt: 'then' }));
    expect(runningStacks()).toEqual([]);
    expect(selectRunningStack()).toEqual({ problem: 'no local stack is running' });
    const replaced = writeStateFile(pointer(5353));
    expect(replaced?.pid).toBe(pid);
    expect(runningStacks().map((s) => s.pid)).toEqual([process.pid]);
  });

  it.skipIf(processStartOf(process.pid) === undefined)(
    'a file whose pid now belongs to another program (other start time) is ignored',
    () => {
      writeFileSync(
        stateFilePath(5353),
        JSON.stringify({ ...pointer(5353), pid: process.pid, startedAt: 'then', processStart: 1 }),
      );
      expect(runningStacks()).toEqual([]);
    },
  );

  it('with several stacks running, none picked: the message names each; --dns-port picks one', () => {
    writeStateFile(pointer(5353));
    writeStateFile({ ...pointer(5354), pid: otherProcess() });
    const none = selectRunningStack();
    expect('problem' in none && none.problem).toMatch(
      /^2 local stacks are running; pick one with --dns-port 5353 \(pid \d+, since .*\), --dns-port 5354 \(pid \d+, since .*\)$/,
    );
    const picked = selectRunningStack(5354);
    expect('stack' in picked && picked.stack.route53Endpoint).toBe('http://127.0.0.1:5355');
    const missing = selectRunningStack(5399);
    expect('problem' in missing && missing.problem).toMatch(
      /^no local stack is running on DNS port 5399; running: /,
    );
  });

  it('a stack removes its own file only, never another stack’s', () => {
    const other = otherProcess();
    writeStateFile({ ...pointer(5353), pid: other });
    removeStateFile(5353);
    expect(runningStacks().map((s) => s.pid)).toEqual([other]);
    removeStateFile(5353, other);
    expect(runningStacks()).toEqual([]);
  });
});
