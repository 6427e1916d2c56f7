/**
 * Validation bounds what the rest can carry: the documented limits (header lengths,
 * endpoints per profile, profiles, stored sizes) and hostile input (cycles, depth, huge
 * strings, huge counts) all end in house-style lines, never in an exception.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DefinitionsLoadError } from '../../infra/definitions/errors.js';
import { loadDefinitions, MAX_FORMATTED_ISSUES } from '../../infra/definitions/load.js';
import { INPUT_BOUNDS, LIMITS } from '../../shared/profile/defaults.js';
import { formatIssue, formatReceived, parseDefinitions } from '../support/profile-api.js';

type Json = Record<string, unknown>;

function endpoint(i: number, extra: Json = {}): Json {
  return { name: `e${i}`, target: `e${i}.example.net`, ...extra };
}

function profile(name: string, endpoints: Json[], monitor: Json = {}): Json {
  return {
    name,
    trafficRoutingMethod: 'Priority',
    dnsConfig: { zoneName: 'example.com', relativeName: name },
    monitorConfig: monitor,
    endpoints,
  };
}

/** Eight headers of `length` characters each (at the value limit they are valid one by one). */
function bigHeaders(length: number): Json[] {
  return Array.from({ length: LIMITS.customHeaders }, (_, i) => ({
    name: `x-h${i}`,
    value: 'v'.repeat(length),
  }));
}

function lines(input: unknown): string[] {
  const result = parseDefinitions(input);
  return result.ok ? [] : result.issues.map((issue) => formatIssue(issue, input));
}

describe('documented limits are enforced with the house-style error', () => {
  it.each([
    {
      name: 'a header value longer than the limit',
      input: [
        profile('shop', [endpoint(0)], { customHeaders: [{ name: 'x-big', value: 'a'.repeat(9_000) }] }),
      ],
      expected: [
        'profiles[0] "shop".monitorConfig.customHeaders[0].value: must be a header value of at most 8192 characters, got 9000 characters',
      ],
    },
    {
      name: 'a header name longer than the limit (endpoint level)',
      input: [profile('shop', [endpoint(0, { customHeaders: [{ name: 'x'.repeat(300), value: 'v' }] })])],
      expected: [
        'profiles[0] "shop" endpoints[0] "e0".customHeaders[0].name: must be a header name of at most 256 characters, got 300 characters',
      ],
    },
    {
      name: 'a header value longer than the limit in the string form',
      input: [profile('shop', [endpoint(0)], { customHeaders: `x-big:${'a'.repeat(9_000)}` })],
      expected: [
        'profiles[0] "shop".monitorConfig.customHeaders[0]: must be a header value of at most 8192 characters, got 9000 characters',
      ],
    },
    {
      name: 'more endpoints than a profile may hold (10,000)',
      input: [
        profile(
          'shop',
          Array.from({ length: 10_000 }, (_, i) => endpoint(i)),
        ),
      ],
      expected: ['profiles[0] "shop".endpoints: must hold at most 200 endpoints, got 10000'],
    },
    {
      name: 'one endpoint more than the limit',
      input: [
        profile(
          'shop',
          Array.from({ length: 201 }, (_, i) => endpoint(i, { priority: i + 1 })),
        ),
      ],
      expected: ['profiles[0] "shop".endpoints: must hold at most 200 endpoints, got 201'],
    },
    {
      name: 'more profiles than a deployment may hold',
      input: Array.from({ length: 201 }, (_, i) => profile(`p${i}`, [])),
      expected: ['profiles: must hold at most 200 profiles, got 201'],
    },
  ])('$name', ({ input, expected }) => {
    expect(lines(input)).toEqual(expected);
  });

  it('accepts exactly the limits: 200 profiles, 200 endpoints, 8 headers at the longest name and value', () => {
    // Prepare
    const headers = [
      { name: 'x'.repeat(LIMITS.headerNameLength), value: 'v'.repeat(LIMITS.headerValueLength) },
    ];
    const input = [
      profile(
        'big',
        Array.from({ length: 200 }, (_, i) => endpoint(i)),
        { customHeaders: headers },
      ),
      ...Array.from({ length: 199 }, (_, i) => profile(`p${i}`, [])),
    ];

    // Act
    const result = parseDefinitions(input);

    // Assess
    expect(result.ok ? result.profiles.length : lines(input)).toBe(200);
  });

  it('a profile too big for its stored item is named with its size', () => {
    // Prepare: six endpoints with eight 8,000-character headers each, every field within its own limit.
    const input = [
      profile(
        'shop',
        Array.from({ length: 6 }, (_, i) => endpoint(i, { customHeaders: bigHeaders(8_000) })),
      ),
    ];

    // Act
    const result = lines(input);

    // Assess
    expect(result).toEqual([
      expect.stringMatching(
        /^profiles\[0\] "shop": must take at most 350000 bytes as stored \(one DynamoDB item; .*\), got 38\d{4} bytes$/,
      ),
    ]);
  });

  it('profiles too big together for one deployment are reported once, with the total', () => {
    // Prepare: 100 profiles of ~325 KB each: each fits its item, all together do not fit.
    const input = Array.from({ length: 100 }, (_, p) =>
      profile(
        `p${p}`,
        Array.from({ length: 5 }, (_, i) => endpoint(i, { customHeaders: bigHeaders(8_000) })),
      ),
    );

    // Act
    const result = lines(input);

    // Assess
    expect(result).toEqual([
      expect.stringMatching(
        /^definitions: must take at most 32000000 bytes as stored, all profiles together \(.*\), got 32\d{6} bytes$/,
      ),
    ]);
  });
});

