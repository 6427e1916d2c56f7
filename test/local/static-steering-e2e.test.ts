/**
 * Steering without the control plane, in the local stack, over real DNS: with the Route 53 API
 * and the home region both down, `tm endpoint disable` and `override --status Degraded` still
 * take a healthy Priority primary out of DNS — through the probe regions' CloudWatch, which
 * Route 53's health checks follow — and `enable` / `clear` bring it back; no record change
 * succeeds meanwhile. Once through the local stack's state file (`tm` as an operator runs it
 * beside `tm local`), once as against a deployment whose table is unreachable (`--table`, the
 * SDK's endpoint settings, `--definitions` and `--probe-regions`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEERING_SECONDS } from '../../infra/cli/data-plane-steering.js';
import { startLocalStack, statePointerOf, type LocalStack } from '../../infra/local/stack.js';
import { removeStateFile, writeStateFile } from '../../infra/local/state-file.js';
import { GUARD_FLIP_SECONDS, VOTE_PERIOD_SECONDS } from '../../shared/monitor/failover-time.js';
import { parseDefinitionsOrThrow } from '../support/parse-definitions.js';
import { eventually } from '../support/eventually.js';
import { startSwitchableBackends, type SwitchableBackends } from '../support/loopback-backend.js';
import { profileDefinition } from '../support/profiles.js';
import { tm, tmInProcess } from '../support/tm.js';
import { dig, digAvailable } from './dns-fixtures.js';

const SCALE = 0.1;
const PRIMARY = '127.0.0.71';
const SECONDARY = '127.0.0.72';
const REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-1'];
const MONITOR = { intervalInSeconds: 10, timeoutInSeconds: 5, toleratedNumberOfFailures: 1 } as const;
const ms = (seconds: number) => seconds * 1000 * SCALE;
/** Slack for a loaded machine: the stack's minute timers and the stream are not exact. */
const SLACK_MS = 15_000;

