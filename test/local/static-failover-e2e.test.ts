/**
 * Static failover under the outages it exists for, in the local stack, over real DNS.
 *
 * First the faults themselves, through the real CLI against a running `tm local` (the demo):
 * `tm fault inject|clear|list`, faults combined; `route53-api` refuses every API call (503)
 * while dig keeps answering today's records; `home-region` stops the evaluator, so a backend
 * going down changes nothing in DNS through today's path until the fault is cleared. (The
 * failover under each fault: static-failover-faults-e2e.test.ts.)
 */
import { ListHostedZonesByNameCommand } from '@aws-sdk/client-route-53';
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoDbClient, route53Client } from '../../functions/shared/aws-clients.js';
import { readDeployedConfig } from '../../functions/shared/config-reader.js';
import { planStaticFailover } from '../../shared/static-failover/plan.js';
import { DEMO_CONTROL_HEADER } from '../../infra/local/demo.js';
import type { LocalStackPointer } from '../../infra/local/state-file.js';
import { dig, digAvailable } from './dns-fixtures.js';
import { eventually } from '../support/eventually.js';
import { processTree } from '../support/sockets.js';
import { request } from 'node:http';
import { REPO, startTm, type TmProcess } from '../support/tm-process.js';
import { compiledTm } from '../support/compiled-tm.js';
import { tmInProcessWith } from '../support/tm.js';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const EAST = '127.0.0.11';
const WEST = '127.0.0.12';
/** The demo's failover: 3 failed checks 2 s apart (≈ 6 s), plus the stream and the publish. */
const DEMO_FAILOVER_MS = 15_000;

let tm: TmProcess;
let state: LocalStackPointer;
let demoControl: string;

/** `tm ARGS --dns-port N` as a user runs it, against this stack's state directory. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [await compiledTm(), ...args, '--dns-port', String(tm.dnsPort)],
      { cwd: REPO, env: { ...process.env, TM_STATE_DIR: tm.stateDir }, timeout: 30_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** `tm status --json` in this process, for polling (tmInProcessWith). */
const statusInProcess = async () =>
  (await tmInProcessWith({ TM_STATE_DIR: tm.stateDir }, 'status', '--json', '--dns-port', String(tm.dnsPort)))
    .stdout;

const answers = async () => (await dig(tm.dnsPort, ['shop.example.com', 'A'])).answers.map((a) => a.data);