describe('hostile input gets house-style lines, never an exception', () => {
  const deep = (levels: number): unknown => {
    let value: unknown = [];
    for (let i = 0; i < levels; i++) value = [value];
    return value;
  };
  const cyclic: unknown[] = [];
  cyclic.push(cyclic);
  const bomb = (() => {
    // 9^10 paths through ten shared lists (what YAML aliases make): a tree walk would never end.
    let value: unknown = ['x'];
    for (let i = 0; i < 10; i++) value = Array.from({ length: 9 }, () => value);
    return value;
  })();

  it.each([
    {
      name: 'a list that contains itself',
      input: { profiles: [cyclic] },
      expected: [
        'profiles[0][0]: must not contain itself (a YAML alias or an object that refers back to an enclosing one), got a list that contains itself',
      ],
    },
    {
      name: '100,000-deep arrays',
      input: deep(100_000),
      expected: [
        expect.stringMatching(
          /^profiles(\[0\]){31}: must nest lists and objects at most 32 levels deep, got more than 32 levels$/,
        ),
      ],
    },
    {
      name: 'shared lists that expand exponentially (an alias bomb)',
      input: { profiles: [profile('shop', [endpoint(0, { geoMapping: bomb })])] },
      expected: [
        'definitions: must hold at most 1000000 values (lists, objects, strings, numbers) in all, got more',
      ],
    },
    {
      name: 'a 4 MB header string',
      input: [profile('shop', [endpoint(0)], { customHeaders: `x:${'a'.repeat(4_000_000)}` })],
      expected: [
        'profiles[0] "shop".monitorConfig.customHeaders: must be a string of at most 65536 characters, got a string of 4000002 characters',
      ],
    },
    {
      name: 'a 500,000-character field name',
      input: [{ ...profile('shop', []), ['k'.repeat(500_000)]: 1 }],
      expected: [
        `profiles[0] "shop".${'k'.repeat(40)}: must be a field name of at most 65536 characters, got a field name of 500000 characters`,
      ],
    },
    {
      name: 'a list of 1,100,000 numbers',
      input: Array.from({ length: 1_100_000 }, () => 1),
      expected: [
        'definitions: must hold at most 1000000 values (lists, objects, strings, numbers) in all, got more',
      ],
    },
  ])('$name', ({ input, expected }) => {
    expect(lines(input)).toEqual(expected);
  });

  it('a string form of 60,000 commas is one "too many" line plus one per allowed entry', () => {
    // Act
    const result = lines([profile('shop', [endpoint(0)], { customHeaders: ','.repeat(60_000) })]);

    // Assess
    expect(result).toHaveLength(LIMITS.customHeaders + 1);
    expect(result[0]).toBe(
      'profiles[0] "shop".monitorConfig.customHeaders: must hold at most 8 headers, got 60001',
    );
  });

  it.each([
    {
      name: 'a value that contains itself',
      value: cyclic,
      expected: `${'['.repeat(79)}…`,
    },
    { name: 'a 100,000-deep value', value: deep(100_000), expected: `${'['.repeat(79)}…` },
    {
      name: 'an object of 100,000 keys',
      value: Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i])),
      expected: '{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10…',
    },
    { name: 'an object as JSON', value: { a: [1, 'b', null], c: undefined }, expected: '{"a":[1,"b",null]}' },
  ])('formatReceived renders $name in bounded time', ({ value, expected }) => {
    expect(formatReceived(value)).toBe(expected);
  });
});

