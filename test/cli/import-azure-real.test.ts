/**
 * `tm import azure` on the documents Azure users have (test/fixtures/azure/real/, written
 * in the shapes Azure writes them): a portal export, `az … profile show` and `list`, the
 * REST API's list, quickstart templates with comments, Bicep output (`languageVersion 2.0`
 * as for the Azure Verified Module), copy loops, endpoints in another file than their
 * profile. Each document either imports into definitions that pass `tm validate` and
 * `tm plan`, with a report line per field dropped or changed, or is refused with one error
 * naming the file, the place and the way around it.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load as parseYaml } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tm, tmInProcess } from '../support/tm.js';

const REAL = join(import.meta.dirname, '..', 'fixtures', 'azure', 'real');
const ZONE = ['--zone', 'example.com', '--hosted-zone-id', 'Z00000000000000000001'];
const WEST_IP =
  '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/checkout-rg/providers/Microsoft.Network/publicIPAddresses/checkout-west-ip';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tm-import-azure-real-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Profile = Record<string, unknown> & { endpoints: Record<string, unknown>[] };

/** Imports `files` (in test/fixtures/azure/real); the result must pass tm validate and tm plan. */
async function imported(files: readonly string[], ...args: string[]) {
  const out = join(dir, `${files[0] ?? 'out'}.yaml`);
  const result = await tmInProcess(
    'import',
    'azure',
    ...files.map((f) => join(REAL, f)),
    ...ZONE,
    '-o',
    out,
    ...args,
  );
  expect(result.stderr).not.toContain('problem');
  expect(result.code).toBe(0);
  const validate = await tmInProcess('validate', out);
  expect(validate.stderr).toBe('');
  expect(validate.code).toBe(0);
  const plan = await tmInProcess('plan', out, '--json');
  expect(plan.stderr).toBe('');
  expect(plan.code).toBe(0);
  const profiles = parseYaml(await readFile(out, 'utf8')) as Profile[];
  return { profiles, report: result.stderr };
}

/** Imports `files`; the import must be refused with exactly one problem line, which is returned. */
async function refused(files: readonly string[]): Promise<string> {
  const result = await tmInProcess('import', 'azure', ...files.map((f) => join(REAL, f)), ...ZONE);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('tm import azure: 1 problem; nothing written');
  const [line] = result.stderr.split('\n');
  return line ?? '';
}