/** The demo's control port (node:http: fetch's Sec-Fetch headers are refused as a browser's). */
function setBackend(name: string, up: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${demoControl}/${up ? 'up' : 'down'}/${name}`, {
      method: 'POST',
      headers: { [DEMO_CONTROL_HEADER]: '1' },
    });
    req.on('response', (res) => {
      res.resume();
      if (res.statusCode === 200) resolve();
      else reject(new Error(`demo control answered ${res.statusCode}`));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  tm = await startTm(['--dns-port', '0']);
  state = JSON.parse(
    readFileSync(join(tm.stateDir, `local-${tm.dnsPort}.json`), 'utf8'),
  ) as LocalStackPointer;
  demoControl = (await tm.waitFor(/curl -X POST -H '[^']+' (http:\/\/127\.0\.0\.1:\d+)\/toggle/))[1] ?? '';
  await eventually(answers, (a) => a.join() === EAST, 60_000);
}, 180_000);

const others: TmProcess[] = [];
afterAll(() => {
  for (const pid of [tm, ...others].flatMap((p) => processTree(p.child.pid as number).reverse())) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
});

describe.skipIf(!digAvailable)('tm fault against the running local stack', () => {
  it('the state file records the local CloudWatch and the fault control endpoint', () => {
    expect(state.cloudWatchEndpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(state.controlEndpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(tm.output()).toContain(`CloudWatch ${state.cloudWatchEndpoint}`);
  });

  it('inject, list and clear: each says what it did, faults combine, clear restores', async () => {
    const route53 = await cli('fault', 'inject', 'route53-api');
    expect(route53).toMatchObject({ code: 0, stderr: '' });
    expect(route53.stdout).toBe(
      'route53-api: every call to the local Route 53 API now answers ServiceUnavailable (503); DNS answers and health checks go on\n',
    );
    const region = await cli('fault', 'inject', 'region:eu-west-1');
    expect(region.stdout).toBe(
      'region:eu-west-1: probe region eu-west-1 stopped: it probes, writes and publishes nothing\n',
    );
    expect((await cli('fault', 'list')).stdout).toBe('route53-api\nregion:eu-west-1\n');
    expect(JSON.parse((await cli('fault', 'list', '--json')).stdout)).toEqual({
      faults: ['route53-api', 'region:eu-west-1'],
    });

    const again = await cli('fault', 'inject', 'route53-api');
    expect(again.stdout).toBe('route53-api: already injected; nothing changed\n');
    const unknown = await cli('fault', 'inject', 'region:mars-1');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      'tm fault inject: no probe region "mars-1" in this stack; its regions: us-east-1, eu-west-1, ap-southeast-1\n',
    );

    expect((await cli('fault', 'clear', 'region:eu-west-1')).stdout).toBe(
      'region:eu-west-1: probe region eu-west-1 probes, writes and publishes again\n',
    );
    expect(JSON.parse((await cli('fault', 'clear', 'route53-api', '--json')).stdout)).toMatchObject({
      fault: 'route53-api',
      changed: true,
      faults: [],
    });
    expect((await cli('fault', 'list')).stdout).toBe('no fault injected\n');
  }, 120_000);

  it('route53-api: every API call answers ServiceUnavailable (503) while dig keeps answering', async () => {
    const client = route53Client({ endpoint: state.route53Endpoint, credentials });
    try {
      await cli('fault', 'inject', 'route53-api');
      const refused = await client.send(new ListHostedZonesByNameCommand({})).catch((e: unknown) => e);
      expect(refused).toMatchObject({ name: 'ServiceUnavailable', $metadata: { httpStatusCode: 503 } });
      expect(await answers()).toEqual([EAST]);

      await cli('fault', 'clear', 'route53-api');
      const zones = await client.send(new ListHostedZonesByNameCommand({}));
      expect(zones.HostedZones?.map((z) => z.Name)).toContain('example.com.');
    } finally {
      client.destroy();
    }
  }, 120_000);

  it('home-region: the evaluator stops — a primary going down moves nothing through today’s path until it is cleared', async () => {
    await cli('fault', 'inject', 'home-region');
    try {
      await setBackend('east', false);
      // Well past the demo's failover time: the evaluator would have moved DNS to west by now.
      await new Promise((resolve) => setTimeout(resolve, DEMO_FAILOVER_MS));
      expect(await answers()).toEqual([EAST]);
      expect(tm.output()).not.toMatch(/shop\/east Online → Degraded/);
    } finally {
      await cli('fault', 'clear', 'home-region');
    }
    await eventually(answers, (a) => a.join() === WEST, DEMO_FAILOVER_MS * 2);
    await setBackend('east', true);
    await eventually(answers, (a) => a.join() === EAST, DEMO_FAILOVER_MS * 2);
  }, 180_000);
});

describe.skipIf(!digAvailable)('tm status: the Route 53 health-check state beside our status', () => {
  /** Each demo endpoint's check, found as the planner's records carry it (the record answering its address). */
  async function plannedChecks(): Promise<Map<string, string>> {
    const client = dynamoDbClient({ endpoint: state.dynamodbEndpoint, region: 'us-east-1', credentials });
    try {
      const config = await readDeployedConfig(client, state.tableName);
      const plan = planStaticFailover(config.profiles, {
        deployment: state.deployment ?? '',
        defaultProbeRegions: config.defaultProbeRegions,
      });
      const shop = config.profiles.find((p) => p.name === 'shop');
      return new Map(
        (shop?.endpoints ?? []).flatMap((endpoint) => {
          const target = endpoint.type === 'external' ? endpoint.target : '';
          const record = plan.records.find(
            (r) => r.healthCheckRef !== undefined && r.values.includes(target),
          );
          return record?.healthCheckRef === undefined
            ? []
            : [[endpoint.name, record.healthCheckRef] as const];
        }),
      );
    } finally {
      client.destroy();
    }
  }

  const endpointsOf = (stdout: string) =>
    Object.fromEntries(
      (
        JSON.parse(stdout) as { profiles: { endpoints: { endpoint: string; healthCheck: unknown }[] }[] }
      ).profiles[0]?.endpoints.map((e) => [e.endpoint, e.healthCheck]) ?? [],
    );

  it('healthCheck is the Route 53 state of the endpoint’s target check: Unhealthy while its backend is down', async () => {
    /**
     * Polled in this process until `accept`; then `tm status --json` as a process says the same
     * (polled too, briefly: the checks may still be settling from the test before, and a state
     * read once in each process can straddle a change).
     */
    const healthChecksUntil = async (accept: (h: Record<string, unknown>) => boolean, bound: number) => {
      await eventually(async () => endpointsOf(await statusInProcess()), accept, bound);
      await eventually(async () => endpointsOf((await cli('status', '--json')).stdout), accept, 30_000);
    };
    // The evaluator created the structure; every backend is up, so every target check is healthy.
    const ALL_HEALTHY = { east: 'Healthy', west: 'Healthy', central: 'Healthy' };
    const allHealthy = (h: Record<string, unknown>) => JSON.stringify(h) === JSON.stringify(ALL_HEALTHY);
    await healthChecksUntil(allHealthy, 120_000);
    // east's backend down: its votes go down, their alarms fire, its calculated check follows.
    await setBackend('east', false);
    try {
      await healthChecksUntil((h) => h['east'] === 'Unhealthy' && h['west'] === 'Healthy', 150_000);
      const text = await cli('status');
      expect(text.stdout).toContain('Route 53 health check: Unhealthy');
      expect(text.stdout).toContain('Route 53 health check: Healthy');
    } finally {
      await setBackend('east', true);
    }
    await healthChecksUntil(allHealthy, 150_000);

    // The Route 53 API down: our status still shows, the checks cannot be found (null), and it says why.
    await cli('fault', 'inject', 'route53-api');
    try {
      const refused = await cli('status', '--json');
      expect(refused.code).toBe(0);
      expect(endpointsOf(refused.stdout)).toEqual({ east: null, west: null, central: null });
      expect(refused.stderr).toMatch(/^tm status: health checks not read \(Route 53\): /);
    } finally {
      await cli('fault', 'clear', 'route53-api');
    }
  }, 480_000);

  it('home-region: tm status says the home region is unreachable and shows the health checks', async () => {
    const ids = await plannedChecks();
    expect([...ids.keys()]).toEqual(['east', 'west', 'central']);
    const states = endpointsOf((await cli('status', '--json')).stdout);
    await cli('fault', 'inject', 'home-region');
    try {
      const text = await cli('status');
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(
        /^the home region is unreachable: the local stack \(DNS port \d+\)'s table does not answer/,
      );
      for (const [name, id] of ids) expect(text.stdout).toContain(`${id}  ${String(states[name])}`);
      const json = JSON.parse((await cli('status', '--json')).stdout) as {
        homeRegion: { reachable: boolean };
        healthChecks: { id: string; state: string }[];
      };
      expect(json.homeRegion.reachable).toBe(false);
      expect(json.healthChecks.map((c) => [c.id, c.state])).toEqual(
        expect.arrayContaining([...ids].map(([name, id]) => [id, states[name]])),
      );
    } finally {
      await cli('fault', 'clear', 'home-region');
    }
    expect((await cli('status')).stdout).toMatch(/^shop {2}/);
  }, 120_000);
});

/** util-linux `script`: tm on a pseudo-terminal, so keys are read. */
const scriptAvailable = spawnSync('script', ['--version']).status === 0;

describe.skipIf(!scriptAvailable)('the demo’s outage key', () => {
  it('f cuts the Route 53 API and the home region together, the banner says so, f again restores both', async () => {
    const demo = await startTm(['--dns-port', '0'], { launcher: 'terminal', stdin: 'pipe' });
    others.push(demo);
    await demo.waitFor(/Press q \(or Ctrl-C\) to stop everything/);
    expect(demo.output()).toContain(
      'Cut the Route 53 API and the home region (evaluator and table) together: press f (again: restore both)',
    );
    const list = async () => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [await compiledTm(), 'fault', 'list', '--json', '--dns-port', String(demo.dnsPort)],
        { cwd: REPO, env: { ...process.env, TM_STATE_DIR: demo.stateDir } },
      );
      return (JSON.parse(stdout) as { faults: string[] }).faults;
    };

    demo.child.stdin?.write('f');
    await demo.waitFor(/DEMO: the Route 53 API and the home region are CUT/, 30_000);
    expect(await list()).toEqual(['route53-api', 'home-region']);
    demo.child.stdin?.write('f');
    await demo.waitFor(/DEMO: the Route 53 API and the home region are back/, 30_000);
    expect(await list()).toEqual([]);
    demo.child.stdin?.write('q');
    expect(await demo.exited).toEqual({ code: 0, signal: null });
  }, 180_000);
});
