/**
 * A custom header value may be a reference to a secret instead of the value: in JSON,
 * YAML and TypeScript definitions alike, validated in house style, and a credential-like
 * header written inline is warned about (never shown).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDefinitions } from '../../infra/definitions/load.js';
import { defineProfiles, parseDefinitions } from '../support/profile-api.js';
import {
  formatWarning,
  inlineSecretWarnings,
  secretReferencesOf,
} from '../../shared/profile/secret-references.js';
import { requestKeyOf } from '../../shared/probe/target.js';
import { tmInProcess } from '../support/tm.js';

const SECRET = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:shop/probe-token-AbCdEf';
const PARAMETER = '/shop/api-key';
const INLINE_VALUE = 'Bearer inline-credential-1234';

const root = new URL('../../', import.meta.url).pathname;
const defineImport = JSON.stringify(join(root, 'shared/profile/define.ts'));

/** Checked by the TypeScript compiler: the define helper takes both reference forms. */
const typed = defineProfiles([
  {
    name: 'shop',
    trafficRoutingMethod: 'Priority',
    dnsConfig: { zoneName: 'example.com', relativeName: 'shop' },
    monitorConfig: {
      protocol: 'HTTPS',
      customHeaders: [
        { name: 'Authorization', value: { secret: SECRET } },
        { name: 'X-Api-Key', value: { parameter: PARAMETER } },
      ],
    },
    endpoints: [{ name: 'east', target: 'east.example.com' }],
  },
]);

