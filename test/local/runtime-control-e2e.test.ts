/**
 * Runtime control end to end, the way an operator does it: `tm local FILE` running as its
 * own process, `tm endpoint …` / `tm profile …` / `tm status` as separate processes, the
 * answers read with `dig`. A Priority profile's answer moves to the next endpoint after
 * `tm endpoint disable app/primary` (target 2 s; the time taken is printed) and comes back
 * after `enable`. The same
 * commands against "AWS" — `--table --region` with the SDK's endpoint overrides pointing
 * at the stack's DynamoDB Local and an STS stand-in — record the caller's ARN.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local.js';
import type { GuardedHttpServer } from '../../infra/local/http-guard.js';
import type { HistoryTransition } from '../../shared/history/view.js';
import { eventually } from '../support/eventually.js';
import { profileDefinition } from '../support/profiles.js';
import { startStsStandIn } from '../support/sts.js';
import { ROOT, tm, type TmResult } from '../support/tm.js';
import { compiledTm } from '../support/compiled-tm.js';
import { dig, digAvailable } from './dns-fixtures.js';

const PRIMARY = '127.0.0.41';
const SECONDARY = '127.0.0.42';
const ARN = 'arn:aws:iam::123456789012:user/alice';
/**
 * The bound that fails the test: the evaluator's usual latency is well under the 2 s target
 * (the measured figure is printed), but a CI machine running other stacks' tests at the same
 * time can stretch it; a lost or never-published change still fails here.
 */
const PUBLISH_WITHIN_MS = 10_000;

let dir = '';
let local: ChildProcess | undefined;
let output = '';
let dnsPort = 0;
let dynamodbEndpoint = '';
let sts: GuardedHttpServer;
const servers: Server[] = [];
const env = () => ({ TM_STATE_DIR: dir });
const awsEnv = () => ({
  ...env(),
  AWS_ENDPOINT_URL_DYNAMODB: dynamodbEndpoint,
  AWS_ENDPOINT_URL_STS: sts.endpoint,
  AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
  AWS_SECRET_ACCESS_KEY: 'secret',
});
const aws = ['--table', 'traffic-manager', '--region', 'us-east-1'];

async function answers(): Promise<{ status: string; values: string[] }> {
  const result = await dig(dnsPort, ['app.example.com', 'A']);
  return { status: result.status, values: result.answers.filter((a) => a.type === 'A').map((a) => a.data) };
}

