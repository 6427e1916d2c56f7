/**
 * Generated hostile definitions files: hand-made shapes that have crashed or stalled
 * validators (deep nesting, alias cycles and bombs, huge strings and counts, garbage) and
 * seeded random mutations of the valid examples. Deterministic: the same files every run.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { dump } from 'js-yaml';

export interface HostileFile {
  readonly name: string;
  readonly content: string | Buffer;
}

const root = new URL('../../', import.meta.url).pathname;
const example = JSON.parse(readFileSync(`${root}examples/definitions.json`, 'utf8')) as {
  profiles: Record<string, unknown>[];
};

function shop(
  extra: Record<string, unknown> = {},
  endpoints: unknown[] = [{ name: 'e', target: 'e.example.net' }],
) {
  return {
    name: 'shop',
    trafficRoutingMethod: 'Priority',
    dnsConfig: { zoneName: 'example.com', relativeName: 'shop' },
    endpoints,
    ...extra,
  };
}

const json = (value: unknown) => JSON.stringify(value);
const many = <T>(count: number, item: (i: number) => T): T[] =>
  Array.from({ length: count }, (_, i) => item(i));

function aliasBomb(levels: number, width: number): string {
  const lines = [`a0: &a0 [${many(width, () => '"x"').join(', ')}]`];
  for (let i = 1; i <= levels; i++)
    lines.push(`a${i}: &a${i} [${many(width, () => `*a${i - 1}`).join(', ')}]`);
  return `${lines.join('\n')}\nprofiles: *a${levels}\n`;
}

/** Shapes known to hurt parsers and validators. */
function handMade(): HostileFile[] {
  const files: HostileFile[] = [];
  const add = (name: string, content: string | Buffer) => files.push({ name, content });
  for (const depth of [33, 1_000, 100_000, 500_000]) {
    add(`deep-list-${depth}.json`, `${'['.repeat(depth)}${']'.repeat(depth)}`);
    add(`deep-flow-${depth}.yaml`, `${'['.repeat(depth)}${']'.repeat(depth)}`);
  }
  add('deep-object.json', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`);
  add('deep-block.yaml', many(2_000, (i) => `${' '.repeat(i)}- `).join('\n'));
  add('alias-self.yaml', 'profiles: &p [ *p ]\n');
  add('alias-self-map.yaml', '&a { profiles: [ *a ] }\n');
  add('alias-endpoint-cycle.yaml', `- &p ${json(shop())}\n- name: two\n  endpoints: [ *p ]\n`);
  add('alias-bomb-9x9.yaml', aliasBomb(9, 9));
  add('alias-bomb-wide.yaml', aliasBomb(3, 300));
  add('alias-many.yaml', `a: &a 1\nprofiles: [${many(5_000, () => '*a').join(', ')}]\n`);
  add(
    'merge-bomb.yaml',
    `a: &a {${many(200, (i) => `k${i}: 1`).join(', ')}}\nb: &b {<<: [${many(100, () => '*a').join(', ')}]}\nprofiles: [*b]\n`,
  );
  add('tag-js-function.yaml', 'profiles: !!js/function "function () { return 1 }"\n');
  add('tag-custom.yaml', '- !shop { name: shop }\n');
  add('tag-binary.yaml', `profiles: !!binary ${Buffer.alloc(300_000, 7).toString('base64')}\n`);
  add('two-documents.yaml', '- a\n---\n- b\n');
  add('bom.json', `\uFEFF${json([shop()])}`);
  add(
    'nul-bytes.json',
    Buffer.concat([Buffer.from('[{"name":"a\u0000b"'), Buffer.alloc(1_000, 0), Buffer.from('}]')]),
  );
  add('invalid-utf8.yaml', Buffer.from([0x2d, 0x20, 0xff, 0xfe, 0xc3, 0x28, 0x0a, 0xe2, 0x82]));
  add('random-bytes.json', Buffer.from(many(50_000, (i) => (i * 2654435761) % 256)));
  add('random-bytes.yaml', Buffer.from(many(50_000, (i) => (i * 40503 + 7) % 256)));
  for (const [name, content] of [
    ['empty.json', ''],
    ['empty.yaml', ''],
    ['whitespace.yaml', ' \n\t\n'],
    ['null.json', 'null'],
    ['number.json', '42'],
    ['string.yaml', 'just a string'],
    ['true.json', 'true'],
    ['object.json', '{}'],
    ['profiles-number.json', '{"profiles": 5}'],
    ['profiles-null.yaml', 'profiles:\n'],
    ['trailing-comma.json', '[{"name": "a",}]'],
    ['huge-numbers.json', json([shop({ maxReturn: 1e308 })]).replace('1e+308', '1e400')],
    [
      'bignum.json',
      json([shop({ dnsConfig: { zoneName: 'example.com', relativeName: 'shop', ttl: 0 } })]).replace(
        '"ttl":0',
        `"ttl":${'9'.repeat(5_000)}`,
      ),
    ],
    ['negative-zero.json', json([shop({ monitorConfig: { port: 0 } })]).replace('"port":0', '"port":-0')],
  ] as const)
    add(name, content);
  add('oversize-by-one.json', `[${' '.repeat(1_048_576 - 1)}]`);
  add('oversize-3mb.yaml', `# ${'x'.repeat(3_000_000)}\n[]\n`);
  const long = (n: number) => 'a'.repeat(n);
  for (const n of [60_000, 70_000]) {
    add(`long-name-${n}.json`, json([shop({ name: long(n) })]));
    add(`long-target-${n}.json`, json([shop({}, [{ name: 'e', target: `${long(n)}.example.net` }])]));
    add(
      `long-zone-${n}.yaml`,
      dump([shop({ dnsConfig: { zoneName: `${'a.'.repeat(n / 2)}com`, relativeName: 'x' } })]),
    );
    add(`long-path-${n}.json`, json([shop({ monitorConfig: { path: `/${'%'.repeat(n)}` } })]));
    add(`long-header-string-${n}.json`, json([shop({ monitorConfig: { customHeaders: `x:${long(n)}` } })]));
    add(
      `long-subnet-${n}.json`,
      json([
        {
          ...shop(),
          trafficRoutingMethod: 'Subnet',
          endpoints: [{ name: 'e', target: '192.0.2.1', subnets: [`${'1'.repeat(n)}/8`] }],
        },
      ]),
    );
    add(`long-ipv6-${n}.json`, json([shop({}, [{ name: 'e', target: '1:'.repeat(n / 2) }])]));
    add(
      `long-geo-${n}.json`,
      json([
        {
          ...shop(),
          trafficRoutingMethod: 'Geographic',
          endpoints: [{ name: 'e', target: 'e.example.net', geoMapping: [long(n)] }],
        },
      ]),
    );
    add(`long-key-${n}.json`, json([{ ...shop(), [long(n)]: 1 }]));
  }
  add(
    'header-value-500k.json',
    json([shop({ monitorConfig: { customHeaders: [{ name: 'Authorization', value: long(500_000) }] } })]),
  );
  add('header-commas.json', json([shop({ monitorConfig: { customHeaders: ','.repeat(65_000) } })]));
  add(
    'status-commas.json',
    json([shop({ monitorConfig: { expectedStatusCodeRanges: '200-299,'.repeat(8_000) } })]),
  );
  add(
    'control-chars.json',
    json([shop({ monitorConfig: { customHeaders: [{ name: 'x', value: 'a\r\nInjected: 1' }] } })]),
  );
  add(
    'endpoints-10000.json',
    json([
      shop(
        {},
        many(10_000, (i) => ({ name: `e${i}`, target: `e${i}.example.net` })),
      ),
    ]),
  );
  add(
    'endpoints-201.yaml',
    dump([
      shop(
        {},
        many(201, (i) => ({ name: `e${i}`, target: `e${i}.example.net` })),
      ),
    ]),
  );
  add(
    'profiles-1000.json',
    json(
      many(1_000, (i) => ({
        ...shop(),
        name: `p${i}`,
        dnsConfig: { zoneName: 'example.com', relativeName: `p${i}` },
      })),
    ),
  );
  add('list-60000.json', json(many(60_000, () => 0)));
  add('keys-50000.json', json([{ ...shop(), ...Object.fromEntries(many(50_000, (i) => [`k${i}`, i])) }]));
  add(
    'unknown-keys-near-fields.json',
    json([{ ...shop(), ...Object.fromEntries(many(10_000, (i) => [`endpoint${i}`, i])) }]),
  );
  add(
    'same-priority.json',
    json([
      shop(
        {},
        many(200, (i) => ({ name: `e${i}`, target: `e${i}.example.net`, priority: 1 })),
      ),
    ]),
  );
  add(
    'subnet-overlaps.json',
    json([
      {
        ...shop(),
        trafficRoutingMethod: 'Subnet',
        endpoints: many(200, (i) => ({
          name: `e${i}`,
          target: `192.0.2.${i}`,
          subnets: many(100, (j) => `10.${j}.0.0/16`),
        })),
      },
    ]),
  );
  add(
    'geo-duplicates.json',
    json([
      {
        ...shop(),
        trafficRoutingMethod: 'Geographic',
        endpoints: many(200, (i) => ({
          name: `e${i}`,
          target: `e${i}.example.net`,
          geoMapping: many(100, () => 'DE'),
        })),
      },
    ]),
  );
  add(
    'nesting-chain-200.json',
    json(
      many(200, (i) => ({
        ...shop(),
        name: `p${i}`,
        dnsConfig: { zoneName: 'example.com', relativeName: `p${i}` },
        endpoints: i === 199 ? [] : [{ name: 'child', type: 'nested', targetProfile: `p${i + 1}` }],
      })),
    ),
  );
  add(
    'nesting-all-to-all.json',
    json(
      many(60, (i) => ({
        ...shop(),
        name: `p${i}`,
        dnsConfig: { zoneName: 'example.com', relativeName: `p${i}` },
        endpoints: many(60, (j) => ({ name: `c${j}`, type: 'nested', targetProfile: `p${j}` })),
      })),
    ),
  );
  return files;
}

/** A hostile value: huge strings, long lists, deep nesting, odd numbers, or anything at all. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({ maxDepth: 4, maxKeys: 6, withNullPrototype: false }),
  fc.integer({ min: 1_000, max: 70_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 100, max: 20_000 }).map((n) => many(n, (i) => i)),
  fc.integer({ min: 33, max: 400 }).map((n) => {
    let value: unknown = 1;
    for (let i = 0; i < n; i++) value = { v: value };
    return value;
  }),
  fc.constantFrom(-0, 1e308, -1, 0.5, 65_536, 2 ** 53, '', ' ', '*', '\u0000', '::', '/', ',', ':', 'a:b, c'),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

/** Paths into the examples' profiles where a hostile value is planted. */
function pathsOf(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((item, i) => pathsOf(item, [...prefix, i], out));
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) pathsOf(item, [...prefix, key], out);
  return out;
}

