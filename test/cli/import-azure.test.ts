/**
 * `tm import azure` on ARM exports and az JSON written from Azure's documented schema
 * (test/fixtures/azure/): each import validates, and `tm plan` gives the answers Azure's
 * routing rules give for the same endpoint statuses (the expected answers below come from
 * those rules, not from a previous run).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load as parseYaml } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmInProcess } from '../support/tm.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'azure');
const fixture = (name: string): string => join(FIXTURES, name);
const ZONE = ['--zone', 'example.com', '--hosted-zone-id', 'Z00000000000000000001'];

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tm-import-azure-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface PlannedRecord {
  readonly name: string;
  readonly type: string;
  readonly setIdentifier?: string;
  readonly weight?: number;
  readonly region?: string;
  readonly geoLocation?: { continentCode?: string; countryCode?: string; subdivisionCode?: string };
  readonly cidrRoutingConfig?: { locationName: string };
  readonly values: readonly string[];
}

interface Plan {
  readonly records: PlannedRecord[];
  readonly cidrCollections: { locations: Record<string, string[]> }[];
}

/** Imports `files` into `out` (in the test's directory); the import must succeed and the result validate. */
async function imported(out: string, files: string[], ...args: string[]) {
  const file = join(dir, out);
  const result = await tmInProcess('import', 'azure', ...files.map(fixture), ...ZONE, '-o', file, ...args);
  expect(result.stderr).not.toContain('problem');
  expect(result.code).toBe(0);
  const validate = await tmInProcess('validate', file);
  expect(validate.stderr).toBe('');
  expect(validate.code).toBe(0);
  return { file, report: result.stderr };
}

/** `tm plan FILE --status …`: the values Route 53 would answer for `name` (one list per record set). */
async function answers(file: string, name: string, ...statuses: string[]): Promise<PlannedRecord[]> {
  const { records } = await plan(file, ...statuses);
  return records.filter((record) => record.name === name);
}

async function plan(file: string, ...statuses: string[]): Promise<Plan> {
  const args = statuses.length > 0 ? ['--status', statuses.join(',')] : [];
  const { code, stdout, stderr } = await tmInProcess('plan', file, '--json', ...args);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return JSON.parse(stdout) as Plan;
}

const values = (records: readonly PlannedRecord[]): string[] =>
  records.flatMap((record) => record.values).sort();

describe('tm import azure: an ARM template (API 2022-04-01) with a parameters file, Priority', () => {
  let file = '';
  let report = '';
  beforeAll(async () => {
    ({ file, report } = await imported('shop.yaml', [
      'priority.2022-04-01.json',
      'priority.parameters.json',
    ]));
  });

  it('maps every property: parameters (file and defaultValue), variables, monitor settings, headers, status ranges, always-serve', async () => {
    // Act
    const [profile] = parseYaml(await readFile(file, 'utf8')) as Record<string, unknown>[];

    // Assess
    expect(profile).toMatchObject({
      name: 'shop', // from the parameters file
      trafficRoutingMethod: 'Priority',
      dnsConfig: {
        zoneName: 'example.com',
        hostedZoneId: 'Z00000000000000000001',
        relativeName: 'shop-failover',
        ttl: 30,
      },
      monitorConfig: {
        protocol: 'HTTPS',
        port: 443,
        path: '/health', // a defaultValue
        intervalInSeconds: 10,
        timeoutInSeconds: 5,
        toleratedNumberOfFailures: 2,
        customHeaders: [
          { name: 'host', value: 'shop.example.com' },
          { name: 'x-probe', value: 'traffic-manager' },
        ],
        expectedStatusCodeRanges: [
          { min: 200, max: 299 },
          { min: 301, max: 302 },
        ],
      },
      endpoints: [
        {
          name: 'primary',
          target: 'primary.shop.example.net',
          priority: 1,
          customHeaders: [{ name: 'x-endpoint', value: 'primary' }],
        },
        { name: 'secondary', target: 'secondary.shop.example.net', priority: 2, alwaysServe: false },
        { name: 'backup', target: 'backup.shop.example.net', priority: 3, alwaysServe: true }, // a variable
      ],
    });
  });

  it('reports what it drops and the new DNS name', () => {
    expect(report).toContain(
      'report: profiles[0] "shop".dnsConfig.relativeName: was shop-failover.trafficmanager.net in Azure; here it is shop-failover.example.com',
    );
    expect(report).toContain(
      'report: profiles[0] "shop".tags: is Azure resource metadata and is not carried over',
    );
    expect(report).toContain('resources[0] "shop" resources[0].dependsOn: is ARM deployment metadata');
  });

  it.each([
    {
      name: 'nothing known yet: the first by priority (CheckingEndpoint is served)',
      statuses: [],
      answer: 'primary',
    },
    {
      name: 'primary Degraded: the next available one',
      statuses: ['shop/primary=Degraded'],
      answer: 'secondary',
    },
    {
      name: 'primary and secondary Degraded: backup (always serve: Unmonitored, always available)',
      statuses: ['shop/primary=Degraded', 'shop/secondary=Degraded'],
      answer: 'backup',
    },
    {
      name: 'secondary Degraded, primary Online: primary',
      statuses: ['shop/primary=Online', 'shop/secondary=Degraded'],
      answer: 'primary',
    },
  ])('answers as Azure would: $name', async ({ statuses, answer }) => {
    expect(values(await answers(file, 'shop-failover.example.com', ...statuses))).toEqual([
      `${answer}.shop.example.net`,
    ]);
  });
});