describe.skipIf(!digAvailable)('steering during an outage of the Route 53 API and the home region', () => {
  let stack: LocalStack;
  let backends: SwitchableBackends;
  let stateDir: string;
  let definitions: string;
  let faultedAt: number;

  const answers = async () =>
    (await dig(stack.dnsPort, ['shop.example.com', 'A'])).answers.map((a) => a.data);
  const answering = (address: string, boundMs: number) =>
    eventually(answers, (a) => a.join() === address, boundMs);
  const held = async () => {
    const status = await tmInProcess('status', '--json', '--dns-port', String(stack.dnsPort));
    return (JSON.parse(status.stdout) as { dataPlane: { overrides: unknown[] } }).dataPlane.overrides;
  };
  const succeededChanges = (since: number) =>
    stack.route53.calls.filter(
      (c) => c.operation === 'ChangeResourceRecordSets' && c.at >= since && c.status < 300,
    );
  /** As against a deployment: the table's endpoint refuses connections, CloudWatch is the stack's. */
  const awsTm = (...args: string[]) =>
    tm(
      [
        ...args,
        '--table',
        stack.tableName,
        '--region',
        'us-east-1',
        '--definitions',
        definitions,
        '--probe-regions',
        REGIONS.join(','),
      ],
      {
        AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9', // discard: nothing listens, as a dead region
        AWS_ENDPOINT_URL_STS: 'http://127.0.0.1:9',
        AWS_ENDPOINT_URL_CLOUDWATCH: stack.cloudWatchEndpoint,
        AWS_ACCESS_KEY_ID: 'local',
        AWS_SECRET_ACCESS_KEY: 'local',
        AWS_MAX_ATTEMPTS: '1',
        STATIC_FAILOVER_DEPLOYMENT: 'local',
        TM_STATE_DIR: stateDir,
      },
    );

  beforeAll(async () => {
    backends = await startSwitchableBackends([PRIMARY, SECONDARY]);
    const port = backends.port;
    const definition = [
      profileDefinition({
        name: 'shop',
        dnsConfig: { ttl: 5 },
        monitorConfig: { port, ...MONITOR },
        endpoints: [
          { name: 'primary', target: PRIMARY, priority: 1 },
          { name: 'secondary', target: SECONDARY, priority: 2 },
        ],
      }),
    ];
    stateDir = mkdtempSync(join(tmpdir(), 'tm-steering-'));
    definitions = join(stateDir, 'definitions.json');
    writeFileSync(definitions, JSON.stringify(definition));
    stack = await startLocalStack({
      profiles: parseDefinitionsOrThrow(definition),
      dnsPort: 0,
      timeScale: SCALE,
      regions: REGIONS,
    });
    // What `tm local` writes: the CLI finds this stack through it.
    process.env.TM_STATE_DIR = stateDir;
    writeStateFile(statePointerOf(stack));
    await answering(PRIMARY, 60_000);
    // Both outages; the guard turns unhealthy (the evaluator is silent) and DNS answers from the
    // static path — still the primary: its health checks follow its (healthy) votes.
    stack.faults.inject('route53-api');
    stack.faults.inject('home-region');
    faultedAt = Date.now();
  }, 120_000);

  afterAll(async () => {
    if (stack !== undefined) removeStateFile(stack.dnsPort);
    await stack?.stop();
    await backends?.close();
    delete process.env.TM_STATE_DIR;
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('tm endpoint disable takes the healthy primary out through CloudWatch; enable brings it back', async () => {
    const disabled = await tmInProcess(
      'endpoint',
      'disable',
      'shop/primary',
      '--reason',
      'region drain',
      '--dns-port',
      String(stack.dnsPort),
    );
    expect(disabled.stderr).toMatch(/could not change the local stack/);
    expect(disabled.stdout).toMatch(
      /data plane: shop\/primary forced unhealthy by its vote alarm \(t-[0-9a-f]{16}\) in ap-southeast-1, eu-west-1, us-east-1; .* held until tm endpoint enable or clear/,
    );
    expect(disabled.code).toBe(0);
    const steeredAt = Date.now();
    // tm status, with the home region unreachable, shows the override holding the alarms.
    expect(await held()).toEqual([
      expect.objectContaining({ subject: 'shop/primary', status: 'Degraded', regions: [...REGIONS].sort() }),
    ]);
    // Whichever is later: the guard's flip after the faults, or the alarm's evaluation and pickup.
    const bound = Math.max(faultedAt + ms(GUARD_FLIP_SECONDS), steeredAt + ms(STEERING_SECONDS)) - steeredAt;
    await answering(SECONDARY, bound + SLACK_MS);

    const enabled = await tmInProcess(
      'endpoint',
      'enable',
      'shop/primary',
      '--dns-port',
      String(stack.dnsPort),
    );
    expect(enabled.stdout).toMatch(
      /data plane: shop\/primary's vote alarm \(t-[0-9a-f]{16}\) back to the probes' votes in ap-southeast-1, eu-west-1, us-east-1/,
    );
    expect(enabled.code).toBe(0);
    expect(await held()).toEqual([]);
    // The restored alarm needs a minute of up votes, then its evaluation and the pickup.
    await answering(PRIMARY, ms(VOTE_PERIOD_SECONDS + STEERING_SECONDS) + SLACK_MS);
    expect(succeededChanges(faultedAt)).toEqual([]);
  }, 180_000);

  it('against a deployment whose table is unreachable: override Degraded with --definitions, then clear', async () => {
    const overridden = await awsTm(
      'endpoint',
      'override',
      'shop/primary',
      '--status',
      'Degraded',
      '--for',
      '1h',
      '--reason',
      'drain',
    );
    expect(overridden.stderr).toMatch(/could not change table/);
    expect(overridden.stdout).toMatch(
      /data plane: shop\/primary forced unhealthy .* held until \d{4}-\d\d-\d\dT/,
    );
    expect(overridden.code).toBe(0);
    await answering(SECONDARY, ms(STEERING_SECONDS) + SLACK_MS);

    const cleared = await awsTm('endpoint', 'clear', 'shop/primary');
    expect(cleared.stdout).toMatch(/back to the probes' votes in ap-southeast-1, eu-west-1, us-east-1/);
    expect(cleared.code).toBe(0);
    await answering(PRIMARY, ms(VOTE_PERIOD_SECONDS + STEERING_SECONDS) + SLACK_MS);
    expect(succeededChanges(faultedAt)).toEqual([]);
  }, 180_000);

  it('a whole profile cannot be steered through the data plane: it says so and fails', async () => {
    const disabled = await tmInProcess('profile', 'disable', 'shop', '--dns-port', String(stack.dnsPort));
    expect(disabled.stdout).toMatch(/a whole profile cannot be steered there/);
    expect(disabled.code).toBe(1);
    expect(await answers()).toEqual([PRIMARY]);
  });
});