function plant(base: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const copy = (Array.isArray(base) ? [...base] : { ...(base as Record<string, unknown>) }) as Record<
    string | number,
    unknown
  >;
  copy[head!] = plant(copy[head!], rest, value);
  return copy;
}

/** `count` mutations of the example definitions, each one hostile value planted at one place. */
function mutations(count: number): HostileFile[] {
  const base = { profiles: example.profiles };
  const paths = pathsOf(base);
  const samples = fc.sample(
    fc.record({
      at: fc.nat({ max: paths.length - 1 }),
      value: hostileValue,
      yaml: fc.boolean(),
      extraKey: fc.boolean(),
    }),
    { seed: 20_260_10, numRuns: count },
  );
  return samples.map(({ at, value, yaml, extraKey }, i) => {
    const path = paths[at]!;
    const planted = extraKey ? plant(base, [...path.slice(0, -1), `x${i}`], value) : plant(base, path, value);
    const text = yaml
      ? dump(planted, { skipInvalid: true, noRefs: true })
      : (JSON.stringify(planted) ?? 'null');
    return { name: `mutation-${String(i).padStart(3, '0')}.${yaml ? 'yaml' : 'json'}`, content: text };
  });
}

export function hostileFiles(): HostileFile[] {
  const made = handMade();
  return [...made, ...mutations(Math.max(0, 200 - made.length))];
}
