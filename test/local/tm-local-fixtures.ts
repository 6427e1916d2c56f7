/** What the tests of `tm local` as processes share: starting stacks that are killed after the file, and their process trees. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { isRunning, processTree } from '../support/sockets.js';
import { until } from '../support/eventually.js';
import { startTm, type TmProcess } from '../support/tm-process.js';

/** `startTm`, and every process of each stack it started SIGKILLed after the file's tests. */
export function startTracked(): (...args: Parameters<typeof startTm>) => Promise<TmProcess> {
  const started: TmProcess[] = [];
  afterAll(() => {
    for (const tm of started) {
      for (const pid of processTree(tm.child.pid as number).reverse()) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
    }
  });
  return async (...args) => {
    const tm = await startTm(...args);
    started.push(tm);
    return tm;
  };
}

export const statePath = (tm: TmProcess, port = tm.dnsPort) => join(tm.stateDir, `local-${port}.json`);

/** The pid of the DynamoDB Local Java process among `tree`. */
export function dynamoDbLocalIn(tree: readonly number[]): number {
  const java = tree.find((pid) =>
    readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('DynamoDbLocalLauncher'),
  );
  expect(java, `no DynamoDB Local among ${tree.join(', ')}`).toBeDefined();
  return java as number;
}

/** Everything `tm` started (node, Java) is gone. */
export async function allGone(tm: TmProcess, tree: readonly number[]): Promise<void> {
  await until(
    () => tree.every((pid) => !isRunning(pid)),
    20_000,
    () => `still running: ${tree.filter(isRunning).join(', ')}\n${tm.output()}`,
  );
}
