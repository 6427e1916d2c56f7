/**
 * `tm local` as a process, asked over real DNS (dig, in a tight loop) from before its DNS
 * server binds until the first answer: no query is ever answered NXDOMAIN. An empty zone's
 * NXDOMAIN carries the SOA's negative TTL (900 s), so a resolver asking in the moment between
 * the bind and the first publish would keep "no such name" for 15 minutes; until the first
 * publish has landed, the server answers SERVFAIL, which is not cached so.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { knownDnsPort } from '../support/dns-port.js';
import { profileDefinition } from '../support/profiles.js';
import { startTm, type TmProcess } from '../support/tm-process.js';
import { dig, digAvailable, type DigResult } from './dns-fixtures.js';

let dir = '';
let stack: TmProcess | undefined;

afterAll(async () => {
  if (stack !== undefined && stack.child.exitCode === null) {
    stack.child.kill('SIGTERM');
    await stack.exited;
  }
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!digAvailable)('tm local before its first publish', { timeout: 180_000 }, () => {
  it('answers no query NXDOMAIN: SERVFAIL (or nothing, before the bind) until the records are there', async () => {
    // Prepare
    dir = await mkdtemp(join(tmpdir(), 'tm-first-publish-'));
    const file = join(dir, 'definitions.json');
    await writeFile(
      file,
      JSON.stringify([
        profileDefinition({ name: 'app', endpoints: [{ name: 'primary', target: '127.0.0.61' }] }),
      ]),
    );
    const port = await knownDnsPort();

    // Act: dig in a loop from before the start until the answer holds the record.
    const seen: DigResult['status'][] = [];
    let answered = false;
    const asking = (async () => {
      const deadline = Date.now() + 150_000;
      while (!answered && Date.now() < deadline) {
        const result = await dig(port, ['+time=1', 'app.example.com', 'A']);
        seen.push(result.status);
        answered = result.status === 'NOERROR' && result.answers.some((a) => a.data === '127.0.0.61');
      }
    })();
    stack = await startTm([file, '--dns-port', String(port)], { stateDir: dir });
    await asking;

    // Assess
    const counts = Object.fromEntries([...new Set(seen)].map((s) => [s, seen.filter((x) => x === s).length]));
    console.log(`dig statuses from before the start to the first answer: ${JSON.stringify(counts)}`);
    expect(answered).toBe(true);
    expect(counts).not.toHaveProperty('NXDOMAIN');
    expect(counts.SERVFAIL ?? 0).toBeGreaterThan(0);
  });
});
