/**
 * What `tm plan` and `tm validate` say about static failover (docs/cli.md): per profile the
 * health checks, alarms and metrics its structure creates and their monthly price (the core's
 * footprintOf / monthlyPriceOf), the static path's worst cases (staticFailoverTime) beside
 * today's, what a profile with `staticFailover: false` gives up, the deployment's total, and a
 * warning (never a failure) past the default quota of 200 health checks, naming the number.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOCAL_REGIONS } from '../../infra/local/regions.js';
import { staticFailoverTime } from '../../shared/monitor/failover-time.js';
import { parseDefinitionsOrThrow } from '../support/parse-definitions.js';
import { footprintOf, monthlyPriceOf } from '../../shared/static-failover/cost.js';
import { planStaticFailover } from '../../shared/static-failover/plan.js';
import { tmInProcess } from '../support/tm.js';

const zone = { zoneName: 'example.com', hostedZoneId: 'Z00000000000000000001' };
const endpoints = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    name: `${prefix}${i}`,
    target: `192.0.2.${i + 1}`,
    priority: i + 1,
  }));
const SMALL = [
  {
    name: 'shop',
    trafficRoutingMethod: 'Priority',
    dnsConfig: { ...zone, relativeName: 'shop', ttl: 30 },
    endpoints: endpoints('e', 2),
  },
  {
    name: 'cheap',
    trafficRoutingMethod: 'Priority',
    staticFailover: false,
    dnsConfig: { ...zone, relativeName: 'cheap', ttl: 30 },
    endpoints: endpoints('c', 2),
  },
];
/** 8 profiles × 10 endpoints in 3 regions: 3 region checks + 1 calculated check each, and the guard. */
const LARGE = Array.from({ length: 8 }, (_, p) => ({
  name: `big${p}`,
  trafficRoutingMethod: 'Priority',
  dnsConfig: { ...zone, relativeName: `big${p}` },
  endpoints: Array.from({ length: 10 }, (_, i) => ({
    name: `e${i}`,
    target: `host-${p}-${i}.example.net`,
    priority: i + 1,
  })),
}));

/** A Priority parent whose endpoints answer different types: an IPv4 endpoint and a dual-stack child. */
const MIXED = [
  {
    name: 'child',
    trafficRoutingMethod: 'MultiValue',
    dnsConfig: { ...zone, relativeName: 'child' },
    endpoints: [
      { name: 'v4', target: '192.0.2.30' },
      { name: 'v6', target: '2001:db8::30' },
    ],
  },
  {
    name: 'mixed',
    trafficRoutingMethod: 'Priority',
    dnsConfig: { ...zone, relativeName: 'mixed' },
    endpoints: [
      { name: 'v4', target: '192.0.2.10', priority: 1 },
      { name: 'kid', type: 'nested', targetProfile: 'child', priority: 2 },
    ],
  },
];

let dir = '';
const files = { small: '', large: '', mixed: '' };
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tm-static-'));
  files.small = join(dir, 'small.json');
  files.large = join(dir, 'large.json');
  await writeFile(files.small, JSON.stringify(SMALL));
  await writeFile(files.large, JSON.stringify(LARGE));
  files.mixed = join(dir, 'mixed.json');
  await writeFile(files.mixed, JSON.stringify(MIXED));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const money = (n: number) => `$${n.toFixed(2)}`;
const options = { deployment: 'traffic-manager', defaultProbeRegions: DEFAULT_LOCAL_REGIONS };