describe('loadDefinitions bounds the file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tm-limits-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a YAML alias of its own enclosing list (profiles: &p [ *p ]) is a house-style line', async () => {
    // Prepare
    const file = join(dir, 'alias.yaml');
    await writeFile(file, 'profiles: &p [ *p ]\n');

    // Act
    const result = await loadDefinitions(file);

    // Assess
    expect(result.ok ? [] : result.formatted).toEqual([
      'profiles[0]: must not contain itself (a YAML alias or an object that refers back to an enclosing one), got a list that contains itself',
    ]);
  });

  it('a file larger than 16 MiB is refused before it is parsed', async () => {
    // Prepare
    const file = join(dir, 'huge.json');
    await writeFile(
      file,
      JSON.stringify([profile('shop', [endpoint(0)], { customHeaders: `x:${'a'.repeat(17_000_000)}` })]),
    );

    // Act
    const load = loadDefinitions(file);

    // Assess
    await expect(load).rejects.toBeInstanceOf(DefinitionsLoadError);
    await expect(load).rejects.toThrow(
      /huge\.json: is 17000\d{3} bytes; a definitions file may be at most 16777216 bytes \(16 MiB\)$/,
    );
    expect(INPUT_BOUNDS.fileBytes).toBe(16_777_216);
  });

  it(`prints at most ${MAX_FORMATTED_ISSUES} problems and counts the rest`, async () => {
    // Prepare
    const file = join(dir, 'many.json');
    await writeFile(file, JSON.stringify(Array.from({ length: 150 }, () => 1)));

    // Act
    const result = await loadDefinitions(file);

    // Assess
    expect(result.ok ? [] : [result.issues.length, result.formatted.length, result.formatted.at(-1)]).toEqual(
      [150, MAX_FORMATTED_ISSUES + 1, '… and 50 more problems'],
    );
  });
});

describe('the documented limits are the code limits', () => {
  it('docs/definitions.md shows every limit with the value the code enforces', () => {
    // Prepare
    const text = readFileSync(new URL('../../docs/definitions.md', import.meta.url), 'utf8');
    const section = text.split('\n## Limits\n')[1]?.split('\n## ')[0] ?? '';
    const rows = new Map(
      section
        .split('\n')
        .map((line) => /^\| ([^|]+?) \| ([^|]+?) \|/.exec(line))
        .filter((match) => match !== null)
        .map((match) => [match[1]!, match[2]!.replace(/,/g, '')]),
    );
    const number = (row: string) => Number(/^\d+/.exec(rows.get(row) ?? '')?.[0]);

    // Assess
    expect({
      profiles: number('profiles per definitions file'),
      endpoints: number('endpoints per profile'),
      headers: number('custom headers per list (profile, endpoint)'),
      headerName: number('header name'),
      headerValue: number('header value'),
      ranges: number('expected status code ranges'),
      profileBytes: number('one profile as stored'),
      definitionsBytes: number('all profiles as stored'),
      fileBytes: Number(/\((\d+) bytes\)/.exec(rows.get('file size') ?? '')?.[1]),
      strings: number('one string or field name'),
      depth: number('nesting of lists and objects'),
    }).toEqual({
      profiles: LIMITS.profiles,
      endpoints: LIMITS.endpointsPerProfile,
      headers: LIMITS.customHeaders,
      headerName: LIMITS.headerNameLength,
      headerValue: LIMITS.headerValueLength,
      ranges: LIMITS.expectedStatusCodeRanges,
      profileBytes: LIMITS.profileDefinitionBytes,
      definitionsBytes: LIMITS.definitionsBytes,
      fileBytes: INPUT_BOUNDS.fileBytes,
      strings: INPUT_BOUNDS.stringLength,
      depth: INPUT_BOUNDS.depth,
    });
    expect([...rows.keys()].find((key) => key.startsWith('values in all'))).toBeDefined();
    expect(number([...rows.keys()].find((key) => key.startsWith('values in all')) ?? '')).toBe(
      INPUT_BOUNDS.values,
    );
  });
});
