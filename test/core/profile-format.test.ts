import { describe, expect, it } from 'vitest';
import { formatIssue, formatPath, formatReceived, parseDefinitions } from '../support/profile-api.js';

const definitions = [
  {
    name: 'web',
    trafficRoutingMethod: 'Priority',
    dnsConfig: { zoneName: 'example.com', relativeName: 'web' },
    endpoints: [],
  },
  {
    name: 'shop',
    trafficRoutingMethod: 'Weighted',
    dnsConfig: { zoneName: 'example.com', relativeName: 'shop' },
    endpoints: [{ name: 'east', target: 'east.example.net', weight: 0 }, { target: 'west.example.net' }],
  },
];

describe('formatIssue renders place, rule and value in one line', () => {
  it('renders the spec example exactly', () => {
    // Act
    const result = parseDefinitions(definitions);

    // Assess
    const lines = result.ok ? [] : result.issues.map((issue) => formatIssue(issue, definitions));
    expect(lines).toEqual([
      'profiles[1] "shop" endpoints[0] "east".weight: must be an integer 1–255, got 0',
      `profiles[1] "shop".endpoints[1].name: must be 1–63 letters, digits or '-' (not starting or ending with '-'), got nothing`,
    ]);
  });

  it('renders the same paths for the { profiles } wrapper', () => {
    // Prepare
    const wrapped = { profiles: definitions };

    // Act
    const result = parseDefinitions(wrapped);

    // Assess
    expect(result.ok ? [] : result.issues.map((issue) => formatIssue(issue, wrapped))[0]).toBe(
      'profiles[1] "shop" endpoints[0] "east".weight: must be an integer 1–255, got 0',
    );
  });

  it.each([
    { name: 'the root', path: [], expected: 'definitions' },
    {
      name: 'a named profile field',
      path: ['profiles', 0, 'dnsConfig', 'ttl'],
      expected: 'profiles[0] "web".dnsConfig.ttl',
    },
    {
      name: 'a named endpoint field',
      path: ['profiles', 1, 'endpoints', 0, 'weight'],
      expected: 'profiles[1] "shop" endpoints[0] "east".weight',
    },
    {
      name: 'an unnamed endpoint',
      path: ['profiles', 1, 'endpoints', 1, 'target'],
      expected: 'profiles[1] "shop".endpoints[1].target',
    },
    {
      name: 'a list element below a field',
      path: ['profiles', 0, 'probeRegions', 2],
      expected: 'profiles[0] "web".probeRegions[2]',
    },
    { name: 'a profile index past the end', path: ['profiles', 9, 'name'], expected: 'profiles[9].name' },
    { name: 'a top-level field of the wrapper', path: ['version'], expected: 'version' },
  ])('formats the path of $name', ({ path, expected }) => {
    // Act / Assess
    expect(formatPath(path, definitions)).toBe(expected);
  });

  it.each([
    { name: 'a missing value as "nothing"', value: undefined, expected: 'nothing' },
    { name: 'a number as JSON', value: 0, expected: '0' },
    { name: 'a string as JSON', value: 'east', expected: '"east"' },
    { name: 'null as JSON', value: null, expected: 'null' },
    { name: 'NaN by name', value: Number.NaN, expected: 'NaN' },
    { name: 'a big integer', value: 10n, expected: '10n' },
    { name: 'a function by kind', value: () => 1, expected: 'a function' },
    { name: 'a long value shortened', value: 'x'.repeat(200), expected: `"${'x'.repeat(78)}…` },
  ])('renders $name', ({ value, expected }) => {
    // Act / Assess
    expect(formatReceived(value)).toBe(expected);
  });

  it.each([
    {
      name: 'a typo with the field it probably meant',
      input: [
        {
          name: 'a',
          trafficRoutingMethod: 'Priority',
          dnsConfig: { zoneName: 'example.com', relativeName: 'a', tll: 5 },
          endpoints: [],
        },
      ],
      expected: 'profiles[0] "a".dnsConfig.tll: is not a known field; did you mean "ttl"?, got 5',
    },
    {
      name: 'a field far from every known one',
      input: [
        {
          name: 'a',
          trafficRoutingMethod: 'Priority',
          dnsConfig: { zoneName: 'example.com', relativeName: 'a' },
          endpoints: [],
          colour: 'blue',
        },
      ],
      expected: 'profiles[0] "a".colour: is not a known field, got "blue"',
    },
    {
      name: 'an external-only field on a nested endpoint',
      input: [
        {
          name: 'a',
          trafficRoutingMethod: 'Priority',
          dnsConfig: { zoneName: 'example.com', relativeName: 'a' },
          // (An empty list is Azure's "none" and is dropped; a header on a nested endpoint is an error.)
          endpoints: [
            { name: 'n', type: 'nested', targetProfile: 'b', customHeaders: [{ name: 'x-a', value: '1' }] },
          ],
        },
        {
          name: 'b',
          trafficRoutingMethod: 'Priority',
          dnsConfig: { zoneName: 'example.com', relativeName: 'b' },
          endpoints: [],
        },
      ],
      expected:
        'profiles[0] "a" endpoints[0] "n".customHeaders: is not a field of a nested endpoint, got [{"name":"x-a","value":"1"}]',
    },
    {
      name: 'a nested-only field without type nested',
      input: [
        {
          name: 'a',
          trafficRoutingMethod: 'Priority',
          dnsConfig: { zoneName: 'example.com', relativeName: 'a' },
          endpoints: [{ name: 'n', target: 'n.example.net', minChildEndpoints: 2 }],
        },
      ],
      expected:
        'profiles[0] "a" endpoints[0] "n".minChildEndpoints: is not a field of an external endpoint; a nested endpoint needs type: "nested", got 2',
    },
    {
      name: 'a misspelt health rule field',
      input: [
        {
          name: 'a',
          trafficRoutingMethod: 'Priority',
          dnsConfig: { zoneName: 'example.com', relativeName: 'a' },
          monitorConfig: { healthRule: { kind: 'sampleWindow', samplesize: 4 } },
          endpoints: [],
        },
      ],
      expected:
        'profiles[0] "a".monitorConfig.healthRule.samplesize: is not a known field; did you mean "sampleSize"?, got 4',
    },
    {
      name: 'the default of a field that breaks a rule',
      input: [
        {
          name: 'a',
          trafficRoutingMethod: 'Priority',
          dnsConfig: { zoneName: 'example.com', relativeName: 'a' },
          monitorConfig: { healthRule: { kind: 'sampleWindow', sampleSize: 1 } },
          endpoints: [],
        },
      ],
      expected:
        'profiles[0] "a".monitorConfig.healthRule.successfulSamplesRequired: must be at most sampleSize (1) (its default is 2), got nothing',
    },
    {
      name: 'a default priority clash',
      input: [
        {
          name: 'a',
          trafficRoutingMethod: 'Priority',
          dnsConfig: { zoneName: 'example.com', relativeName: 'a' },
          endpoints: [
            { name: 'x', target: 'x.example.net', priority: 2 },
            { name: 'y', target: 'y.example.net' },
          ],
        },
      ],
      expected:
        'profiles[0] "a" endpoints[1] "y".priority: must be unique in the profile: endpoints[0] "x" has priority 2; without a priority this endpoint gets its list position, 2, got nothing',
    },
    {
      name: 'a non-list definitions file',
      input: 'shop',
      expected: 'definitions: must be a list of profiles (or { profiles: [...] }), got "shop"',
    },
  ])('explains $name', ({ input, expected }) => {
    // Act
    const result = parseDefinitions(input);

    // Assess
    expect(result.ok ? [] : result.issues.map((issue) => formatIssue(issue, input))).toEqual([expected]);
  });
});
