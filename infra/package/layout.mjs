// What the package's dist/ is made of: the source folders, compiled, and beside them the files
// the code reads at run time. Used by the build (build.mjs) and by the tests' compiled `tm`.
/* global URL */
import { readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SOURCE_FOLDERS = ['shared', 'functions', 'infra'];
const RUNTIME_FILES = new Set(['.mjs', '.json', '.java', '.html', '.css']);

/** Every file of the source folders the package ships (the packaging scripts here are not). */
export function packageSources() {
  return SOURCE_FOLDERS.flatMap((folder) => [...filesUnder(join(PACKAGE_ROOT, folder))])
    .filter((file) => !file.includes('/infra/package/'))
    .sort();
}

/** A file copied beside the compiled code as it is. */
export function isRuntimeFile(file) {
  return RUNTIME_FILES.has(extname(file));
}

function* filesUnder(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}