describe('tm import azure: each defect found with real Azure documents', () => {
  it('1. maxReturn 0 on a profile that is not MultiValue (portal export) is dropped with a report line', async () => {
    const { profiles, report } = await imported(['portal-export.priority.json']);
    expect(profiles[0]).not.toHaveProperty('maxReturn');
    expect(report).toContain(
      'portal-export.priority.json resources[0] "shop-tm".maxReturn: is 0, which Azure ignores for a Priority profile (it is MultiValue\'s): dropped',
    );
  });

  it('2. endpointLocation on a Weighted profile (az profile show) is dropped with a report line quoting the Azure value', async () => {
    const { profiles, report } = await imported(
      ['az-show.weighted.json'],
      '--target',
      `${WEST_IP}=west.checkout.example.net`,
    );
    expect(profiles[0]?.endpoints.map((e) => [e.name, e.target, e.weight, e.endpointLocation])).toEqual([
      ['east-app', 'checkout-east.azurewebsites.net', 3, undefined],
      ['west-app', 'west.checkout.example.net', 1, undefined],
    ]);
    expect(report).toContain(
      'az-show.weighted.json "checkout" endpoints[0] "east-app".endpointLocation: is "East US", which Azure ignores for a Weighted profile (it is Performance\'s): dropped',
    );
  });

  it('2. in a definitions file, endpointLocation on a Weighted profile is refused quoting the Azure region written', async () => {
    const file = join(dir, 'weighted-with-location.yaml');
    await writeFile(
      file,
      [
        '- name: shop',
        '  trafficRoutingMethod: Weighted',
        '  dnsConfig: { zoneName: example.com, hostedZoneId: Z00000000000000000001, relativeName: shop }',
        '  monitorConfig: { protocol: HTTPS, port: 443, path: / }',
        '  endpoints:',
        '    - { name: east, target: east.example.net, endpointLocation: East US }',
        '',
      ].join('\n'),
    );
    const { code, stderr } = await tmInProcess('validate', file);
    expect(code).toBe(1);
    expect(stderr).toMatch(/endpoints\[0\] "east"\.endpointLocation: .*got "East US"/);
  });

  it('3. integers written as text through parameters and variables are read as ARM reads them', async () => {
    const { profiles, report } = await imported(['strings.weighted.json']);
    expect(profiles[0]).toMatchObject({
      dnsConfig: { ttl: 60 },
      monitorConfig: { port: 443, intervalInSeconds: 10, timeoutInSeconds: 5, toleratedNumberOfFailures: 2 },
      endpoints: [
        { name: 'blue', weight: 3 },
        { name: 'green', weight: 1 },
      ],
    });
    expect(report).toContain(
      'strings.weighted.json resources[0] "api-weighted" properties.endpoints[0] "blue".weight: is the text "3": the integer 3, as ARM reads it',
    );
  });

  it('4. a template and a parameters file with // and /* */ comments are read', async () => {
    const { profiles } = await imported([
      'quickstart.performance.json',
      'quickstart.performance.parameters.json',
    ]);
    expect(profiles[0]).toMatchObject({
      name: 'PerformanceProfile',
      dnsConfig: { relativeName: 'perf-quickstart' },
      endpoints: [
        { name: 'tmapp-east', endpointLocation: 'us-east-1' },
        { name: 'tmapp-west', endpointLocation: 'eu-west-2' },
      ],
    });
  });

  it('4. JSON that is broken (not only commented) is still refused, naming line and column', async () => {
    const file = join(dir, 'broken.json');
    await writeFile(file, '{\n  // a comment\n  "resources": [ }\n');
    const { code, stderr } = await tmInProcess('import', 'azure', file, ...ZONE);
    expect(code).toBe(1);
    expect(stderr).toContain(
      'broken.json: is not JSON (ARM templates, parameters files and az output are; comments are allowed): ValueExpected at line 3 column 18',
    );
  });

  it('9. an error of the validation step names the file and the place', async () => {
    expect(await refused(['errors.subnet-range.json'])).toMatch(
      /^\S*errors\.subnet-range\.json "branch" endpoints\[0\] "private-range"\.subnets\[0\]: must be made of whole \/24 blocks/,
    );
  });

  it('10. dependsOn and endpoint ids with functions not evaluated (resourceGroup(), subscription()) are dropped first', async () => {
    const { report } = await imported(['portal-export.priority.json']);
    expect(report).toContain(
      'portal-export.priority.json resources[0] "shop-tm" properties.endpoints[0].id: is the endpoint\'s Azure resource id (read-only): not carried over',
    );
    expect(report).toContain(
      'portal-export.priority.json resources[1] "shop-tm/primary".dependsOn: is ARM deployment metadata',
    );
  });

  it('10. a value that cannot be evaluated is one error, with no follow-on errors', async () => {
    const line = await refused(['errors.reference.json']);
    expect(line).toContain(
      'errors.reference.json resources[1].properties.endpoints[0].properties.target: uses the ARM function reference(), which tm import azure does not evaluate',
    );
    expect(line).toContain('write the value itself in the template or a parameters file');
  });

  it("11. dnsConfig.fqdn gets a report line, and the Azure name quoted is the fqdn (a sovereign cloud's suffix)", async () => {
    const { report } = await imported(['az-list.subnet.json']);
    expect(report).toContain(
      'report: profiles[0] "intranet".dnsConfig.fqdn: is the profile\'s Azure name (read-only): here the name is intranet.example.com, got "intranet.usgovtrafficmanager.net"',
    );
    expect(report).toContain(
      '"intranet".dnsConfig.relativeName: was intranet.usgovtrafficmanager.net in Azure; here it is intranet.example.com',
    );
  });

  it('11. a nested endpoint without targetResourceId says it is missing', async () => {
    expect(await refused(['errors.nested-no-target.json'])).toContain(
      'errors.nested-no-target.json resources[0] "parent" properties.endpoints[0] "child".targetResourceId: is missing: a nested endpoint names its child profile by resource id (…/trafficManagerProfiles/NAME)',
    );
  });

  it('11. a parameter no template declares gets a report line', async () => {
    const { report } = await imported([
      'quickstart.performance.json',
      'quickstart.performance.parameters.json',
    ]);
    expect(report).toContain(
      'quickstart.performance.parameters.json parameters.dnsNameForLB: is not a parameter of any template imported: not used',
    );
  });

  it('11. the REST API list shape { "value": [ … ] } is read', async () => {
    const { profiles } = await imported(['rest-list.geographic.json']);
    expect(profiles.map((p) => [p.name, p.trafficRoutingMethod, p.endpoints.map((e) => e.name)])).toEqual([
      ['storefront', 'Geographic', ['europe', 'rest-of-world']],
    ]);
  });

  it('6 and 5. Bicep output with languageVersion 2.0 (the Azure Verified Module), nullable parameters left out', async () => {
    const { profiles, report } = await imported([
      'bicep2.avm-module.json',
      'bicep2.avm-module.parameters.json',
    ]);
    expect(profiles).toHaveLength(1);
    expect(profiles[0]).toMatchObject({
      name: 'orders-tm',
      trafficRoutingMethod: 'Priority',
      dnsConfig: { relativeName: 'orders-tm', ttl: 60 },
      monitorConfig: { protocol: 'HTTP', port: 80, path: '/' },
      endpoints: [
        { name: 'orders-primary', target: 'orders-1.example.net', priority: 1 },
        { name: 'orders-standby', target: 'orders-2.example.net', priority: 2 },
      ],
    });
    expect(profiles[0]).not.toHaveProperty('trafficViewEnrollmentStatus');
    expect(profiles[0]).not.toHaveProperty('tags');
    expect(report).toContain(
      'bicep2.avm-module.json resources.trafficManagerProfile "orders-tm".maxReturn: is 1',
    );
    expect(report).toMatch(
      /resources\.trafficManagerProfile_lock .*: is a "Microsoft\.Authorization\/locks", not a Traffic Manager resource: not imported/,
    );
    expect(report).toMatch(
      /resources\.avmTelemetry .*: is a nested deployment \(a module\), whose template is not read: if it holds a Traffic Manager profile, import the module's own template/,
    );
  });

  it('7. endpoint resources in another template than their profile are attached to it', async () => {
    const { profiles } = await imported(['split.profile.json', 'split.endpoints.json']);
    expect(profiles[0]?.endpoints.map((e) => [e.name, e.target, e.priority])).toEqual([
      ['docs-main', 'docs-main.example.net', 1],
      ['docs-mirror', 'docs-mirror.example.net', 2],
    ]);
  });

  it('7. an export writing each endpoint inline and beside its profile imports it once', async () => {
    const { profiles, report } = await imported(['portal-export.priority.json']);
    expect(profiles[0]?.endpoints.map((e) => e.name)).toEqual(['primary', 'secondary']);
    expect(report).toMatch(
      /resources\[1\] "primary": is .* "primary" again, as an export writes it: imported once/,
    );
  });

  it('8. a resource copy loop (copyIndex, length, format, toLower, coalesce, tryGet, add) declares one endpoint each', async () => {
    const { profiles } = await imported(['copy-resource.weighted.json']);
    expect(profiles[0]?.endpoints.map((e) => [e.name, e.target, e.weight, e.priority])).toEqual([
      ['origin-a', 'origin-a.media.example.net', 1, 1],
      ['origin-b', 'origin-b.media.example.net', 2, 2],
      ['origin-c', 'origin-c.media.example.net', 4, 3],
    ]);
  });

  it('8. property and variable copy loops (union, createObject, items, if, empty, contains, min, string)', async () => {
    const { profiles } = await imported(['copy-property.multivalue.json']);
    expect(profiles[0]).toMatchObject({
      maxReturn: 3,
      monitorConfig: {
        path: '/',
        customHeaders: [
          { name: 'host', value: 'dns.example.com' },
          { name: 'x-probe', value: 'tm' },
        ],
      },
    });
    expect(profiles[0]?.endpoints.map((e) => [e.name, e.target, e.endpointStatus])).toEqual([
      ['ip-1', '192.0.2.10', 'Enabled'],
      ['ip-2', '192.0.2.11', 'Enabled'],
      ['ip-3', '192.0.2.12', 'Enabled'],
      ['ip-4', '192.0.2.13', 'Disabled'],
    ]);
  });

  it('12. a Subnet range not made of whole /24 blocks is refused, naming the covering blocks and what they add', async () => {
    expect(await refused(['errors.subnet-range.json'])).toContain(
      '(the whole blocks around it are 10.0.0.0-11.0.0.255, 255 more addresses), got "10.0.0.0-11.0.0.0"',
    );
  });
});