describe('tm import azure: an ARM template (API 2018-08-01) with child resources beside the profile, Weighted', () => {
  const canary = ['--target', '/providers/Microsoft.Web/sites/shop-canary=canary.example.net'];
  let file = '';
  let report = '';
  beforeAll(async () => {
    ({ file, report } = await imported('www.json', ['weighted.2018-08-01.json'], ...canary));
  });

  it("weights 1000/500/1 become 255/128/1, each endpoint's share reported", async () => {
    // Act
    const [profile] = JSON.parse(await readFile(file, 'utf8')) as { name: string; endpoints: object[] }[];

    // Assess
    expect(profile?.name).toBe('www-weighted'); // "www.weighted": '.' is not allowed here
    expect(profile?.endpoints).toEqual([
      expect.objectContaining({ name: 'east', weight: 255 }),
      expect.objectContaining({ name: 'west', weight: 128 }),
      expect.objectContaining({ name: 'canary-app', weight: 1, target: 'canary.example.net' }),
    ]);
    expect(report).toContain(
      '"east".weight: is 255 here (Route 53 weights are 1–255; scaled so the largest is 255, rounded): 66.6% of the traffic in Azure, 66.4% here, got 1000',
    );
    expect(report).toContain('"canary-app".weight: is still 1 here');
    expect(report).toContain('0.07% of the traffic in Azure, 0.26% here');
    expect(report).toContain(
      '"canary-app".targetResourceId: is an Azure resource (azureEndpoints): it is probed and published as the external endpoint "canary.example.net"',
    );
  });

  it.each([
    {
      name: 'all Online: every endpoint with its weight',
      statuses: ['www-weighted/east=Online', 'www-weighted/west=Online', 'www-weighted/canary-app=Online'],
      answer: ['east', 'west', 'canary'],
    },
    {
      name: 'east Degraded: the others share the traffic',
      statuses: ['www-weighted/east=Degraded'],
      answer: ['west', 'canary'],
    },
    {
      name: 'all Degraded: every endpoint (best effort)',
      statuses: [
        'www-weighted/east=Degraded',
        'www-weighted/west=Degraded',
        'www-weighted/canary-app=Degraded',
      ],
      answer: ['east', 'west', 'canary'],
    },
  ])('answers as Azure would: $name', async ({ statuses, answer }) => {
    const records = await answers(file, 'www-weighted.example.com', ...statuses);
    const host = (name: string) => (name === 'canary' ? 'canary.example.net' : `${name}.www.example.net`);
    expect(values(records)).toEqual(answer.map(host).sort());
    expect(records.map((record) => record.weight).sort((a = 0, b = 0) => b - a)).toEqual(
      answer.map((name) => ({ east: 255, west: 128, canary: 1 })[name]),
    );
  });

  it('an azureEndpoints endpoint without --target: exit 1 naming the endpoint and the flag; nothing written', async () => {
    const out = join(dir, 'not-written.json');
    const { code, stderr } = await tmInProcess(
      'import',
      'azure',
      fixture('weighted.2018-08-01.json'),
      ...ZONE,
      '-o',
      out,
    );
    expect(code).toBe(1);
    expect(stderr).toContain(
      'weighted.2018-08-01.json resources[2] "canary app".targetResourceId: is an Azure resource (azureEndpoints) with no host name here: give it with --target /providers/Microsoft.Web/sites/shop-canary=HOST',
    );
    await expect(readFile(out)).rejects.toThrow();
  });
});

