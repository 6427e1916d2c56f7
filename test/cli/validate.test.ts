import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summarize } from '../../infra/cli/validate.js';
import { parseDefinitions } from '../support/profile-api.js';
import { tmInProcess } from '../support/tm.js';
import { compiledTm } from '../support/compiled-tm.js';

const root = new URL('../../', import.meta.url).pathname;
const example = (file: string) => join(root, 'examples', file);

const validate = (args: string[]) => tmInProcess('validate', ...args);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tm-validate-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('tm validate FILE', () => {
  it('exits 0 with one aligned summary line per profile first', async () => {
    // Act
    const { code, stdout, stderr } = await validate([example('definitions.ts')]);

    // Assess
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout.split('\n').slice(0, 8)).toEqual([
      'shop    Priority     shop.example.com    TTL 30  HTTPS:443/health every 30s        3 endpoints (1 disabled)',
      'api     Weighted     api.example.com     TTL 60  HEAD HTTP:8080/healthz every 30s  3 endpoints',
      'media   Performance  media.example.com   TTL 30  HTTPS:443/ping every 10s          3 endpoints',
      'www     Geographic   www.example.com     TTL 30  HTTPS:443/health every 30s        4 endpoints (1 nested)',
      'www-eu  Priority     www-eu.example.com  TTL 30  HTTPS:443/health every 30s        2 endpoints',
      'edge    MultiValue   edge.example.com    TTL 20  TCP:443 every 30s                 5 endpoints',
      'portal  Subnet       portal.example.com  TTL 30  HTTPS:443/status every 30s        3 endpoints',
      '',
    ]);
  });

  it("then prints each profile's failover figures", async () => {
    // Act
    const { stdout } = await validate([example('definitions.ts')]);

    // Assess
    expect(stdout).toContain(
      "\nWorst cases in AWS (publish: the evaluator's 2 s stream batching window + 60 s Route 53 propagation):\n" +
        'shop\n' +
        '  users move away within (3+1) × 30 s interval + 10 s timeout + 62 s publish + 30 s TTL = 222 s\n' +
        '  they come back within 1 × 30 s interval + 10 s timeout + 62 s publish + 30 s TTL = 132 s\n' +
        '  6 checks/min per endpoint (3 regions × 2/min)\n' +
        'api\n',
    );
  });

  it('exits 1 with every problem on stderr, one per line, and a count', async () => {
    // Act
    const { code, stdout, stderr } = await validate([example('invalid.yaml')]);

    // Assess
    const lines = stderr.trimEnd().split('\n');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(lines).toHaveLength(24);
    expect(lines).toContain('profiles[0] "shop" endpoints[0] "east".weight: must be an integer 1–255, got 0');
    expect(lines.at(-1)).toMatch(/invalid\.yaml: 23 problems$/);
  });

  it('exits 1 naming the file when it cannot be read', async () => {
    // Prepare
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{');

    // Act
    const { code, stderr } = await validate([broken]);

    // Assess
    expect(code).toBe(1);
    expect(stderr).toMatch(/^tm validate: .*broken\.json: cannot be read: /);
  });

  it('exits 0 and says on stderr that deploying needs the hosted zone id a profile leaves out', async () => {
    // Prepare
    const file = join(dir, 'no-zone-id.json');
    await writeFile(
      file,
      JSON.stringify([
        {
          name: 'shop',
          trafficRoutingMethod: 'Priority',
          dnsConfig: { zoneName: 'Example.com', relativeName: 'shop' },
          endpoints: [{ name: 'east', target: 'east.example.net' }],
        },
      ]),
    );

    // Act
    const { code, stdout, stderr } = await validate([file]);

    // Assess
    expect(code).toBe(0);
    expect(stdout).toMatch(/^shop +Priority +shop\.example\.com /);
    expect(stderr).toBe(
      'notice: profiles[0] "shop".dnsConfig.hostedZoneId: deploying needs the id of the hosted zone "example.com", here or in the CDK construct\'s hostedZones prop, got nothing\n',
    );
  });

  it("exits 0 for a profile written with Azure's values, with a notice per field it maps or drops", async () => {
    // Prepare
    const file = join(dir, 'azure.yaml');
    await writeFile(
      file,
      [
        '- name: media',
        '  trafficRoutingMethod: performance',
        '  profileStatus: enabled',
        '  dnsConfig: { zoneName: example.com, hostedZoneId: Z00000000000000000001, relativeName: media }',
        '  monitorConfig: { protocol: https, path: /ping, profileMonitorStatus: Online }',
        '  endpoints:',
        '    - name: eu',
        '      type: Microsoft.Network/trafficManagerProfiles/externalEndpoints',
        '      target: eu.media.example.net',
        '      endpointLocation: West Europe',
        '      alwaysServe: Enabled',
        '      endpointMonitorStatus: Online',
        '',
      ].join('\n'),
    );

    // Act
    const { code, stdout, stderr } = await validate([file]);

    // Assess
    expect(code).toBe(0);
    expect(stdout).toMatch(/^media +Performance +media\.example\.com .* 1 endpoint\n\n/);
    expect(stderr.split('\n')).toEqual([
      'notice: profiles[0] "media".monitorConfig.profileMonitorStatus: is a field Azure sets (read-only or resource metadata) and is ignored, got "Online"',
      'notice: profiles[0] "media" endpoints[0] "eu".endpointLocation: is the Azure region West Europe (Netherlands): latency is measured to the nearest AWS region, eu-west-2, got "West Europe"',
      'notice: profiles[0] "media" endpoints[0] "eu".endpointMonitorStatus: is a field Azure sets (read-only or resource metadata) and is ignored, got "Online"',
      '',
    ]);
  });

  it('says "problem" for one problem', async () => {
    // Prepare
    const one = join(dir, 'one.json');
    await writeFile(
      one,
      JSON.stringify([
        {
          name: 'a',
          trafficRoutingMethod: 'Priority',
          dnsConfig: { zoneName: 'example.com', relativeName: 'a', ttl: -1 },
          endpoints: [],
        },
      ]),
    );

    // Act
    const { code, stderr } = await validate([one]);

    // Assess
    expect(code).toBe(1);
    expect(stderr).toMatch(/one\.json: 1 problem\n$/);
  });

  it.each([
    { name: 'no FILE', args: [] },
    { name: 'two FILEs', args: ['a.yaml', 'b.yaml'] },
    { name: 'an unknown option', args: ['--strict', 'a.yaml'] },
  ])('exits 2 on a usage error: $name', async ({ args }) => {
    // Act
    const { code, stderr } = await validate(args);

    // Assess
    expect(code).toBe(2);
    expect(stderr).toMatch(/^tm validate: /);
    expect(stderr).toContain('(tm validate --help shows the usage)');
  });

  it('prints usage and exits 0 for --help', async () => {
    // Act
    const { code, stdout } = await validate(['--help']);

    // Assess
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: tm validate [options] <file>');
  });

  it('marks disabled profiles in the summary', () => {
    // Prepare
    const result = parseDefinitions([
      {
        name: 'a',
        profileStatus: 'Disabled',
        trafficRoutingMethod: 'Priority',
        dnsConfig: { zoneName: 'example.com', relativeName: 'a' },
        endpoints: [{ name: 'x', target: 'x.example.net' }],
      },
    ]);

    // Act
    const lines = result.ok ? summarize(result.profiles) : [];

    // Assess
    expect(lines).toEqual(['a  Priority  a.example.com  TTL 30  HTTP:80/ every 30s  1 endpoint  Disabled']);
  });
});

describe('the tm binary', () => {
  const execute = promisify(execFile);

  it.each([
    { name: 'YAML', file: 'definitions.yaml', lines: 2 },
    { name: 'JSON', file: 'definitions.json', lines: 1 },
  ])('validates the $name example as a child process (exit 0)', async ({ file, lines }) => {
    // Act
    const { stdout } = await execute(process.execPath, [await compiledTm(), 'validate', example(file)], {
      cwd: root,
    });

    // Assess
    expect(stdout.split('\n\n')[0]?.split('\n')).toHaveLength(lines);
  });

  it('exits 1 for the invalid example as a child process', async () => {
    // Act
    const failure = await execute(
      process.execPath,
      [await compiledTm(), 'validate', example('invalid.yaml')],
      { cwd: root },
    ).catch((error: { code: number; stderr: string }) => error);

    // Assess
    expect('code' in failure ? failure.code : 0).toBe(1);
    expect('stderr' in failure ? failure.stderr : '').toContain(
      'profiles[1] "db".monitorConfig.port: is required when protocol is TCP, got nothing',
    );
  });
});
