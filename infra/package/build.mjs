// `npm run build` (and `prepack`): the package's dist/ — the sources compiled by tsc with
// their .d.ts files, the non-TypeScript files the code reads at run time (worker scripts,
// the DynamoDB Local launcher, data files, the status page) beside them, and every Lambda handler bundled
// ahead of time with the settings the CDK construct uses in this repository
// (infra/cdk/lambda.ts BUNDLING), so an app that installs the package needs no esbuild.
/* global process, console */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';
import { isRuntimeFile, packageSources, PACKAGE_ROOT as root, SOURCE_FOLDERS } from './layout.mjs';

const dist = join(root, 'dist');

rmSync(dist, { recursive: true, force: true });
execFileSync(
  process.execPath,
  [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')],
  {
    stdio: 'inherit',
  },
);

for (const file of packageSources().filter(isRuntimeFile)) {
  const target = join(dist, relative(root, file));
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(file, target);
}

const { LAMBDA_ENTRIES, bundleDirOf } = await import(join(dist, 'infra/cdk/lambda-entries.js'));
const { BUNDLING } = await import(join(dist, 'infra/cdk/lambda.js'));
for (const entry of LAMBDA_ENTRIES) {
  await build({
    entryPoints: [join(root, entry)],
    outfile: join(dist, bundleDirOf(entry), 'index.mjs'),
    bundle: true,
    platform: 'node',
    logLevel: 'warning',
    ...BUNDLING,
    external: [...BUNDLING.external],
    mainFields: [...BUNDLING.mainFields],
    banner: { js: BUNDLING.banner },
  });
}
console.log(`dist/: compiled ${SOURCE_FOLDERS.join(', ')}; bundled ${LAMBDA_ENTRIES.length} Lambda handlers`);