/** Polls dig until `accept`, failing after `withinMs`; returns how long it took. */
async function answersWithin(accept: (a: { status: string; values: string[] }) => boolean, withinMs: number) {
  const started = Date.now();
  let last = await answers();
  while (!accept(last)) {
    if (Date.now() - started > withinMs)
      throw new Error(`DNS did not change within ${withinMs} ms; it answers ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
    last = await answers();
  }
  return Date.now() - started;
}

const answersOnly = (value: string) => (a: { values: string[] }) => a.values.join() === value;

function expectOk(result: TmResult): TmResult {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result;
}

describe.skipIf(!digAvailable)('runtime control in tm local, over real DNS', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tm-control-'));
    const port = await freePort();
    for (const address of [PRIMARY, SECONDARY]) {
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
          // Today's path, whose records (and history) are at the name itself.
          staticFailover: false,
          dnsConfig: { ttl: 1 },
          monitorConfig: { port, intervalInSeconds: 10, timeoutInSeconds: 5 },
          endpoints: [
            { name: 'primary', target: PRIMARY },
            { name: 'secondary', target: SECONDARY },
          ],
        }),
      ]),
    );
    sts = await startStsStandIn(ARN);
    local = spawn(
      process.execPath,
      [await compiledTm(), 'local', file, '--dns-port', '0', '--time-scale', '0.2'],
      {
        cwd: ROOT,
        env: { ...process.env, ...env() },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    local.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    local.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 90_000;
    while (!/Ctrl-C stops everything/.test(output)) {
      if (Date.now() > deadline || local.exitCode !== null)
        throw new Error(`tm local did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    dnsPort = Number(/DNS {8}127\.0\.0\.1:(\d+)/.exec(output)?.[1]);
    dynamodbEndpoint = /DynamoDB {3}(http:\/\/\S+)/.exec(output)?.[1] ?? '';
    await answersWithin(answersOnly(PRIMARY), 60_000);
    // DNS answers primary while it is still CheckingEndpoint (it counts as up); the tests start
    // from an Online primary, so wait for the checks to decide it.
    await eventually(
      () => tm(['status', '--dns-port', String(dnsPort)], env()),
      (status) => / {2}primary +Online /.test(status.stdout),
      60_000,
      (status) => `tm status said:\n${status.stdout}${status.stderr}`,
    );
  }, 120_000);

  afterAll(async () => {
    if (local !== undefined && local.exitCode === null) {
      const exited = new Promise((resolve) => local?.once('exit', resolve));
      local.kill('SIGTERM');
      await exited;
    }
    await sts?.stop();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    await rm(dir, { recursive: true, force: true });
  });

  it('tm endpoint disable app/primary: the answer moves to secondary (target 2 s, printed); enable brings it back', async () => {
    const disabled = expectOk(
      await tm(
        ['endpoint', 'disable', 'app/primary', '--dns-port', String(dnsPort), '--reason', 'patching'],
        env(),
      ),
    );
    expect(disabled.stdout).toContain('app/primary disabled: not probed, not in DNS answers');
    const movedMs = await answersWithin(answersOnly(SECONDARY), PUBLISH_WITHIN_MS);

    const status = expectOk(await tm(['status', '--dns-port', String(dnsPort)], env()));
    expect(status.stdout).toMatch(
      / {2}primary +Disabled .*endpoint disabled at runtime by \S+ at .*: "patching": not monitored/,
    );
    expect(status.stdout).toMatch(/runtime: Disabled by \S+ at \S+: "patching"/);

    const enabled = expectOk(
      await tm(['endpoint', 'enable', 'app/primary', '--dns-port', String(dnsPort)], env()),
    );
    expect(enabled.stdout).toContain(
      'app/primary enabled: CheckingEndpoint until checks made from now on decide',
    );
    const backMs = await answersWithin(answersOnly(PRIMARY), PUBLISH_WITHIN_MS);
    console.log(`disable → DNS ${movedMs} ms after the command returned; enable → DNS ${backMs} ms`);

    // Both changes are in the history, newest first, with who and why and the DNS change.
    // History is written when the outbox is drained, once Route 53 reports the change
    // INSYNC, so it may follow the DNS answer by a moment: read it until both are there.
    const historyArgs = ['history', '--profile', 'app', '--endpoint', 'primary', '--since', '1h', '--json'];
    let transitions: HistoryTransition[] = [];
    for (const started = Date.now(); Date.now() - started < PUBLISH_WITHIN_MS;) {
      const history = expectOk(await tm([...historyArgs, '--dns-port', String(dnsPort)], env()));
      ({ transitions } = JSON.parse(history.stdout) as { transitions: HistoryTransition[] });
      const disabled = transitions.findIndex((t) => t.to === 'Disabled');
      if (disabled > 0 && transitions.slice(0, disabled).some((t) => t.to === 'CheckingEndpoint')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const disabledAt = transitions.findIndex((t) => t.from === 'Online' && t.to === 'Disabled');
    expect(disabledAt).toBeGreaterThan(0);
    expect(transitions.slice(0, disabledAt).map((t) => t.to)).toContain('CheckingEndpoint');
    const disabledTransition = transitions[disabledAt]!;
    expect(disabledTransition).toMatchObject({
      profile: 'app',
      endpoint: 'primary',
      reason: expect.stringMatching(
        /^endpoint disabled at runtime by \S+ at \S+: "patching": not monitored$/,
      ),
      recordsChanged: [{ action: 'UPSERT', name: 'app.example.com', type: 'A', values: [SECONDARY] }],
    });
    const { decidedAt, changeSubmittedAt } = disabledTransition.timing;
    expect(Date.parse(disabledTransition.at)).toBe(Date.parse(decidedAt));
    expect(Date.parse(changeSubmittedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(decidedAt));
    const ats = transitions.map((t) => Date.parse(t.at));
    expect(ats).toEqual([...ats].sort((a, b) => b - a));

    const human = expectOk(await tm(['history', '--profile', 'app', '--dns-port', String(dnsPort)], env()));
    expect(human.stdout).toMatch(
      /^\S+Z {2}app\/primary {2}Online → Disabled {2}endpoint disabled at runtime/m,
    );
    expect(human.stdout).toContain(`  dns UPSERT app.example.com A ${SECONDARY}`);
    expect(human.stdout).toMatch(/^ {2}timing decided \S+Z → submitted \+\d+\.\d s/m);
  });

  it('tm endpoint override --status Degraded --for 10m: the next endpoint answers; clear ends it', async () => {
    const port = ['--dns-port', String(dnsPort)];
    expectOk(
      await tm(
        [
          'endpoint',
          'override',
          'app/primary',
          '--status',
          'degraded',
          '--for',
          '10m',
          '--reason',
          'drain',
          ...port,
        ],
        env(),
      ),
    );
    await answersWithin(answersOnly(SECONDARY), PUBLISH_WITHIN_MS);
    const status = expectOk(await tm(['status', '--json', ...port], env()));
    expect(
      (JSON.parse(status.stdout) as { controls: { overrides: unknown[] } }).controls.overrides,
    ).toMatchObject([{ profile: 'app', endpoint: 'primary', status: 'Degraded', set: { reason: 'drain' } }]);
    expectOk(await tm(['endpoint', 'clear', 'app/primary', ...port], env()));
    await answersWithin(answersOnly(PRIMARY), PUBLISH_WITHIN_MS);
  });

  it('against AWS (--table --region): the caller ARN from STS is recorded; profile disable answers NXDOMAIN', async () => {
    const disabled = expectOk(
      await tm(['profile', 'disable', 'app', ...aws, '--reason', 'migration'], awsEnv()),
    );
    expect(disabled.stdout).toContain(`by ${ARN}`);
    await answersWithin((a) => a.status === 'NXDOMAIN', PUBLISH_WITHIN_MS);

    const status = expectOk(await tm(['status', ...aws, '--json'], awsEnv()));
    expect(
      (JSON.parse(status.stdout) as { controls: { statuses: unknown[] } }).controls.statuses,
    ).toMatchObject([{ profile: 'app', status: 'Disabled', set: { by: ARN, reason: 'migration' } }]);

    expectOk(await tm(['profile', 'enable', 'app', ...aws], awsEnv()));
    await answersWithin(answersOnly(PRIMARY), PUBLISH_WITHIN_MS);

    // tm history reads the same table through --table --region.
    const history = expectOk(await tm(['history', ...aws, '--since', '10m', '--json'], awsEnv()));
    const { transitions } = JSON.parse(history.stdout) as { transitions: HistoryTransition[] };
    expect(transitions.find((t) => t.endpoint === undefined && t.to === 'Disabled')).toMatchObject({
      profile: 'app',
      from: 'Online',
    });
  });

  it('asking again for what already holds changes nothing and says so', async () => {
    const again = expectOk(
      await tm(['endpoint', 'enable', 'app/primary', '--dns-port', String(dnsPort)], env()),
    );
    expect(again.stdout).toMatch(
      /^app\/primary is already enabled in the definitions \(control version \d+\)\n$/,
    );
  });

  it('racing disable/enable pairs through the CLI: the command that committed last decides the state, DNS follows, history is unbroken', async () => {
    const port = ['--dns-port', String(dnsPort)];
    const since = new Date().toISOString();
    const versionOf = (result: TmResult) => {
      const match = /control version (\d+)/.exec(result.stdout);
      if (match === null) throw new Error(`no control version in: ${result.stdout}${result.stderr}`);
      return { version: Number(match[1]), wrote: !/already/.test(result.stdout) };
    };
    for (let pair = 0; pair < 6; pair++) {
      // Prepare: half the pairs disable then enable, half the reverse, each from the state its first command changes.
      const [first, second] = pair % 2 === 0 ? ['disable', 'enable'] : ['enable', 'disable'];
      const settled = await tm(['endpoint', second, 'app/primary', ...port], env());
      expectOk(settled);

      // Act: the second command 30 ms after the first, both running at once.
      const [a, b] = await Promise.all([
        tm(['endpoint', first, 'app/primary', ...port], env()),
        new Promise((resolve) => setTimeout(resolve, 30)).then(() =>
          tm(['endpoint', second, 'app/primary', ...port], env()),
        ),
      ]);

      // Assess: the later commit decides (a check holds at the version the write before it made).
      const [va, vb] = [versionOf(expectOk(a)), versionOf(expectOk(b))];
      const last = vb.version > va.version || (vb.version === va.version && !vb.wrote) ? second : first;
      await answersWithin(answersOnly(last === 'disable' ? SECONDARY : PRIMARY), PUBLISH_WITHIN_MS);
      const status = expectOk(await tm(['status', '--json', ...port], env()));
      const disabled = (
        JSON.parse(status.stdout) as { controls: { statuses: { endpoint?: string; status?: string }[] } }
      ).controls.statuses.some((c) => c.endpoint === 'primary' && c.status === 'Disabled');
      expect({ pair, first, a: a.stdout, b: b.stdout, disabled }).toMatchObject({
        disabled: last === 'disable',
      });
    }

    // History: every change of app/primary since, each starting where the one before ended.
    const historyArgs = [
      'history',
      '--profile',
      'app',
      '--endpoint',
      'primary',
      '--since',
      '1h',
      '--json',
      ...port,
    ];
    const history = expectOk(await tm(historyArgs, env()));
    const transitions = (JSON.parse(history.stdout) as { transitions: HistoryTransition[] }).transitions
      .filter((t) => t.at >= since)
      .reverse();
    expect(transitions.length).toBeGreaterThan(0);
    for (let i = 1; i < transitions.length; i++) expect(transitions[i]?.from).toBe(transitions[i - 1]?.to);
    expectOk(await tm(['endpoint', 'enable', 'app/primary', ...port], env()));
  }, 300_000);

  it('an unknown endpoint: exit 1 naming what is deployed', async () => {
    const result = await tm(['endpoint', 'disable', 'app/nope', '--dns-port', String(dnsPort)], env());
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'tm endpoint disable: profile "app" has no endpoint "nope" (endpoints: primary, secondary)\n',
    );
  });
});
