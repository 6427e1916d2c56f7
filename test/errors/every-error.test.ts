/**
 * Errors one way: every error class of the production code (functions/, shared/, infra/,
 * bin/) extends `TrafficManagerError`, is exported, sets `name` to its class name (written
 * out, so minified bundles keep it) and carries a stable `code`; nothing throws a bare
 * `Error`. The classes are found by reading the sources, so a new one is checked without
 * being listed here; only the constructor arguments of those that need more than a message are.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TrafficManagerError } from '../../shared/errors.js';

const REPO = join(import.meta.dirname, '..', '..');
const SOURCE_DIRS = ['functions', 'shared', 'infra', 'bin'];

const sources = SOURCE_DIRS.flatMap((dir) =>
  (readdirSync(join(REPO, dir), { recursive: true }) as string[])
    .filter((file) => /\.(ts|mts|js|mjs)$/.test(file) && !/\.test\.|\.d\.ts$/.test(file))
    // The status page's script runs in the browser, which has none of our modules.
    .filter((file) => !file.startsWith(join('ui', 'page')))
    .map((file) => join(REPO, dir, file)),
).map((path) => ({ path, file: relative(REPO, path), text: readFileSync(path, 'utf8') }));

/** Every `class X extends Y` of the sources, with the file it is in. */
const classes = sources.flatMap(({ path, file, text }) =>
  [...text.matchAll(/^(?:export )?(?:abstract )?class (\w+) extends (\w+)/gm)].map((m) => ({
    name: m[1]!,
    parent: m[2]!,
    path,
    file,
  })),
);
const parentOf = new Map(classes.map((c) => [c.name, c.parent]));
const isErrorClass = (name: string): boolean => {
  for (let current: string | undefined = name, depth = 0; current !== undefined && depth < 10; depth++) {
    if (current === 'Error') return true;
    current = parentOf.get(current);
  }
  return false;
};
const errorClasses = classes.filter((c) => isErrorClass(c.name) && c.name !== 'TrafficManagerError');

/** Constructor arguments for the classes that take more than a message. */
const ARGUMENTS: Readonly<Record<string, readonly unknown[]>> = {
  UnknownChildProfileError: ['shop', 'eu', 'shop-eu'],
  UnknownGeoCodeError: ['shop', 'eu', 'XX'],
  InvalidDefinitionsError: [['profiles[0] "shop".ttl: must be an integer 0–2147483647, got -1']],
  StatusOverrideError: [['no profile "nope"']],
  NestingCycleError: [['a', 'b', 'a']],
  UnknownEndpointError: ['shop', 'east'],
  MissingEnvironmentVariableError: ['TABLE_NAME', 'the state table'],
  InvalidEnvironmentVariableError: ['PROBE_SHARD', 'must be an integer ≥ 0', 'x'],
  UnprocessedItemsError: ['BatchWriteItem', 3],
  InvalidChangeBatchError: ['Z1', ['Tried to delete resource record set but it was not found']],
  RoundEnqueueError: [['0', '10']],
  DefinitionsLoadError: ['profiles.yaml', 'is not a file'],
  DefinitionsFileNotFoundError: ['profiles.yaml'],
  DefinitionsSyntaxError: ['profiles.yaml', 'bad indentation'],
  UnsupportedDefinitionsFormatError: ['profiles.txt'],
  DefinitionsModuleError: ['profiles.ts', 'called process.exit(1) while loading'],
  DefinitionsTimeoutError: ['profiles.ts', 5_000],
  MissingHostedZoneError: [[{ name: 'shop', zoneName: 'example.com' }]],
  LocalSecretsFileError: ['secrets.yaml', ['must be an object']],
  DnsPortInUseError: ['127.0.0.1', 5353],
  DnsPortAccessError: ['127.0.0.1', 53],
  ClientLocationsError: ['locations.json', ['"x": is not a CIDR']],
  StateStoreCheckTimeoutError: [5_000],
  Route53ApiError: ['InvalidArgument', 400, 'Bad argument'],
  AwsJsonError: ['ValidationException', 'bad input'],
  CloudWatchApiError: ['ResourceNotFound', 'No alarm'],
  HttpGuardError: ['InternalFailure', 'the handler failed'],
};

async function instanceOf(c: (typeof errorClasses)[number]): Promise<unknown> {
  const module = (await import(pathToFileURL(c.path).href)) as Record<string, unknown>;
  const constructor = module[c.name] as (new (...args: unknown[]) => unknown) | undefined;
  if (constructor === undefined) return undefined;
  return new constructor(...(ARGUMENTS[c.name] ?? ['a message']));
}

describe('errors one way', () => {
  it('finds the error classes (the scan works)', () => {
    expect(errorClasses.map((c) => c.name)).toEqual(
      expect.arrayContaining(['InvalidDefinitionsError', 'InvalidChangeBatchError', 'ProfileError']),
    );
  });

  it('TrafficManagerError is the only class that extends Error itself', () => {
    expect(classes.filter((c) => c.parent === 'Error').map((c) => `${c.file}: ${c.name}`)).toEqual([
      'shared/errors.ts: TrafficManagerError',
    ]);
  });

  it('no production code throws a bare Error', () => {
    const bare = sources.flatMap(({ file, text }) =>
      text
        .split('\n')
        .flatMap((line, i) => (/\bnew Error\(/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(bare).toEqual([]);
  });

  it('each class is defined once', () => {
    const names = errorClasses.map((c) => c.name);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it.each(errorClasses.map((c) => ({ ...c, where: `${c.file}: ${c.name}` })))(
    '$where is exported, a TrafficManagerError, with its name and a code',
    async (c) => {
      const error = await instanceOf(c);
      expect(error, `${c.name} is not exported from ${c.file}`).toBeDefined();
      expect(error).toBeInstanceOf(TrafficManagerError);
      const { name, code, message } = error as TrafficManagerError;
      expect(name).toBe(c.name);
      expect(code).toMatch(/^[A-Z][A-Za-z0-9_]*$/);
      expect(String(error)).toBe(`${c.name}: ${message}`);
    },
  );

  it('no two classes share a code', async () => {
    const codes = await Promise.all(
      errorClasses.map(async (c) => `${((await instanceOf(c)) as TrafficManagerError).code} ${c.name}`),
    );
    const byCode = new Map<string, string[]>();
    for (const entry of codes) {
      const [code, name] = entry.split(' ') as [string, string];
      byCode.set(code, [...(byCode.get(code) ?? []), name]);
    }
    expect([...byCode.entries()].filter(([, names]) => names.length > 1)).toEqual([]);
  });
});