function withHeaders(customHeaders: unknown, endpointHeaders?: unknown) {
  return [
    {
      name: 'shop',
      trafficRoutingMethod: 'Priority',
      dnsConfig: { zoneName: 'example.com', relativeName: 'shop' },
      monitorConfig: { protocol: 'HTTPS', customHeaders },
      endpoints: [
        {
          name: 'east',
          target: 'east.example.com',
          ...(endpointHeaders === undefined ? {} : { customHeaders: endpointHeaders }),
        },
      ],
    },
  ];
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tm-secret-headers-'));
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a header value given by reference', () => {
  const expectedHeaders = [
    { name: 'Authorization', value: { secret: SECRET } },
    { name: 'X-Api-Key', value: { parameter: PARAMETER } },
  ];

  it.each([
    { format: 'JSON', file: 'defs.json', text: JSON.stringify(typed) },
    {
      format: 'YAML',
      file: 'defs.yaml',
      text: [
        '- name: shop',
        '  trafficRoutingMethod: Priority',
        '  dnsConfig: { zoneName: example.com, relativeName: shop }',
        '  monitorConfig:',
        '    protocol: HTTPS',
        '    customHeaders:',
        '      - name: Authorization',
        `        value: { secret: "${SECRET}" }`,
        '      - name: X-Api-Key',
        '        value:',
        `          parameter: ${PARAMETER}`,
        '  endpoints: [{ name: east, target: east.example.com }]',
      ].join('\n'),
    },
    {
      format: 'TypeScript (defineProfiles)',
      file: 'defs.ts',
      text: `import { defineProfiles } from ${defineImport};\nexport default defineProfiles(${JSON.stringify(typed)});\n`,
    },
  ])('is read from $format definitions and kept as the reference', async ({ file, text }) => {
    // Arrange
    await writeFile(join(dir, file), text);

    // Act
    const result = await loadDefinitions(join(dir, file));

    // Assess
    expect(result.ok && result.profiles[0]!.monitorConfig.customHeaders).toEqual(expectedHeaders);
    expect(result.ok && secretReferencesOf(result.profiles)).toEqual([
      { secret: SECRET },
      { parameter: PARAMETER },
    ]);
  });

  it.each([
    { name: 'a parameter name without a leading slash', value: { parameter: 'shop-token' } },
    {
      name: 'a parameter ARN',
      value: { parameter: 'arn:aws:ssm:us-east-1:123456789012:parameter/shop/token' },
    },
    {
      name: 'a secret name holding every allowed character',
      value: { secret: SECRET.replace('shop/probe-token', 'a_b+c=d.e@f/g') },
    },
  ])('accepts $name', ({ value }) => {
    expect(parseDefinitions(withHeaders([{ name: 'Authorization', value }])).ok).toBe(true);
  });

  /** Where a header value's problem is reported: the first header of the profile's monitor. */
  const AT = 'profiles[0] "shop".monitorConfig.customHeaders[0].value';
  it.each([
    {
      name: 'a secret that is a name, not an ARN',
      value: { secret: 'shop/probe-token' },
      expected: `${AT}.secret: must be the full ARN of a Secrets Manager secret (arn:aws:secretsmanager:REGION:ACCOUNT:secret:NAME-abcdef, as the console shows it), got "shop/probe-token"`,
    },
    {
      name: 'a partial secret ARN (no suffix)',
      value: { secret: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:shop/probe-token' },
      expected: `${AT}.secret: must be the full ARN of the secret, ending in the 6 characters Secrets Manager adds to its name (…:secret:NAME-abcdef): a partial ARN cannot be granted to the probe exactly, got "arn:aws:secretsmanager:eu-west-1:123456789012:secret:shop/probe-token"`,
    },
    {
      name: 'another partition',
      value: { secret: 'arn:aws-cn:secretsmanager:cn-north-1:123456789012:secret:t-AbCdEf' },
      expected: `${AT}.secret: must be an ARN in the "aws" partition (traffic-manager runs in the commercial AWS regions, whose probes cannot read partition "aws-cn"), got "arn:aws-cn:secretsmanager:cn-north-1:123456789012:secret:t-AbCdEf"`,
    },
    {
      name: 'an unknown region',
      value: { secret: 'arn:aws:secretsmanager:eu-moon-1:123456789012:secret:t-AbCdEf' },
      expected: `${AT}.secret: must name a commercial AWS region in its ARN, not "eu-moon-1" (e.g. arn:aws:secretsmanager:us-east-1:…), got "arn:aws:secretsmanager:eu-moon-1:123456789012:secret:t-AbCdEf"`,
    },
    {
      name: 'an account that is not 12 digits',
      value: { secret: 'arn:aws:secretsmanager:eu-west-1:1234:secret:t-AbCdEf' },
      expected: `${AT}.secret: must name a 12-digit AWS account in its ARN, not "1234", got "arn:aws:secretsmanager:eu-west-1:1234:secret:t-AbCdEf"`,
    },
    {
      name: 'a parameter ARN given as a secret',
      value: { secret: 'arn:aws:ssm:eu-west-1:123456789012:parameter/t' },
      expected: `${AT}.secret: must be the full ARN of a Secrets Manager secret (arn:aws:secretsmanager:REGION:ACCOUNT:secret:NAME-abcdef, as the console shows it): this is an ARN of service "ssm", not "secretsmanager", got "arn:aws:ssm:eu-west-1:123456789012:parameter/t"`,
    },
    {
      name: 'a parameter under a reserved prefix',
      value: { parameter: '/aws/reference/secretsmanager/x' },
      expected: `${AT}.parameter: must be an SSM parameter name (/path/name) or ARN (arn:aws:ssm:REGION:ACCOUNT:parameter/path/name), got "/aws/reference/secretsmanager/x"`,
    },
    {
      name: 'an unknown reference kind',
      value: { vault: 'kv/shop' },
      expected: `${AT}: must be a string, { secret: "<Secrets Manager secret ARN>" } or { parameter: "<SSM parameter name or ARN>" }, got {"vault":"kv/shop"}`,
    },
    {
      name: 'a Host header by reference',
      header: 'Host',
      value: { secret: SECRET },
      expected: `${AT}: must be written inline: the Host header names the site (and the TLS server name), it is no secret, got {"secret":"${SECRET.slice(0, 68)}…`,
    },
  ])('refuses $name with one house-style line', async ({ header, value, expected }) => {
    // Arrange
    const file = join(dir, 'bad.json');
    await writeFile(file, JSON.stringify(withHeaders([{ name: header ?? 'Authorization', value }])));

    // Act
    const { code, stderr } = await tmInProcess('validate', file);

    // Assess
    expect(code).toBe(1);
    expect(stderr.split('\n')[0]).toBe(expected);
  });

  it('identifies what is sent by the reference, so two references never share a probe', () => {
    const spec = { protocol: 'HTTPS', host: 'h', port: 443, path: '/', method: 'GET' } as const;
    const a = requestKeyOf({ ...spec, headers: [{ name: 'Authorization', value: { secret: SECRET } }] });
    const b = requestKeyOf({
      ...spec,
      headers: [{ name: 'Authorization', value: { secret: SECRET.replace('eu-west-1', 'us-east-1') } }],
    });
    const c = requestKeyOf({
      ...spec,
      headers: [{ name: 'Authorization', value: { parameter: PARAMETER } }],
    });
    expect(new Set([a, b, c]).size).toBe(3);
  });
});

