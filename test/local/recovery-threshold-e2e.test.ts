/**
 * End-to-end over real DNS (`dig`) for monitorConfig.requiredSuccessesToRecover: the whole
 * local stack (real probe worker against a loopback backend, the evaluator on DynamoDB
 * Local's stream, the local Route 53, the DNS server). With a threshold of 3, an endpoint
 * that recovers stays out of the answer until its 3rd successful check in a row; two lucky
 * checks followed by a failure do not bring it back. One probe region, so every check the
 * backend answers is that region's. Time scale 0.2: a check every 2 s. The waits are
 * bounded by counts of checks the backend answered, not by the clock.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local.js';
import { startLocalStack, type LocalStack } from '../../infra/local/stack.js';
import { parseDefinitionsOrThrow } from '../support/parse-definitions.js';
import { profileDefinition } from '../support/profiles.js';
import { dig, digAvailable } from './dns-fixtures.js';

const TIME_SCALE = 0.2;
const PRIMARY = '127.0.0.41';
const BACKUP = '127.0.0.42';
/** Generous for a loaded machine: a check every 2 s, and what follows it. */
const WAIT_MS = 60_000;

/** How the primary answers its next checks: `ok` successes first (then failures), or always 200. */
let primary: { ok: number | 'always' } = { ok: 'always' };
let answered = { ok: 0, failed: 0 };
const servers: Server[] = [];
let stack: LocalStack;

async function answers(): Promise<string[]> {
  const result = await dig(stack.dnsPort, ['shop.example.com', 'A']);
  return result.answers.filter((a) => a.type === 'A').map((a) => a.data);
}

/** Sets how the primary answers from now on and resets the counts of what it answered. */
function primaryAnswers(ok: number | 'always'): void {
  primary = { ok };
  answered = { ok: 0, failed: 0 };
}

/** Polls DNS until `done()`; returns every answer seen, with the checks answered by then. */
async function watchDns(done: (answer: string[]) => boolean) {
  const seen: { answer: string[]; ok: number; failed: number }[] = [];
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const counts = { ...answered };
    const answer = await answers();
    seen.push({ answer, ...counts });
    if (done(answer)) return seen;
    if (Date.now() > deadline)
      throw new Error(`not within ${WAIT_MS} ms; last ${JSON.stringify(seen.at(-1))}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!digAvailable)('requiredSuccessesToRecover over real DNS', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    const port = await freePort();
    const primaryServer = createServer((_req, res) => {
      const ok = primary.ok === 'always' || answered.ok < primary.ok;
      if (ok) answered.ok++;
      else answered.failed++;
      res.writeHead(ok ? 200 : 503).end();
    });
    const backupServer = createServer((_req, res) => res.writeHead(200).end());
    await new Promise<void>((resolve) => primaryServer.listen(port, PRIMARY, resolve));
    await new Promise<void>((resolve) => backupServer.listen(port, BACKUP, resolve));
    servers.push(primaryServer, backupServer);
    stack = await startLocalStack({
      profiles: parseDefinitionsOrThrow([
        profileDefinition({
          name: 'shop',
          dnsConfig: { ttl: 1 },
          monitorConfig: {
            port,
            intervalInSeconds: 10,
            timeoutInSeconds: 5,
            toleratedNumberOfFailures: 0,
            requiredSuccessesToRecover: 3,
          },
          probeRegions: ['us-east-1'],
          endpoints: [
            { name: 'primary', target: PRIMARY },
            { name: 'backup', target: BACKUP },
          ],
        }),
      ]),
      dnsPort: 0,
      timeScale: TIME_SCALE,
      log: () => undefined,
    });
    await stack.published; // DNS answers SERVFAIL until the first publish
    await watchDns((answer) => answer[0] === PRIMARY);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it('leaves the recovered endpoint out of DNS until its 3rd successful check in a row', async () => {
    // Prepare: the primary fails; one failed check (tolerated 0) takes it out.
    primaryAnswers(0);
    await watchDns((answer) => answer[0] === BACKUP);

    // Act 1: two successes, then failures again — until it has failed twice after them.
    primaryAnswers(2);
    const lucky = await watchDns(() => answered.failed >= 2);
    // Assess 1: never the primary (a dig that timed out on a loaded machine saw nothing).
    expect(lucky.filter((s) => s.answer.includes(PRIMARY))).toEqual([]);
    expect(lucky.some((s) => s.answer[0] === BACKUP)).toBe(true);
    expect(answered.ok).toBe(2);

    // Act 2: the primary recovers for good.
    const seen = stack.events.length;
    primaryAnswers('always');
    const recovery = await watchDns((answer) => answer[0] === PRIMARY);
    // Assess 2: still out after 0, 1 and 2 successes; back only once 3 were answered.
    const firstBack = recovery.at(-1)!;
    expect(firstBack.ok).toBeGreaterThanOrEqual(3);
    expect(recovery.filter((s) => s.ok < 3 && s.answer.includes(PRIMARY))).toEqual([]);
    // The zone changes first; the status event follows from the same evaluation.
    const onlineEvents = () =>
      stack.events.slice(seen).filter((e) => e.endpoint === 'primary' && e.to === 'Online');
    await watchDns(() => onlineEvents().length > 0);
    const online = onlineEvents();
    expect(online).toHaveLength(1);
    expect(online[0]!.from).toBe('Degraded');
    expect(online[0]!.votes[0]!.detail).toBe('3 consecutive successes (3 needed to recover)');
    console.info(
      `recovery: DNS answered the primary again with ${firstBack.ok} successful checks answered (3 needed)`,
    );
  });
});