/** Every document in test/fixtures/azure/real: imported and planned, or refused with one clear error. */
const CORPUS: readonly { files: string[]; args?: string[]; refused?: RegExp }[] = [
  { files: ['portal-export.priority.json'] },
  { files: ['az-show.weighted.json'], args: ['--target', `${WEST_IP}=west.checkout.example.net`] },
  { files: ['az-list.subnet.json'] },
  { files: ['rest-list.geographic.json'] },
  { files: ['quickstart.performance.json', 'quickstart.performance.parameters.json'] },
  { files: ['strings.weighted.json'] },
  { files: ['copy-resource.weighted.json'] },
  { files: ['copy-property.multivalue.json'] },
  { files: ['bicep2.avm-module.json', 'bicep2.avm-module.parameters.json'] },
  { files: ['split.profile.json', 'split.endpoints.json'] },
  { files: ['nested.bicep-build.json'] },
  {
    files: ['errors.nested-no-target.json'],
    refused: /targetResourceId: is missing: a nested endpoint names its child profile by resource id/,
  },
  {
    files: ['errors.subnet-range.json'],
    refused: /subnets\[0\]: must be made of whole \/24 blocks.*the whole blocks around it are/,
  },
  {
    files: ['errors.reference.json'],
    refused: /target: uses the ARM function reference\(\).*: write the value itself/,
  },
];

