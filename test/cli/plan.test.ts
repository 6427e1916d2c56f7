import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tm, tmInProcess } from '../support/tm.js';

const tmPlan = (...args: string[]) => tm(['plan', ...args]);
const plan = (...args: string[]) => tmInProcess('plan', ...args);

const zone = { zoneName: 'example.com', hostedZoneId: 'Z00000000000000000001' };
const DEFINITIONS = [
  {
    name: 'app',
    trafficRoutingMethod: 'Priority',
    dnsConfig: { ...zone, relativeName: 'app', ttl: 30 },
    endpoints: [
      { name: 'eu', type: 'nested', targetProfile: 'app-eu' },
      { name: 'east', target: '192.0.2.10' },
    ],
  },
  {
    name: 'app-eu',
    trafficRoutingMethod: 'Weighted',
    dnsConfig: { ...zone, relativeName: 'app-eu', ttl: 30 },
    endpoints: [
      { name: 'fra', target: '192.0.2.20', weight: 10 },
      { name: 'dub', target: '192.0.2.21', weight: 5 },
    ],
  },
  {
    name: 'off',
    profileStatus: 'Disabled',
    trafficRoutingMethod: 'Priority',
    dnsConfig: { ...zone, relativeName: 'off' },
    endpoints: [{ name: 'one', target: '192.0.2.30' }],
  },
];

let dir = '';
let file = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tm-plan-'));
  file = join(dir, 'definitions.json');
  await writeFile(file, JSON.stringify(DEFINITIONS));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Each run starts Node + tsx (about a second on an idle machine); generous timeouts for loaded CI machines.
describe('tm plan (child process)', { timeout: 60_000 }, () => {
  it('prints the record sets for the given statuses: shop/east Degraded → west answers', async () => {
    // Act
    const { code, stdout } = await tmPlan('examples/definitions.ts', '--status', 'shop/east=Degraded');

    // Assess
    expect(code).toBe(0);
    expect(stdout).toContain('shop  shop.example.com  Priority  monitor status Degraded');
    expect(stdout).toMatch(/ {2}east +Degraded\n/);
    expect(stdout).toContain('  shop.example.com  CNAME  30  west.shop.example.net\n');
  });

  it("ends each profile's block with its failover figures", async () => {
    // Act
    const { code, stdout } = await tmPlan('examples/definitions.ts');

    // Assess
    expect(code).toBe(0);
    expect(stdout).toContain(
      '  media.example.com  CNAME  30  set=singapore region=ap-southeast-1  apse1.media.example.net\n' +
        '  users move away within (2+1) × 10 s interval + 5 s timeout + 62 s publish + 30 s TTL = 127 s\n' +
        '  they come back within 1 × 10 s interval + 5 s timeout + 62 s publish + 30 s TTL = 107 s\n' +
        '  18 checks/min per endpoint (3 regions × 6/min)\n',
    );
  });

  it('--json prints { profiles, records, cidrCollections, figures }', async () => {
    // Act
    const { code, stdout } = await tmPlan(
      'examples/definitions.ts',
      '--json',
      '--status=www-eu/frankfurt=Degraded',
    );

    // Assess
    expect(code).toBe(0);
    const document = JSON.parse(stdout) as {
      profiles: { profile: string; status: string }[];
      records: { name: string; values: string[] }[];
      cidrCollections: { name: string }[];
      figures: { profile: string; moveAway: { totalSeconds: number }; checksPerMinute: number }[];
    };
    expect(document.profiles.find((p) => p.profile === 'www-eu')?.status).toBe('Degraded');
    expect(document.records.filter((r) => r.name === 'www-eu.example.com').map((r) => r.values)).toEqual([
      ['dub.www.example.net'],
    ]);
    expect(document.cidrCollections.map((c) => c.name)).toEqual(['tm-portal']);
    expect(document.figures.find((f) => f.profile === 'shop')).toMatchObject({
      moveAway: { totalSeconds: 222 },
      checksPerMinute: 6,
    });
  });

  it('exits 2 with a clear message on a usage error', async () => {
    const { code, stderr } = await tmPlan('examples/definitions.ts', '--status', 'shop/east=Sideways');
    expect(code).toBe(2);
    expect(stderr).toContain(
      'tm plan: --status shop/east: unknown status "Sideways" (one of Online, Degraded, CheckingEndpoint, Disabled)\n(tm plan --help shows the usage)\n',
    );
  });
});

