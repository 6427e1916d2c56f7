/**
 * Loads a definitions file — `.ts`/`.mts`/`.js`/`.mjs` (the default export), `.json`,
 * `.yaml`/`.yml` — holding a list of profiles or `{ profiles: [...] }`, and validates it.
 * A file that cannot be read or parsed throws a `DefinitionsLoadError` naming the file;
 * invalid content is a result with every issue, formatted. The one loader of `tm` and of
 * CDK's `loadProfiles`.
 *
 * A module is the user's code: it is imported in a worker thread (`module-worker.mjs`)
 * with a time and a memory limit, so a top-level await that never settles, a busy loop,
 * a timer or `process.exit()` inside it ends in a `DefinitionsLoadError` naming the file,
 * never in a hang or a silent exit of the caller.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { load as parseYaml, YAMLException } from 'js-yaml';
import { INPUT_BOUNDS } from '../../shared/profile/defaults.js';
import { formatIssue } from '../../shared/profile/issues.js';
import type { ProfileDefaults } from '../../shared/profile/defaults.js';
import { parseDefinitions } from '../../shared/profile/parse.js';
import type { ValidationIssue } from '../../shared/profile/issues.js';
import type { Profile } from '../../shared/profile/types.js';
import {
  DefinitionsFileNotFoundError,
  DefinitionsLoadError,
  DefinitionsModuleError,
  DefinitionsSyntaxError,
  DefinitionsTimeoutError,
  UnsupportedDefinitionsFormatError,
} from './errors.js';

export type LoadResult =
  /** `notices`: for the author to read; they do not make the file invalid. */
  | { ok: true; profiles: Profile[]; notices: Notice[] }
  /** `formatted`: the first `MAX_FORMATTED_ISSUES` issues, then one line saying how many more there are. */
  | { ok: false; issues: ValidationIssue[]; formatted: string[] };

/** A notice of a valid file: its rule (`azure-form`, `deploy-requirement`) and its line. */
export interface Notice {
  readonly rule: string;
  readonly text: string;
}

/** Problems printed one per line; past this many, one line counts the rest. */
export const MAX_FORMATTED_ISSUES = 100;
/** YAML aliases in one file: plenty for sharing settings, few enough to rule out alias bombs. */
const MAX_YAML_ALIASES = 1_000;

/** How long a definitions module may take to load (import and evaluate, including top-level awaits). */
export const DEFINITIONS_LOAD_TIME_LIMIT_MS = 10_000;
/** The heap a definitions module may use while loading. */
const DEFINITIONS_MODULE_HEAP_MB = 256;

export interface LoadOptions {
  /** @default DEFINITIONS_LOAD_TIME_LIMIT_MS */
  readonly timeLimitMs?: number;
  /** The deployment's defaults (the CDK prop `staticFailover`). @default - the documented defaults */
  readonly defaults?: ProfileDefaults;
}

const MODULE_EXTENSIONS = new Set(['.ts', '.mts', '.js', '.mjs']);
const YAML_EXTENSIONS = new Set(['.yaml', '.yml']);
const MODULE_WORKER = new URL('./module-worker.mjs', import.meta.url);

export async function loadDefinitions(file: string, options: LoadOptions = {}): Promise<LoadResult> {
  const input = await readDefinitions(file, options);
  const result = parseDefinitions(input, options.defaults);
  if (result.ok)
    return {
      ok: true,
      profiles: result.profiles,
      notices: result.notices.map((notice) => ({ rule: notice.rule, text: formatIssue(notice, input) })),
    };
  const shown = result.issues.slice(0, MAX_FORMATTED_ISSUES).map((issue) => formatIssue(issue, input));
  const more = result.issues.length - shown.length;
  return {
    ok: false,
    issues: result.issues,
    formatted: more > 0 ? [...shown, `… and ${more} more ${more === 1 ? 'problem' : 'problems'}`] : shown,
  };
}