describe('tm plan and static failover', () => {
  it('prints a profile’s health checks, alarms, metrics and monthly price, and its static path beside today’s', async () => {
    const { code, stdout } = await tmInProcess('plan', files.small);

    expect(code).toBe(0);
    const [shop] = parseDefinitionsOrThrow(SMALL);
    const whole = planStaticFailover([shop!], options);
    // Without the deployment's guard (counted once, in the total).
    const own = footprintOf({
      ...whole,
      metrics: whole.metrics.filter((m) => m.metricName === 'Vote'),
      alarms: whole.alarms.filter((a) => a.metricName === 'Vote'),
      healthChecks: whole.healthChecks.filter((c) => c.role !== 'guard' && c.role !== 'guard-region'),
    });
    expect(own.healthChecks).toBe(2 * (DEFAULT_LOCAL_REGIONS.length + 1));
    const section = stdout.split('\n\n').find((block) => block.startsWith('shop '))!;
    expect(section).toContain(
      `  static failover: ${own.healthChecks} health checks, ${own.alarms} alarms, ${own.metrics} metrics, ` +
        `${own.putMetricDataRequests.toLocaleString('en-US')} PutMetricData requests — ${money(monthlyPriceOf(own).total)} a month`,
    );
    const lines = section.split('\n');
    const today = lines.findIndex((l) => l.startsWith('  users move away within'));
    const away = staticFailoverTime(shop!.monitorConfig, 30, 'failing').formula;
    const back = staticFailoverTime(shop!.monitorConfig, 30, 'recovering').formula;
    expect(lines.slice(today)).toEqual(
      expect.arrayContaining([
        `  static path (home region or Route 53 API down): users move away within ${away}`,
        `  static path: they come back within ${back}`,
      ]),
    );
  });

  it('says what a profile with staticFailover: false gives up, and prints no static path for it', async () => {
    const { stdout } = await tmInProcess('plan', files.small);

    const section = stdout.split('\n\n').find((block) => block.startsWith('cheap '))!;
    expect(section).toContain(
      '  static failover off: fails over only through Route 53’s control plane (record changes) made by the evaluator in the home region',
    );
    expect(section).not.toContain('static path');
  });

  it('says why a Priority profile whose endpoints answer different record types gets no switch', async () => {
    const { code, stdout } = await tmInProcess('plan', files.mixed);

    expect(code).toBe(0);
    const section = stdout.split('\n\n').find((block) => block.startsWith('mixed '))!;
    expect(section).toContain(
      '  static failover: no switch at its name — its endpoints answer different record types (v4: A; kid: A, AAAA), ' +
        "and Route 53 cannot alias a type today's records may not hold: it fails over through today's path only",
    );
    expect(section).not.toContain('static path');
  });

  it('prints the deployment’s total: shared parts and the guard once', async () => {
    const { stdout } = await tmInProcess('plan', files.small);

    const total = footprintOf(
      planStaticFailover(
        parseDefinitionsOrThrow(SMALL).filter((p) => p.staticFailover),
        options,
      ),
    );
    expect(stdout).toContain(
      `Static failover in total (3 probe regions, shared targets and the evaluator guard counted once): ${total.healthChecks} health checks, ${total.alarms} alarms, ${total.metrics} metrics`,
    );
    expect(stdout).toContain(`${money(monthlyPriceOf(total).total)} a month`);
  });
});

describe('the health-check quota', () => {
  const needed = () => footprintOf(planStaticFailover(parseDefinitionsOrThrow(LARGE), options)).healthChecks;

  it.each(['plan', 'validate'])(
    'tm %s warns past 200 health checks, naming the number, and exits 0',
    async (command) => {
      const { code, stderr } = await tmInProcess(command, files.large);

      expect(needed()).toBeGreaterThan(200);
      expect(code).toBe(0);
      expect(stderr).toContain(
        `warning: static failover needs ${needed()} Route 53 health checks, more than the account default of 200`,
      );
    },
  );

  it.each(['plan', 'validate'])('tm %s does not warn within 200', async (command) => {
    const { code, stderr } = await tmInProcess(command, files.small);

    expect(code).toBe(0);
    expect(stderr).not.toContain('health checks');
  });
});

describe('tm validate and static failover', () => {
  it('prints each profile’s structure and static path after today’s figures, and the total', async () => {
    const { code, stdout } = await tmInProcess('validate', files.small);

    expect(code).toBe(0);
    const [, figures, statics] = stdout.split(/\n(?=Worst cases in AWS|Static failover \(Route 53)/);
    expect(figures).toContain('users move away within');
    expect(statics?.split('\n').slice(0, 6)).toEqual([
      'Static failover (Route 53 health checks fed by the probe regions’ votes: failover without the home region or Route 53’s control plane):',
      'shop',
      expect.stringMatching(/^ {2}static failover: 8 health checks, 6 alarms, 6 metrics, /),
      expect.stringMatching(/^ {2}static path \(home region or Route 53 API down\): users move away within /),
      expect.stringMatching(/^ {2}static path: they come back within /),
      'cheap',
    ]);
    expect(statics).toContain('  static failover off: ');
    expect(statics).toMatch(/\nStatic failover in total /);
  });
});