describe('tm plan (in process)', () => {
  it('points an address parent at its nested child with an alias, and shows weighted records', async () => {
    // Act
    const { code, stdout } = await plan(file, '--status', 'app-eu/fra=Online', '--status', 'app/east=Online');

    // Assess
    expect(code).toBe(0);
    expect(stdout).toContain('  app.example.com  A  -  ALIAS → app-eu.example.com\n');
    expect(stdout).toContain('  app-eu.example.com  A  30  set=fra weight=10  192.0.2.20\n');
    expect(stdout).toContain('  app-eu.example.com  A  30  set=dub weight=5   192.0.2.21\n');
  });

  it('all degraded: every eligible endpoint is served and the profile shows Degraded', async () => {
    const { stdout } = await plan(file, '--status', 'app-eu/fra=Degraded', '--status=app-eu/dub=degraded');
    expect(stdout).toContain('app-eu  app-eu.example.com  Weighted  monitor status Degraded');
    expect(stdout).toContain('set=fra weight=10');
    expect(stdout).toContain('set=dub weight=5');
  });

  it('a disabled profile has no records: NXDOMAIN', async () => {
    const { stdout } = await plan(file);
    expect(stdout).toMatch(
      /off {2}off\.example\.com {2}Priority {2}monitor status Disabled\n {2}one +Inactive\n {2}no records: the name answers NXDOMAIN\n/,
    );
  });

  it('PROFILE=Disabled: the profile answers NXDOMAIN and a parent nesting it sees it Stopped', async () => {
    const { code, stdout } = await plan(file, '--status', 'app-eu=Disabled,app/east=Online');
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /app {2}app\.example\.com {2}Priority {2}monitor status Online\n {2}eu +Stopped\n {2}east +Online\n/,
    );
    expect(stdout).toContain('  app.example.com  A  30  192.0.2.10\n');
    expect(stdout).toMatch(
      /app-eu {2}app-eu\.example\.com {2}Weighted {2}monitor status Disabled\n {2}fra +Inactive\n {2}dub +Inactive\n {2}no records/,
    );
  });

  it('a nested endpoint can be Disabled: the parent serves its next endpoint', async () => {
    const { code, stdout } = await plan(file, '--status', 'app/eu=Disabled');
    expect(code).toBe(0);
    expect(stdout).toMatch(/ {2}eu +Disabled\n/);
    expect(stdout).toContain('  app.example.com  A  30  192.0.2.10\n');
  });

  it('shows geographic, latency, multivalue and CIDR policies', async () => {
    const { stdout } = await plan('examples/definitions.ts');
    expect(stdout).toContain('set=california/US-CA geo=US-CA');
    expect(stdout).toContain('set=rest/WORLD geo=WORLD');
    expect(stdout).toContain('set=virginia region=us-east-1');
    expect(stdout).toContain('set=edge-c multivalue  2001:db8::10');
    expect(stdout).toContain('set=public cidr=tm-portal/*');
    expect(stdout).toContain('CIDR collection tm-portal: office 198.51.100.0/24 2001:db8:100::/48;');
  });

  it('--help prints the usage and exits 0', async () => {
    const { code, stdout } = await plan('--help');
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: tm plan [options] <file>');
  });

  it.each([
    { name: 'an unknown option', args: ['x.json', '--frob'], message: "unknown option '--frob'" },
    { name: 'no FILE', args: [], message: "missing required argument 'file'" },
    { name: 'two FILEs', args: ['a.json', 'b.json'], message: 'too many arguments' },
    { name: '--status without a value', args: ['x.json', '--status'], message: 'argument missing' },
    {
      name: '--status without =STATUS',
      args: ['x.json', '--status', 'shop/east'],
      message: '--status must look like profile/endpoint=STATUS',
    },
    {
      name: 'a whole profile given a status other than Disabled',
      args: ['FILE', '--status', 'app=Degraded'],
      message: 'a whole profile can only be Disabled',
    },
    {
      name: 'the same endpoint twice',
      args: ['x.json', '--status', 'a/b=Online', '--status=a/b=Degraded'],
      message: '--status a/b is given twice',
    },
    {
      name: 'an endpoint that does not exist',
      args: ['FILE', '--status', 'app/nope=Degraded'],
      message: 'profile "app" has no endpoint "nope"',
    },
    {
      name: 'a status that cannot be set by hand',
      args: ['FILE', '--status', 'app/east=Stopped'],
      message:
        'status must be one of Online, Degraded, CheckingEndpoint, Disabled, got "Stopped" (a nested endpoint is Stopped when its child profile is disabled: use CHILD=Disabled)',
    },
  ])('exits 2 on a usage error: $name', async ({ args, message }) => {
    const { code, stderr } = await plan(...args.map((a) => (a === 'FILE' ? file : a)));
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('exits 1 with every validation error when the definitions are invalid', async () => {
    const { code, stderr } = await plan('examples/invalid.yaml');
    expect(code).toBe(1);
    expect(stderr).toContain('"shop" endpoints[0] "east".weight: must be an integer 1–255, got 0');
    expect(stderr).toContain('tm plan: examples/invalid.yaml is not valid');
  });

  it('exits 1 when the file cannot be read', async () => {
    const { code, stderr } = await plan(join(dir, 'missing.json'));
    expect(code).toBe(1);
    expect(stderr).toContain('no such file');
  });
});