describe('tm import azure: az network traffic-manager profile list (nested profiles)', () => {
  let file = '';
  let report = '';
  beforeAll(async () => {
    ({ file, report } = await imported('app.ts', ['az-list.json']));
  });

  it('the nested endpoint names its child by name; weights 600/300 become 2/1 exactly', async () => {
    const text = await readFile(file, 'utf8');
    expect(text).toContain("import type { ProfileInput } from 'traffic-manager';");
    expect(report).toContain('"eu".targetResourceId: is the child profile "app-eu", imported with it');
    expect(report).toContain(
      '"fra".weight: is 2 here (Route 53 weights are 1–255; every weight of "app-eu" divided by 300: the same ratios), got 600',
    );
  });

  it.each([
    {
      name: 'both children Online: the parent answers with the child (minChildEndpoints 2 reached)',
      statuses: ['app-eu/fra=Online', 'app-eu/dub=Online'],
      answer: ['app-eu.example.com'],
    },
    {
      name: 'one child Degraded: fewer than minChildEndpoints 2 Online, the child is Degraded: the next endpoint',
      statuses: ['app-eu/fra=Online', 'app-eu/dub=Degraded'],
      answer: ['us.app.example.net'],
    },
    {
      name: 'child profile disabled: the nested endpoint is Stopped: the next endpoint',
      statuses: ['app-eu=Disabled'],
      answer: ['us.app.example.net'],
    },
  ])('answers as Azure would: $name', async ({ statuses, answer }) => {
    expect(values(await answers(file, 'app.example.com', ...statuses))).toEqual(answer);
  });
});

describe('tm import azure: az network traffic-manager profile show (one profile), MultiValue', () => {
  let file = '';
  beforeAll(async () => {
    ({ file } = await imported('edge.yaml', ['az-show.multivalue.json']));
  });

  it.each([
    {
      name: 'nothing known: at most maxReturn 2 of the enabled endpoints',
      statuses: [],
      count: 2,
      from: ['192.0.2.1', '192.0.2.2', '192.0.2.4'],
    },
    {
      name: 'a Degraded: two of the healthy b, d',
      statuses: ['edge/a=Degraded'],
      count: 2,
      from: ['192.0.2.2', '192.0.2.4'],
    },
    {
      name: 'a and b Degraded: only d (c is Disabled)',
      statuses: ['edge/a=Degraded', 'edge/b=Degraded'],
      count: 1,
      from: ['192.0.2.4'],
    },
  ])('answers as Azure would: $name', async ({ statuses, count, from }) => {
    const served = values(await answers(file, 'edge.example.com', ...statuses));
    expect(served).toHaveLength(count);
    for (const address of served) expect(from).toContain(address);
    expect(served).not.toContain('192.0.2.3');
  });
});

