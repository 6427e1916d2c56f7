import { describe, expect, it } from 'vitest';
import { InvalidDefinitionsError, parseDefinitions } from '../support/profile-api.js';
import { compareIssues, type ValidationIssue } from '../../shared/profile/issues.js';
import { editDistance, isDnsName } from '../../shared/profile/names.js';
import { parseDefinitionsOrThrow } from '../support/parse-definitions.js';

type Json = Record<string, unknown>;

function profileOf(name: string, method: string, endpoints: Json[]): Json {
  return {
    name,
    trafficRoutingMethod: method,
    dnsConfig: { zoneName: 'example.com', relativeName: name },
    endpoints,
  };
}
const nest = (target: string, name = `to-${target}`): Json => ({
  name,
  type: 'nested',
  targetProfile: target,
});

function rulesOf(input: unknown): string[] {
  const result = parseDefinitions(input);
  return result.ok ? [] : result.issues.map((issue) => `${issue.path.join('.')} ${issue.rule}`);
}

describe('parseDefinitionsOrThrow (for CDK synth)', () => {
  it('returns the profiles of valid definitions', () => {
    // Act
    const profiles = parseDefinitionsOrThrow([profileOf('a', 'Priority', [])]);

    // Assess
    expect(profiles.map((p) => p.name)).toEqual(['a']);
  });

  it.each([
    { name: 'one problem', input: [{ ...profileOf('a', 'Priority', []), maxReturn: 2 }], count: '1 problem' },
    {
      name: 'two problems',
      input: [{ ...profileOf('a', 'Priority', []), maxReturn: 2, profileStatus: 'On' }],
      count: '2 problems',
    },
  ])('throws InvalidDefinitionsError listing every issue: $name', ({ input, count }) => {
    // Act
    const act = () => parseDefinitionsOrThrow(input);

    // Assess
    expect(act).toThrow(InvalidDefinitionsError);
    expect(act).toThrow(`invalid profile definitions (${count}):\nprofiles[0] "a".`);
  });
});

describe('corners of the rules', () => {
  it.each([
    {
      name: 'a non-string geo code is a type error only',
      input: [profileOf('g', 'Geographic', [{ name: 'a', target: 'a.example.net', geoMapping: [5] }])],
      expected: ['profiles.0.endpoints.0.geoMapping.0 type'],
    },
    {
      name: 'a non-string subnet is a type error only',
      input: [profileOf('s', 'Subnet', [{ name: 'a', target: 'a.example.net', subnets: [5] }])],
      expected: ['profiles.0.endpoints.0.subnets.0 type'],
    },
    {
      name: 'the same subnet in two endpoints',
      input: [
        profileOf('s', 'Subnet', [
          { name: 'a', target: 'a.example.net', subnets: ['10.0.0.0/8'] },
          { name: 'b', target: 'b.example.net', subnets: ['10.0.0.0/8'] },
        ]),
      ],
      expected: ['profiles.0.endpoints.1.subnets.0 subnet-overlap'],
    },
    {
      name: 'a duplicate DNS name of an unnamed profile',
      input: [{ ...profileOf('a', 'Priority', []), name: undefined }, profileOf('a', 'Weighted', [])],
      expected: ['profiles.0.name required', 'profiles.1.dnsConfig.relativeName unique-fqdn'],
    },
    {
      name: 'a nested edge from a profile with a duplicate name is ignored',
      input: [profileOf('a', 'Priority', []), { ...profileOf('b', 'Priority', [nest('a')]), name: 'a' }],
      expected: ['profiles.1.name unique-name'],
    },
    {
      name: 'a diamond is not a cycle',
      input: [
        profileOf('top', 'Priority', [nest('left'), nest('right')]),
        profileOf('left', 'Priority', [nest('bottom')]),
        profileOf('right', 'Priority', [nest('bottom')]),
        profileOf('bottom', 'Priority', []),
      ],
      expected: [],
    },
    {
      name: 'a non-object endpoint skips endpoint rules',
      input: [profileOf('a', 'Priority', [null as unknown as Json])],
      expected: ['profiles.0.endpoints.0 type'],
    },
    {
      name: 'a non-object profile skips profile rules',
      input: [null, profileOf('a', 'Priority', [])],
      expected: ['profiles.0 type'],
    },
    {
      name: 'an unknown method skips method rules',
      input: [
        { ...profileOf('a', 'Failover', [{ name: 'x', target: 'x.example.net', geoMapping: ['DE'] }]) },
      ],
      expected: ['profiles.0.trafficRoutingMethod enum'],
    },
    {
      name: 'an invalid interval skips the timeout rule',
      input: [
        { ...profileOf('a', 'Priority', []), monitorConfig: { intervalInSeconds: 5, timeoutInSeconds: 10 } },
      ],
      expected: ['profiles.0.monitorConfig.intervalInSeconds enum'],
    },
    {
      name: 'an invalid sample size skips the window rule',
      input: [
        {
          ...profileOf('a', 'Priority', []),
          monitorConfig: {
            healthRule: { kind: 'sampleWindow', sampleSize: 0, successfulSamplesRequired: 3 },
          },
        },
      ],
      expected: ['profiles.0.monitorConfig.healthRule.sampleSize range'],
    },
    {
      name: 'an unknown protocol skips the TCP rules',
      input: [{ ...profileOf('a', 'Priority', []), monitorConfig: { protocol: 'udp', path: '/' } }],
      expected: ['profiles.0.monitorConfig.protocol enum'],
    },
    {
      name: 'the health rule must be an object',
      input: [{ ...profileOf('a', 'Priority', []), monitorConfig: { healthRule: 'sampleWindow' } }],
      expected: ['profiles.0.monitorConfig.healthRule type'],
    },
    {
      name: 'an endpoint list that is not a list',
      input: [{ ...profileOf('a', 'Priority', []), endpoints: {} }],
      expected: ['profiles.0.endpoints type'],
    },
  ])('$name', ({ input, expected }) => {
    // Act / Assess
    expect(rulesOf(input)).toEqual(expected);
  });

  it('reports the deeper of two branches that are too deep', () => {
    // Prepare: top → a1 … a11 (11 levels) and top → b1 (1 level)
    const chain = Array.from({ length: 11 }, (_, i) =>
      profileOf(`a${i + 1}`, 'Priority', i < 10 ? [nest(`a${i + 2}`)] : []),
    );
    const input = [
      profileOf('top', 'Priority', [nest('b1'), nest('a1')]),
      profileOf('b1', 'Priority', []),
      ...chain,
    ];

    // Act / Assess
    expect(rulesOf(input)).toEqual(['profiles.0.endpoints.1.targetProfile nested-depth']);
  });
});