describe('tm import azure: the corpus of real shapes', () => {
  it('holds at least 15 documents, every routing method, nested and Azure endpoints', async () => {
    const files = CORPUS.flatMap((entry) => entry.files);
    expect(new Set(files).size).toBeGreaterThanOrEqual(15);
    const methods = new Set<unknown>();
    for (const entry of CORPUS.filter((e) => e.refused === undefined)) {
      const { profiles } = await imported(entry.files, ...(entry.args ?? []));
      for (const profile of profiles) methods.add(profile.trafficRoutingMethod);
    }
    expect([...methods].sort()).toEqual([
      'Geographic',
      'MultiValue',
      'Performance',
      'Priority',
      'Subnet',
      'Weighted',
    ]);
  });

  it.each(CORPUS.filter((e) => e.refused !== undefined).map((e) => ({ ...e, name: e.files.join(' ') })))(
    'refuses $name with one error naming the file and the place',
    async ({ files, refused: message }) => {
      const line = await refused(files);
      expect(line.startsWith(join(REAL, files[0] ?? ''))).toBe(true);
      expect(line).toMatch(message ?? /./);
    },
  );

  it('as an operator runs it (the tm command): Bicep 2.0 output imports, and a refusal is one error, no stack trace', async () => {
    const ok = await tm([
      'import',
      'azure',
      join(REAL, 'bicep2.avm-module.json'),
      join(REAL, 'bicep2.avm-module.parameters.json'),
      ...ZONE,
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('name: orders-tm');
    const no = await tm(['import', 'azure', join(REAL, 'errors.reference.json'), ...ZONE]);
    expect(no.code).toBe(1);
    expect(no.stderr).not.toMatch(/\n\s+at /);
    expect(no.stderr.trim().split('\n')).toHaveLength(2);
  });
});