/** The raw content of a definitions file, not yet validated. */
async function readDefinitions(file: string, options: LoadOptions): Promise<unknown> {
  const path = resolve(file);
  const extension = extname(path).toLowerCase();
  const known = MODULE_EXTENSIONS.has(extension) || YAML_EXTENSIONS.has(extension) || extension === '.json';
  if (!known) throw new UnsupportedDefinitionsFormatError(file);
  const stats = await stat(path).catch((error: unknown) => {
    throw new DefinitionsFileNotFoundError(file, { cause: error });
  });
  if (!stats.isFile()) throw new DefinitionsLoadError(file, 'is not a file');
  if (stats.size > INPUT_BOUNDS.fileBytes)
    throw new DefinitionsLoadError(
      file,
      `is ${stats.size} bytes; a definitions file may be at most ${INPUT_BOUNDS.fileBytes} bytes (${INPUT_BOUNDS.fileBytes / 1_048_576} MiB)`,
    );
  if (MODULE_EXTENSIONS.has(extension))
    return importDefault(file, path, options.timeLimitMs ?? DEFINITIONS_LOAD_TIME_LIMIT_MS);
  const text = await readFile(path, 'utf8');
  try {
    return extension === '.json' ? JSON.parse(text) : parseYaml(text, { maxAliases: MAX_YAML_ALIASES });
  } catch (error) {
    throw new DefinitionsSyntaxError(file, syntaxDetail(error), { cause: error });
  }
}

type WorkerMessage =
  | { kind: 'value'; value: unknown }
  | { kind: 'no-default' }
  | { kind: 'not-data'; message: string }
  | { kind: 'exit'; code: number | string }
  | { kind: 'error'; message: string };

/** The module's default export, copied out of the worker it ran in; the worker is ended either way. */
function importDefault(file: string, path: string, timeLimitMs: number): Promise<unknown> {
  const worker = new Worker(MODULE_WORKER, {
    workerData: { url: pathToFileURL(path).href },
    resourceLimits: { maxOldGenerationSizeMb: DEFINITIONS_MODULE_HEAP_MB },
  });
  let timer: NodeJS.Timeout | undefined;
  let outcome: WorkerMessage | undefined;
  return new Promise<unknown>((settle, fail) => {
    timer = setTimeout(() => fail(new DefinitionsTimeoutError(file, timeLimitMs)), timeLimitMs);
    worker.on('message', (message: WorkerMessage) => {
      outcome = message;
      if (message.kind === 'value') settle(message.value);
      else if (message.kind !== 'exit') fail(moduleError(file, message)); // exit: the worker is about to exit
    });
    worker.on('error', (error: Error & { code?: string }) =>
      fail(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new DefinitionsModuleError(file, `used more than ${DEFINITIONS_MODULE_HEAP_MB} MB while loading`)
          : new DefinitionsSyntaxError(file, briefly(error), { cause: error }),
      ),
    );
    worker.on('exit', () =>
      fail(
        outcome?.kind === 'exit'
          ? moduleError(file, outcome)
          : new DefinitionsModuleError(
              file,
              'its top-level await never settled (nothing was left to run, so the module could not finish)',
            ),
      ),
    );
  }).finally(() => {
    clearTimeout(timer);
    // The value is ours now; whatever the module left running (timers, sockets) ends with it.
    void worker.terminate();
  });
}

function moduleError(file: string, message: Exclude<WorkerMessage, { kind: 'value' }>): DefinitionsLoadError {
  switch (message.kind) {
    case 'no-default':
      return new DefinitionsLoadError(file, 'has no default export (export default defineProfiles([...]))');
    case 'not-data':
      return new DefinitionsModuleError(
        file,
        `the default export must be plain data (lists, objects, strings, numbers, booleans): ${truncate(message.message)}`,
      );
    case 'exit':
      return new DefinitionsModuleError(
        file,
        `called process.exit(${message.code}) while loading; a definitions module must only export its profiles`,
      );
    case 'error':
      return new DefinitionsSyntaxError(file, briefly(message.message));
  }
}

/** js-yaml's reason with its 1-based position; anything else briefly. */
function syntaxDetail(error: unknown): string {
  if (error instanceof YAMLException && error.mark !== undefined)
    return `line ${error.mark.line + 1}, column ${error.mark.column + 1}: ${error.reason}`;
  return truncate(briefly(error), 200);
}

function truncate(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
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
