/** Starts `route53-child.ts` and talks to it: change notifications as they land, calls and records on request. */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Route53Call } from '../../../infra/local/route53/server.js';
import type { RecordSet } from '../../../shared/zone/record-set.js';

export interface LandedChange {
  /** Wall-clock epoch ms at which the batch was applied (same machine clock as the bench). */
  readonly at: number;
  readonly hostedZoneId: string;
  readonly changes: number;
  readonly resourceRecords: number;
  readonly valueCharacters: number;
}

export interface Route53Process {
  readonly endpoint: string;
  /** Every applied batch so far, in order. */
  readonly landed: readonly LandedChange[];
  /** Resolves when `landed` has at least `count` entries. */
  waitForLanded(count: number, timeoutMs?: number): Promise<LandedChange>;
  /** Calls received since the last `resetCalls`. */
  calls(): Promise<Route53Call[]>;
  resetCalls(): Promise<void>;
  records(): Promise<RecordSet[]>;
  stop(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));

export async function startRoute53Process(zoneId: string): Promise<Route53Process> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'route53-child.ts'), zoneId], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const landed: LandedChange[] = [];
  const waiters: { count: number; resolve: (change: LandedChange) => void }[] = [];
  const replies: ((message: Record<string, unknown>) => void)[] = [];
  let ready: (endpoint: string) => void = () => undefined;
  const endpoint = new Promise<string>((resolve, reject) => {
    ready = resolve;
    child.once('exit', (code) => reject(new Error(`local Route 53 process exited (${code})`)));
  });

  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as Record<string, unknown> & { type: string };
    if (message.type === 'ready') return ready(message.endpoint as string);
    if (message.type === 'change') {
      landed.push(message as unknown as LandedChange);
      for (const waiter of [...waiters]) {
        const change = landed[waiter.count - 1];
        if (change === undefined) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(change);
      }
      return;
    }
    replies.shift()?.(message);
  });

  const request = (command: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      replies.push(resolve);
      child.stdin.write(`${command}\n`);
    });

  return {
    endpoint: await endpoint,
    landed,
    waitForLanded(count, timeoutMs = 30_000) {
      const change = landed[count - 1];
      if (change !== undefined) return Promise.resolve(change);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no Route 53 change #${count} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: (c) => {
            clearTimeout(timer);
            resolve(c);
          },
        });
      });
    },
    calls: async () => (await request('calls')).calls as Route53Call[],
    resetCalls: async () => void (await request('reset')),
    records: async () => (await request('records')).records as RecordSet[],
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin.write('stop\n');
        setTimeout(() => child.kill('SIGKILL'), 3_000).unref();
      }),
  };
}
