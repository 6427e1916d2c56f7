import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DefinitionsFileNotFoundError,
  DefinitionsLoadError,
  DefinitionsModuleError,
  DefinitionsSyntaxError,
  DefinitionsTimeoutError,
  UnsupportedDefinitionsFormatError,
} from '../../infra/definitions/errors.js';
import { loadDefinitions } from '../../infra/definitions/load.js';

const profile = {
  name: 'shop',
  trafficRoutingMethod: 'Priority',
  dnsConfig: { zoneName: 'example.com', relativeName: 'shop' },
  endpoints: [{ name: 'east', target: 'east.example.net' }],
};
const defineImport = new URL('../../shared/profile/define.ts', import.meta.url).pathname;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tm-definitions-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, content: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

describe('loadDefinitions reads every format', () => {
  it.each([
    { name: 'a JSON list', file: 'list.json', content: JSON.stringify([profile]) },
    { name: 'JSON { profiles }', file: 'wrapped.json', content: JSON.stringify({ profiles: [profile] }) },
    {
      name: 'a YAML list (.yaml)',
      file: 'list.yaml',
      content:
        '- name: shop\n  trafficRoutingMethod: Priority\n  dnsConfig: { zoneName: example.com, relativeName: shop }\n  endpoints:\n    - { name: east, target: east.example.net }\n',
    },
    {
      name: 'YAML profiles: (.yml)',
      file: 'wrapped.yml',
      content:
        'profiles:\n  - name: shop\n    trafficRoutingMethod: Priority\n    dnsConfig: { zoneName: example.com, relativeName: shop }\n    endpoints: [{ name: east, target: east.example.net }]\n',
    },
    {
      name: 'a TypeScript default export with defineProfiles',
      file: 'defs.ts',
      content: `import { defineProfiles } from ${JSON.stringify(defineImport)};\nexport default defineProfiles(${JSON.stringify([profile])});\n`,
    },
    {
      name: 'an ES module default export (.mjs)',
      file: 'defs.mjs',
      content: `export default { profiles: ${JSON.stringify([profile])} };\n`,
    },
  ])('$name', async ({ file: name, content }) => {
    // Prepare
    const path = await file(name, content);

    // Act
    const result = await loadDefinitions(path);

    // Assess
    expect(result.ok ? result.profiles.map((p) => p.dnsConfig.fqdn) : result.formatted).toEqual([
      'shop.example.com',
    ]);
  });

  it('returns every issue, formatted, for invalid content', async () => {
    // Prepare
    const path = await file(
      'invalid.json',
      JSON.stringify([{ ...profile, endpoints: [{ name: 'east', target: 'east.example.net', weight: 0 }] }]),
    );

    // Act
    const result = await loadDefinitions(path);

    // Assess
    expect(result.ok ? [] : result.formatted).toEqual([
      'profiles[0] "shop" endpoints[0] "east".weight: must be an integer 1–255, got 0',
    ]);
    expect(result.ok ? [] : result.issues.map((issue) => issue.rule)).toEqual(['range']);
  });
});

describe('loadDefinitions names the file when it cannot be read', () => {
  it.each([
    {
      name: 'a missing file',
      file: 'missing.yaml',
      content: undefined,
      error: DefinitionsFileNotFoundError,
      message: /missing\.yaml: no such file/,
    },
    {
      name: 'a directory',
      file: 'folder.json',
      content: 'dir',
      error: DefinitionsLoadError,
      message: /folder\.json: is not a file/,
    },
    {
      name: 'an unsupported extension',
      file: 'defs.toml',
      content: '',
      error: UnsupportedDefinitionsFormatError,
      message: /defs\.toml: unsupported file type/,
    },
    {
      name: 'broken JSON',
      file: 'broken.json',
      content: '[{ "name": ',
      error: DefinitionsSyntaxError,
      message: /broken\.json: cannot be read: /,
    },
    {
      name: 'broken YAML',
      file: 'broken.yaml',
      content: 'a: [1, 2\nb: : c\n',
      error: DefinitionsSyntaxError,
      message: /broken\.yaml: cannot be read: .*line/,
    },
    {
      name: 'duplicate YAML keys',
      file: 'dupe.yaml',
      content: 'profiles: []\nprofiles: []\n',
      error: DefinitionsSyntaxError,
      message: /dupe\.yaml: cannot be read: /,
    },
    {
      name: 'a TypeScript syntax error',
      file: 'broken.ts',
      content: 'export default [{ name: \n',
      error: DefinitionsSyntaxError,
      message: /broken\.ts: cannot be read: /,
    },
    {
      name: 'a module without a default export',
      file: 'nodefault.mjs',
      content: 'export const profiles = [];\n',
      error: DefinitionsLoadError,
      message: /nodefault\.mjs: has no default export/,
    },
  ])('$name', async ({ file: name, content, error, message }) => {
    // Prepare
    const path = join(dir, name);
    if (content === 'dir') await (await import('node:fs/promises')).mkdir(path);
    else if (content !== undefined) await writeFile(path, content);

    // Act
    const load = loadDefinitions(path);

    // Assess
    await expect(load).rejects.toBeInstanceOf(error);
    await expect(load).rejects.toThrow(message);
  });
});

describe('loadDefinitions bounds what a definitions module may do while loading', () => {
  it.each([
    {
      name: 'past the time limit it is stopped',
      file: 'slow.mjs',
      content: 'while (Date.now() > 0) {}\nexport default [];\n',
      timeLimitMs: 500,
      error: DefinitionsTimeoutError,
      message: /slow\.mjs: did not finish loading within 0\.5 s/,
    },
    {
      name: 'past the heap limit it is stopped',
      file: 'hungry.mjs',
      content: 'const a = [];\nwhile (true) a.push(new Array(1e6).fill(1));\nexport default a;\n',
      timeLimitMs: undefined,
      error: DefinitionsModuleError,
      message: /hungry\.mjs: used more than 256 MB while loading/,
    },
    {
      name: 'an exception it throws is the reason',
      file: 'throws.mjs',
      content: 'throw new Error("no profiles today");\n',
      timeLimitMs: undefined,
      error: DefinitionsSyntaxError,
      message: /throws\.mjs: cannot be read: no profiles today/,
    },
  ])('$name', async ({ file: name, content, timeLimitMs, error, message }) => {
    // Prepare
    const path = await file(name, content);

    // Act
    const load = loadDefinitions(path, { timeLimitMs });

    // Assess
    await expect(load).rejects.toBeInstanceOf(error);
    await expect(load).rejects.toThrow(message);
  });
});
