/**
 * `tm local` restarted with the same file and DNS port, as processes: the table is kept on
 * disk under the state directory, so the runtime controls, the history and the statuses with
 * their counts come back — a primary known to be dead is never answered after the restart
 * (dig in a tight loop from before the start) — and `--fresh` starts empty.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local.js';
import type { HistoryTransition } from '../../shared/history/view.js';
import { eventually } from '../support/eventually.js';
import { profileDefinition } from '../support/profiles.js';
import { tm, type TmResult } from '../support/tm.js';
import { knownDnsPort } from '../support/dns-port.js';
import { startTm, type TmProcess } from '../support/tm-process.js';
import { dig, digAvailable } from './dns-fixtures.js';

const PRIMARY = '127.0.0.71';
const SECONDARY = '127.0.0.72';
const TERTIARY = '127.0.0.73';

let dir = '';
let stack: TmProcess | undefined;
const servers: Server[] = [];

async function stop(): Promise<void> {
  if (stack === undefined || stack.child.exitCode !== null) return;
  stack.child.kill('SIGTERM');
  await stack.exited;
}

afterAll(async () => {
  await stop();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

function expectOk(result: TmResult): TmResult {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result;
}

describe.skipIf(!digAvailable)('tm local restarted on the same DNS port', { timeout: 400_000 }, () => {
  it('keeps runtime controls, history and statuses with their counts; a dead primary is never answered; --fresh starts empty', async () => {
    // Prepare: primary dead (nothing listens), secondary and tertiary up; tertiary disabled at runtime.
    dir = await mkdtemp(join(tmpdir(), 'tm-restart-'));
    const port = await freePort();
    for (const address of [SECONDARY, TERTIARY]) {
      const server = createServer((_req, res) => res.writeHead(200).end('ok'));
      await new Promise<void>((resolve) => server.listen(port, address, resolve));
      servers.push(server);
    }
    const file = join(dir, 'definitions.json');
    await writeFile(
      file,
      JSON.stringify([
        profileDefinition({
          name: 'app',
          dnsConfig: { ttl: 1 },
          monitorConfig: { port, intervalInSeconds: 10, timeoutInSeconds: 5 },
          endpoints: [
            { name: 'primary', target: PRIMARY },
            { name: 'secondary', target: SECONDARY },
            { name: 'tertiary', target: TERTIARY },
          ],
        }),
      ]),
    );
    const dnsPort = await knownDnsPort();
    const args = [file, '--dns-port', String(dnsPort), '--time-scale', '0.2'];
    const env = { TM_STATE_DIR: dir };
    const on = ['--dns-port', String(dnsPort)];
    stack = await startTm(args, { stateDir: dir });
    const firstStart = stack.output();
    await eventually(
      () => tm(['status', ...on], env),
      (status) =>
        / {2}primary +Degraded /.test(status.stdout) && / {2}secondary +Online /.test(status.stdout),
      60_000,
      (status) => `tm status said:\n${status.stdout}${status.stderr}`,
    );
    expectOk(await tm(['endpoint', 'disable', 'app/tertiary', '--reason', 'maintenance', ...on], env));
    const historyArgs = ['history', '--profile', 'app', '--since', '1h', '--json', ...on];
    const before = await eventually(
      async () =>
        (JSON.parse(expectOk(await tm(historyArgs, env)).stdout) as { transitions: HistoryTransition[] })
          .transitions,
      (transitions) => transitions.some((t) => t.endpoint === 'tertiary' && t.to === 'Disabled'),
      20_000,
      (transitions) => `history: ${JSON.stringify(transitions.map((t) => `${t.endpoint}:${t.to}`))}`,
    );
    await stop();

    // Act: start again with the same file and port, asking DNS from before the start.
    const restartedAt = new Date().toISOString();
    const seen: string[] = [];
    let firstAnswerAt: number | undefined;
    const asking = (async () => {
      const deadline = Date.now() + 150_000;
      while (Date.now() < deadline && (firstAnswerAt === undefined || Date.now() - firstAnswerAt < 4_000)) {
        const result = await dig(dnsPort, ['+time=1', 'app.example.com', 'A']);
        const values = result.answers.filter((a) => a.type === 'A').map((a) => a.data);
        seen.push(`${result.status} ${values.join(',')}`.trim());
        if (values.length > 0) firstAnswerAt ??= Date.now();
      }
    })();
    stack = await startTm(args, { stateDir: dir });
    await asking;

    // Assess: never the dead primary, never NXDOMAIN; the controls, history and counts are back.
    const answers = [...new Set(seen)];
    expect(answers).not.toContain(`NOERROR ${PRIMARY}`);
    expect(answers.filter((a) => a.startsWith('NXDOMAIN'))).toEqual([]);
    expect(answers).toContain(`NOERROR ${SECONDARY}`);
    const status = expectOk(await tm(['status', '--json', ...on], env));
    expect(
      (JSON.parse(status.stdout) as { controls: { statuses: unknown[] } }).controls.statuses,
    ).toMatchObject([
      { profile: 'app', endpoint: 'tertiary', status: 'Disabled', set: { reason: 'maintenance' } },
    ]);
    expect(expectOk(await tm(['status', ...on], env)).stdout).toMatch(/ {2}primary +Degraded /);
    const after = (
      JSON.parse(expectOk(await tm(historyArgs, env)).stdout) as { transitions: HistoryTransition[] }
    ).transitions;
    expect(after.map((t) => t.eventId)).toEqual(expect.arrayContaining(before.map((t) => t.eventId)));
    expect(firstStart).toContain(`table      new, kept in ${join(dir, `dynamodb-${dnsPort}`)}`);
    expect(stack.output()).toMatch(
      new RegExp(
        `table {6}kept in \\S+: restored 1 profile status, 1 runtime control, ${before.length} history entr`,
      ),
    );
    expect(
      after
        .filter((t) => t.at >= restartedAt && t.endpoint === 'primary')
        .map((t) => `${t.at} ${t.from} → ${t.to}: ${t.reason}`),
    ).toEqual([]);

    // --fresh: nothing kept.
    await stop();
    stack = await startTm([...args, '--fresh'], { stateDir: dir });
    expect(stack.output()).toContain(`table      new, kept in ${join(dir, `dynamodb-${dnsPort}`)}`);
    const fresh = expectOk(await tm(['status', '--json', ...on], env));
    expect((JSON.parse(fresh.stdout) as { controls: { statuses: unknown[] } }).controls.statuses).toEqual([]);
  });
});