describe('tm import azure: Geographic (API 2022-04-01), Azure codes Route 53 lacks', () => {
  let file = '';
  let report = '';
  beforeAll(async () => {
    ({ file, report } = await imported('geo.yaml', ['geographic.2022-04-01.json']));
  });

  /** Route 53's rule: the most specific record for the user's location (subdivision, country, continent, default). */
  function answerFor(records: readonly PlannedRecord[], user: User): string | undefined {
    const match = (test: (location: NonNullable<PlannedRecord['geoLocation']>) => boolean) =>
      records.find((record) => record.geoLocation !== undefined && test(record.geoLocation))?.values[0];
    return (
      match(
        (l) =>
          l.countryCode === user.country &&
          l.subdivisionCode !== undefined &&
          l.subdivisionCode === user.subdivision,
      ) ??
      match((l) => l.countryCode === user.country && l.subdivisionCode === undefined) ??
      match((l) => l.continentCode === user.continent) ??
      match((l) => l.countryCode === '*')
    );
  }
  interface User {
    readonly continent: string;
    readonly country: string;
    readonly subdivision?: string;
  }

  it('reports each code it expands or widens', () => {
    expect(report).toContain(
      '"me".geoMapping: GEO-ME (Middle East) is not a Route 53 continent: it is its 15 countries here',
    );
    expect(report).toContain(
      '"pacific".geoMapping: GEO-AP (Australia / Pacific) is not a Route 53 continent: it is its 26 countries here',
    );
    expect(report).toContain(
      '"gb".geoMapping: are every subdivision of GB, which Route 53 routes as one: GB here (the same places)',
    );
    expect(report).toContain(
      '"canada-east".geoMapping: Route 53 has no location for part of CA: all of CA here',
    );
    expect(report).toContain(
      '"rest".geoMapping: also maps AE, BH, IQ, IR, JO, KW, LB, OM, PS, QA, SY, SA, TR, YE explicitly here',
    );
  });

  // Azure's answer: the endpoint mapping the most specific code of Azure's hierarchy around the user; none without WORLD.
  it.each([
    { name: 'Germany: GEO-EU', user: { continent: 'EU', country: 'DE' }, azure: 'eu.geo.example.net' },
    {
      name: 'Scotland (GB-SCT): gb',
      user: { continent: 'EU', country: 'GB', subdivision: 'SCT' },
      azure: 'gb.geo.example.net',
    },
    {
      name: 'United Arab Emirates: GEO-ME',
      user: { continent: 'AS', country: 'AE' },
      azure: 'me.geo.example.net',
    },
    { name: 'Türkiye: GEO-ME', user: { continent: 'AS', country: 'TR' }, azure: 'me.geo.example.net' },
    { name: 'Fiji: GEO-AP', user: { continent: 'OC', country: 'FJ' }, azure: 'pacific.geo.example.net' },
    {
      name: 'Ontario (CA-ON): canada-east',
      user: { continent: 'NA', country: 'CA', subdivision: 'ON' },
      azure: 'ca.geo.example.net',
    },
    {
      name: 'California (US-CA): us',
      user: { continent: 'NA', country: 'US', subdivision: 'CA' },
      azure: 'us.geo.example.net',
    },
    { name: 'Mexico: GEO-NA', user: { continent: 'NA', country: 'MX' }, azure: 'us.geo.example.net' },
    {
      name: 'Japan: no endpoint and no WORLD: no answer',
      user: { continent: 'AS', country: 'JP' },
      azure: undefined,
    },
  ])('answers as Azure would: $name', async ({ user, azure }) => {
    expect(answerFor(await answers(file, 'geo.example.com'), user)).toBe(azure);
  });

  it('a Degraded geographic endpoint keeps its places (no failover, as in Azure)', async () => {
    const records = await answers(file, 'geo.example.com', 'geo/me=Degraded', 'geo/eu=Online');
    expect(answerFor(records, { continent: 'AS', country: 'SA' })).toBe('me.geo.example.net');
  });

  it.each([
    { name: 'Japan: GEO-AS', user: { continent: 'AS', country: 'JP' }, azure: 'asia.example.net' },
    { name: 'Israel: its own endpoint', user: { continent: 'AS', country: 'IL' }, azure: 'il.example.net' },
    {
      name: 'Saudi Arabia: GEO-ME is not mapped, so WORLD (not GEO-AS)',
      user: { continent: 'AS', country: 'SA' },
      azure: 'rest.example.net',
    },
    { name: 'Brazil: WORLD', user: { continent: 'SA', country: 'BR' }, azure: 'rest.example.net' },
  ])('a profile mapping GEO-AS and WORLD answers as Azure would: $name', async ({ user, azure }) => {
    expect(answerFor(await answers(file, 'asia.example.com'), user)).toBe(azure);
  });

  it.each([
    { code: '"XK" is Kosovo, which Route 53 has no location code for' },
    { code: '"GEO-XX" is not a code of Azure\'s geographic hierarchy' },
    {
      code: '[0] "split" endpoints[0] "ontario".geoMapping: "CA-ON" (a subdivision of CA): Route 53 has no location for part of CA, and the endpoints "ontario", "quebec" map parts of CA',
    },
  ])('an unmappable code: exit 1 naming it: $code', async ({ code }) => {
    const { code: exit, stderr } = await tmInProcess('import', 'azure', fixture('errors.geo.json'), ...ZONE);
    expect(exit).toBe(1);
    expect(stderr).toContain(code);
  });
});

