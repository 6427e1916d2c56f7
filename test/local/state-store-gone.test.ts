/**
 * `tm local` as a real process when its state store (DynamoDB Local) goes away: it says so
 * once, keeps answering DNS from the last published records (fail static), and stops with
 * exit code 3 when the store does not come back — whether the Java process died or hangs.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dig, digAvailable } from './dns-fixtures.js';
import { isRunning, procAvailable, processTree } from '../support/sockets.js';
import { until } from '../support/eventually.js';
import type { TmProcess } from '../support/tm-process.js';
import { allGone, dynamoDbLocalIn, startTracked, statePath } from './tm-local-fixtures.js';

const start = startTracked();

describe.skipIf(!procAvailable || !digAvailable)('DynamoDB Local goes away under a running tm local', () => {
  /** A demo stack that has published shop.example.com, its process tree, and the A records DNS answers. */
  async function startPublished() {
    const tm = await start(['--dns-port', '0']);
    const tree = processTree(tm.child.pid as number);
    const java = dynamoDbLocalIn(tree);
    let before: readonly string[] = [];
    await until(
      async () => {
        before = await shopAnswers(tm);
        return before.length > 0;
      },
      60_000,
      () => `no A record for shop.example.com yet:\n${tm.output()}`,
    );
    return { tm, tree, java, before };
  }
  const shopAnswers = async (tm: TmProcess) =>
    (await dig(tm.dnsPort, ['shop.example.com', 'A'])).answers.map((a) => a.data);
  /** DNS still answers, from the records published before the store went away. */
  async function answersAsBefore(tm: TmProcess, before: readonly string[]) {
    const after = await dig(tm.dnsPort, ['shop.example.com', 'A']);
    expect(after.status).toBe('NOERROR');
    expect(after.answers.map((a) => a.data)).toEqual(before);
  }
  const GONE = /state store: DynamoDB Local at \S+ is gone \(.*fail static/;

  it(
    'dies: says so once, keeps answering DNS from the last records, and exits 3 when it does not come back',
    { timeout: 240_000 },
    async () => {
      // The demo runs at time scale 0.2: the store may stay gone 60 s × 0.2 = 12 s.
      const { tm, tree, java, before } = await startPublished();
      process.kill(java, 'SIGKILL');
      await tm.waitFor(GONE, 30_000);
      await answersAsBefore(tm, before);

      expect(await tm.exited).toEqual({ code: 3, signal: null });
      const output = tm.output();
      expect(output).toMatch(/did not come back within 12 s; stopping/);
      expect(output.match(/ is gone \(/g)).toHaveLength(1);
      // Before: one ECONNREFUSED line per failed call (hundreds a minute); now at most the one that noticed.
      expect((output.match(/ECONNREFUSED/g) ?? []).length).toBeLessThanOrEqual(1);
      await allGone(tm, tree);
      expect(existsSync(statePath(tm))).toBe(false);
    },
  );

  it(
    'is stopped (SIGSTOP): calls time out, tm says it is gone, keeps answering DNS, exits 3, leaves nothing',
    { timeout: 240_000 },
    async () => {
      const { tm, tree, java, before } = await startPublished();
      // The process keeps its port: connections are accepted by the kernel and never answered.
      process.kill(java, 'SIGSTOP');
      try {
        await tm.waitFor(GONE, 90_000);
        await answersAsBefore(tm, before);
        expect(await tm.exited).toEqual({ code: 3, signal: null });
        expect(tm.output()).toMatch(/did not come back within 12 s; stopping/);
        await allGone(tm, tree);
      } finally {
        if (isRunning(java)) process.kill(java, 'SIGKILL');
      }
    },
  );
});