describe('issue order and names', () => {
  const issue = (path: (string | number)[]): ValidationIssue => ({
    path,
    rule: 'r',
    received: undefined,
    message: 'm',
  });
  const input = [{ name: 'a', dnsConfig: {}, endpoints: [] }];

  it.each([
    { name: 'by profile index', a: ['profiles', 1], b: ['profiles', 0], sign: 1 },
    {
      name: 'fields in written order',
      a: ['profiles', 0, 'dnsConfig'],
      b: ['profiles', 0, 'endpoints'],
      sign: -1,
    },
    {
      name: 'missing fields after written ones',
      a: ['profiles', 0, 'trafficRoutingMethod'],
      b: ['profiles', 0, 'endpoints'],
      sign: 1,
    },
    { name: 'a parent before its fields', a: ['profiles', 0], b: ['profiles', 0, 'name'], sign: -1 },
    {
      name: 'below a value that is not an object',
      a: ['profiles', 0, 'name', 'x'],
      b: ['profiles', 0, 'name', 'y'],
      sign: 0,
    },
  ])('orders $name', ({ a, b, sign }) => {
    // Act / Assess
    expect(Math.sign(compareIssues(issue(a), issue(b), input))).toBe(sign);
  });

  it.each([
    { name: 'a relative name with a trailing dot', text: 'shop.', absolute: false, expected: false },
    { name: 'an absolute name', text: 'example.com.', absolute: true, expected: true },
    {
      name: 'a name over 253 characters',
      text: `${'a'.repeat(63)}.`.repeat(4) + 'com',
      absolute: true,
      expected: false,
    },
  ])('DNS names: $name', ({ text, absolute, expected }) => {
    // Act / Assess
    expect(isDnsName(text, absolute)).toBe(expected);
  });

  it('measures edit distance case-insensitively', () => {
    // Act / Assess
    expect([editDistance('wieght', 'weight'), editDistance('TTL', 'ttl'), editDistance('', 'abc')]).toEqual([
      2, 0, 3,
    ]);
  });
});