describe('tm import azure: Performance (API 2018-08-01), Azure region names', () => {
  let file = '';
  let report = '';
  beforeAll(async () => {
    ({ file, report } = await imported('media.json', ['performance.2018-08-01.json']));
  });

  it('maps each Azure region to the nearest AWS region and says so', () => {
    expect(report).toContain(
      '"east".endpointLocation: is the Azure region East US (Virginia): latency is measured to the nearest AWS region, us-east-1, got "East US"',
    );
    expect(report).toContain(
      '"europe".endpointLocation: is the Azure region West Europe (Netherlands): latency is measured to the nearest AWS region, eu-west-2, got "westeurope"',
    );
  });

  // Azure: the closest endpoint; when it is Degraded, the next closest. Route 53 does the same among the latency records left.
  it.each([
    {
      name: 'all Online: one latency record per region',
      statuses: [],
      regions: {
        'us-east-1': 'east.media.example.net',
        'eu-west-2': 'eu.media.example.net',
        'ap-southeast-1': 'sg.media.example.net',
      },
    },
    {
      name: 'east Degraded: its users go to the next closest of the others',
      statuses: ['media/east=Degraded', 'media/europe=Online'],
      regions: { 'eu-west-2': 'eu.media.example.net', 'ap-southeast-1': 'sg.media.example.net' },
    },
  ])('answers as Azure would: $name', async ({ statuses, regions }) => {
    const records = await answers(file, 'media.example.com', ...statuses);
    expect(Object.fromEntries(records.map((record) => [record.region, record.values[0]]))).toEqual(regions);
  });
});

describe('tm import azure: Subnet (az show), subnets as { first, scope } and { first, last }, always-serve', () => {
  let file = '';
  beforeAll(async () => {
    ({ file } = await imported('portal.yaml', ['az-show.subnet.json']));
  });

  /** Route 53's rule: the CIDR location holding the address, else the default location '*'. */
  function answerFor(result: Plan, address: string): string | undefined {
    const block = `${address.split('.').slice(0, 3).join('.')}.0/24`;
    const locations = result.cidrCollections[0]?.locations ?? {};
    const location = Object.entries(locations).find(([, cidrs]) => cidrs.includes(block))?.[0] ?? '*';
    return result.records.find((record) => record.cidrRoutingConfig?.locationName === location)?.values[0];
  }

  // Azure: the endpoint whose ranges hold the address, else the endpoint without ranges; no failover.
  it.each([
    {
      name: 'an office address: office',
      statuses: [],
      address: '198.51.100.7',
      azure: 'office.portal.example.net',
    },
    {
      name: 'a partner address: partners',
      statuses: [],
      address: '203.0.113.200',
      azure: 'partners.portal.example.net',
    },
    {
      name: 'any other address: the endpoint without ranges',
      statuses: [],
      address: '192.0.2.1',
      azure: 'public.portal.example.net',
    },
    {
      name: 'office Degraded: still office (Subnet has no failover)',
      statuses: ['portal/office=Degraded', 'portal/partners=Online'],
      address: '198.51.100.7',
      azure: 'office.portal.example.net',
    },
  ])('answers as Azure would: $name', async ({ statuses, address, azure }) => {
    expect(answerFor(await plan(file, ...statuses), address)).toBe(azure);
  });

  it('keeps the monitor headers and status ranges, and always-serve', async () => {
    const [profile] = parseYaml(await readFile(file, 'utf8')) as Record<string, unknown>[];
    expect(profile).toMatchObject({
      monitorConfig: {
        customHeaders: [{ name: 'x-probe', value: 'tm' }],
        expectedStatusCodeRanges: [{ min: 200, max: 204 }],
      },
      endpoints: [
        { name: 'office', subnets: ['198.51.100.0/24'] },
        { name: 'partners', subnets: ['203.0.113.0-203.0.113.255'] },
        { name: 'public', alwaysServe: true },
      ],
    });
  });
});

