/**
 * Loads a definitions file — `.ts`/`.mts`/`.js`/`.mjs` (the default export), `.json`,
 * `.yaml`/`.yml` — holding a list of profiles or `{ profiles: [...] }`, and validates it.
 * A file that cannot be read or parsed throws a `DefinitionsLoadError` naming the file;
 * invalid content is a result with every issue, formatted.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { formatIssue } from '../../shared/profile/issues.js';
import { parseDefinitions } from '../../shared/profile/parse.js';
import type { ValidationIssue } from '../../shared/profile/issues.js';
import type { Profile } from '../../shared/profile/types.js';
import {
  DefinitionsFileNotFoundError,
  DefinitionsLoadError,
  DefinitionsSyntaxError,
  UnsupportedDefinitionsFormatError,
} from './errors.js';

export type LoadResult =
  { ok: true; profiles: Profile[] } | { ok: false; issues: ValidationIssue[]; formatted: string[] };

const MODULE_EXTENSIONS = new Set(['.ts', '.mts', '.js', '.mjs']);
const YAML_EXTENSIONS = new Set(['.yaml', '.yml']);

export async function loadDefinitions(file: string): Promise<LoadResult> {
  const input = await readDefinitions(file);
  const result = parseDefinitions(input);
  if (result.ok) return result;
  return {
    ok: false,
    issues: result.issues,
    formatted: result.issues.map((issue) => formatIssue(issue, input)),
  };
}

/** The raw content of a definitions file, not yet validated. */
export async function readDefinitions(file: string): Promise<unknown> {
  const path = resolve(file);
  const extension = extname(path).toLowerCase();
  const known = MODULE_EXTENSIONS.has(extension) || YAML_EXTENSIONS.has(extension) || extension === '.json';
  if (!known) throw new UnsupportedDefinitionsFormatError(file);
  try {
    if (!(await stat(path)).isFile()) throw new DefinitionsLoadError(file, 'is not a file');
  } catch (error) {
    if (error instanceof DefinitionsLoadError) throw error;
    throw new DefinitionsFileNotFoundError(file, { cause: error });
  }
  if (MODULE_EXTENSIONS.has(extension)) return importDefault(file, path);
  const text = await readFile(path, 'utf8');
  try {
    return extension === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new DefinitionsSyntaxError(file, briefly(error), { cause: error });
  }
}

async function importDefault(file: string, path: string): Promise<unknown> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new DefinitionsSyntaxError(file, briefly(error), { cause: error });
  }
  if (!('default' in module)) {
    throw new DefinitionsLoadError(file, 'has no default export (export default defineProfiles([...]))');
  }
  return module.default;
}

function briefly(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // Transform errors put the location on the second line ("Transform failed…\nfile.ts:3:7: ERROR: …").
  return message
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, 2)
    .join(' ');
}