describe('a credential-like header written inline', () => {
  it.each([
    'Authorization',
    'Proxy-Authorization',
    'Cookie',
    'X-Api-Key',
    'X-Auth-Token',
    'api-key',
    'X-Client-Secret',
  ])('%s: valid, with a warning that names the field and never the value', async (name) => {
    // Arrange
    const file = join(dir, 'inline.json');
    await writeFile(file, JSON.stringify(withHeaders([], [{ name, value: INLINE_VALUE }])));

    // Act
    const { code, stdout, stderr } = await tmInProcess('validate', file);

    // Assess
    expect(code).toBe(0);
    expect(stdout).toContain('shop');
    expect(stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([
      `warning: profiles[0] "shop" endpoints[0] "east".customHeaders[0].value: header ${JSON.stringify(name)} looks like a credential written inline, so its value is stored in the template, the table and the deployment's logs: use { secret: "<Secrets Manager secret ARN>" } or { parameter: "<SSM SecureString parameter>" }`,
    ]);
    expect(stderr).not.toContain(INLINE_VALUE);
  });

  it.each(['Host', 'X-Probe', 'Accept', 'X-Keyboard-Layout'])('%s: no warning', (name) => {
    const parsed = parseDefinitions(withHeaders([{ name, value: 'shop.example.com' }]));
    expect(parsed.ok && inlineSecretWarnings(parsed.profiles)).toEqual([]);
  });

  it('a reference: no warning', () => {
    const parsed = parseDefinitions(withHeaders([{ name: 'Authorization', value: { secret: SECRET } }]));
    expect(parsed.ok && inlineSecretWarnings(parsed.profiles)).toEqual([]);
  });

  it('the string form is plain text: warned like any inline value', () => {
    const parsed = parseDefinitions(withHeaders(`Authorization:${INLINE_VALUE}`));
    expect(parsed.ok).toBe(true);
    const warnings = parsed.ok ? inlineSecretWarnings(parsed.profiles) : [];
    expect(warnings.map((w) => formatWarning(w, parsed.ok ? parsed.profiles : []))).toEqual([
      expect.stringMatching(
        /^warning: profiles\[0\] "shop"\.monitorConfig\.customHeaders\[0\]\.value: header "Authorization" looks like a credential/,
      ),
    ]);
  });

  it('a problem in such a header never shows its value', async () => {
    // Arrange
    const file = join(dir, 'bad-inline.json');
    const value = 'Bearer secret-value\r\nX-Injected: 1';
    await writeFile(file, JSON.stringify(withHeaders([{ name: 'Authorization', value }])));

    // Act
    const { code, stderr } = await tmInProcess('validate', file);

    // Assess
    expect(code).toBe(1);
    expect(stderr).toContain(
      'profiles[0] "shop".monitorConfig.customHeaders[0].value: must be printable ASCII without line breaks, got a value of 34 characters (not shown)',
    );
    expect(stderr).not.toContain('secret-value');
  });
});