describe('tm import azure: usage and errors', () => {
  it('--help prints the usage and exits 0', async () => {
    const { code, stdout } = await tmInProcess('import', 'azure', '--help');
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: tm import azure [options] <file...>');
    expect(stdout).toContain('--target <RESOURCE_ID=HOST>');
  });

  it('writes YAML on stdout without -o', async () => {
    const { code, stdout } = await tmInProcess('import', 'azure', fixture('az-list.json'), ...ZONE);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^# Imported from Azure Traffic Manager by tm import azure\.\n- name: app\n/);
  });

  it.each([
    { name: 'an unknown flag', args: ['x.json', ...ZONE, '--frob'], message: "unknown option '--frob'" },
    {
      name: 'no --zone',
      args: ['x.json', '--hosted-zone-id', 'Z1'],
      message: "required option '--zone <zone>' not specified",
    },
    { name: 'no FILE', args: [...ZONE], message: "missing required argument 'file'" },
    {
      name: 'an -o that is not .yaml, .json or .ts',
      args: ['x.json', ...ZONE, '-o', 'out.txt'],
      message: '-o out.txt: must end in .yaml, .yml, .json or .ts',
    },
    {
      name: 'a --target without =HOST',
      args: ['x.json', ...ZONE, '--target', '/sub/x'],
      message: '--target /sub/x: must look like RESOURCE_ID=HOST',
    },
  ])('exits 2 on a usage error: $name', async ({ args, message }) => {
    const { code, stderr } = await tmInProcess('import', 'azure', ...args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('imports the profiles of a resource group export and reports each other resource as not imported', async () => {
    const { file, report } = await imported('with-other-resources.yaml', [
      'priority.with-other-resources.json',
    ]);
    expect(report).toContain(
      'priority.with-other-resources.json resources[1] "site-app": is a "Microsoft.Web/sites", not a Traffic Manager resource: not imported',
    );
    expect(report).toMatch(
      /resources\[2\] "\[concat\('zone-', uniqueString\(resourceGroup\(\)\.id\)\)\]": is a "Microsoft\.Network\/dnsZones", not a Traffic Manager resource: not imported/,
    );
    expect(values(await answers(file, 'site.example.com'))).toEqual(['app.example.net']);
  });

  it.each([
    {
      name: 'an ARM expression other than parameters, variables, concat, format, resourceId',
      file: 'errors.expression.json',
      message:
        'errors.expression.json resources[0].properties.dnsConfig.relativeName: uses the ARM function uniqueString(), which tm import azure does not evaluate',
    },
    {
      name: 'a parameter without a value',
      file: 'errors.expression.json',
      message:
        'errors.expression.json resources[0].properties.endpoints[0].properties.target: names the parameter "host", which has no value',
    },
    {
      name: 'a nested endpoint whose child profile is not imported',
      file: 'errors.expression.json',
      message: 'names the profile "elsewhere", which is not in the files imported: import it with this one',
    },
    {
      name: 'a file that is not JSON',
      file: 'errors.not-json.yaml',
      message: 'errors.not-json.yaml: is not JSON',
    },
    {
      name: "a file that is not Azure's",
      file: 'errors.not-azure.json',
      message:
        'is neither an ARM template (resources), a parameters file, nor the JSON of az network traffic-manager profile show',
    },
  ])('exits 1 naming the field: $name', async ({ file, message }) => {
    const { code, stderr } = await tmInProcess('import', 'azure', fixture(file), ...ZONE);
    expect(code).toBe(1);
    expect(stderr).toContain(message);
  });
});
