/**
 * `tm` as the installed package runs it: `bin/tm.js` beside a `dist/` of compiled JavaScript
 * (no tsx), laid out as `npm install traffic-manager` lays it out. Tests that start `tm` as a
 * child process start this one: it is the path a user of the package runs, and it starts in
 * 0.35 s of CPU where `bin/tm.js` over the TypeScript sources takes 0.77 s (tsx compiles every
 * module it loads), which across the suite's few hundred `tm` processes is minutes of CPU.
 *
 * The sources are transformed file by file by esbuild (no bundling, so every module, data file
 * and worker script stands where the package has it) into node_modules/.cache, under a name
 * made from the sources' content: a changed source gets a new build, and concurrent test
 * workers that find none build it side by side and keep whichever lands first.
 */
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';
import { isRuntimeFile, packageSources, PACKAGE_ROOT as ROOT } from '../../infra/package/layout.mjs';

const CACHE = join(ROOT, 'node_modules', '.cache', 'traffic-manager-tm');

let built: Promise<string> | undefined;

/** The path of the compiled package's `bin/tm.js`, building it first when the sources changed. */
export function compiledTm(): Promise<string> {
  built ??= buildOnce();
  return built;
}

async function buildOnce(): Promise<string> {
  const sources = packageSources();
  const hash = createHash('sha256');
  // The sources, the bin, the package and this recipe.
  for (const file of [
    ...sources,
    join(ROOT, 'bin', 'tm.js'),
    join(ROOT, 'package.json'),
    import.meta.filename,
  ]) {
    hash.update(relative(ROOT, file)).update(readFileSync(file));
  }
  const target = join(CACHE, hash.digest('hex').slice(0, 16));
  const bin = join(target, 'bin', 'tm.js');
  if (existsSync(bin)) return bin;

  const staging = `${target}.${process.pid}.${Date.now()}`;
  await build({
    entryPoints: sources.filter((file) => file.endsWith('.ts')),
    outdir: join(staging, 'dist'),
    outbase: ROOT,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    logLevel: 'warning',
  });
  for (const file of sources.filter(isRuntimeFile)) {
    const copy = join(staging, 'dist', relative(ROOT, file));
    mkdirSync(dirname(copy), { recursive: true });
    copyFileSync(file, copy);
  }
  // The package's root (its "type": "module" makes bin/tm.js and dist/ ES modules) and
  // dist/package.json as tsc emits it (the probe's user agent and `tm --version` read it).
  copyFileSync(join(ROOT, 'package.json'), join(staging, 'package.json'));
  copyFileSync(join(ROOT, 'package.json'), join(staging, 'dist', 'package.json'));
  cpSync(join(ROOT, 'bin', 'tm.js'), join(staging, 'bin', 'tm.js'));
  try {
    renameSync(staging, target);
  } catch {
    // Another worker's build landed first: the same sources, so the same files.
    rmSync(staging, { recursive: true, force: true });
  }
  pruneOlderBuilds(target);
  return bin;
}

/** Builds of sources that have since changed, an hour or more old (a test run still using one has ended). */
function pruneOlderBuilds(current: string): void {
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    // A worker's staging folder may be renamed away meanwhile: no entry, nothing to prune.
    const modified = statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
    if (path !== current && Date.now() - modified > 3_600_000) rmSync(path, { recursive: true, force: true });
  }
}
