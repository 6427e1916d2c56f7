import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULTS, parseDefinitions, type Profile } from '../support/profile-api.js';

function parseOne(profile: Record<string, unknown>): Profile {
  const child = {
    name: 'leaf',
    trafficRoutingMethod: 'Weighted',
    dnsConfig: { zoneName: 'example.com', relativeName: 'leaf' },
    endpoints: [],
  };
  const result = parseDefinitions([profile, child]);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  const [parsed] = result.profiles;
  if (parsed === undefined) throw new Error('no profile');
  return parsed;
}

const minimal = {
  name: 'shop',
  trafficRoutingMethod: 'Priority',
  dnsConfig: { zoneName: 'Example.COM.', relativeName: 'Shop' },
  endpoints: [
    { name: 'east', target: 'East.Shop.Example.NET.' },
    { name: 'west', target: 'west.shop.example.net' },
    { name: 'child', type: 'nested', targetProfile: 'leaf' },
  ],
};

/** The `| field | default |` rows of the Defaults section of docs/definitions.md. */
function documentedDefaults(): Map<string, string> {
  const text = readFileSync(new URL('../../docs/definitions.md', import.meta.url), 'utf8');
  const section = text.split('\n## Defaults\n')[1]?.split('\n## ')[0] ?? '';
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const match = /^\| `([^`]+)`( \([^)]*\))? \| `([^`]+)` \|$/.exec(line);
    if (match) rows.set(`${match[1]}${match[2] ?? ''}`, match[3] ?? '');
  }
  return rows;
}

describe('documented defaults are the code defaults', () => {
  it('lists every default of DEFAULTS in docs/definitions.md with the same value', () => {
    // Prepare
    const range = DEFAULTS.expectedStatusCodeRanges[0];
    const expected = new Map<string, string>([
      ['profileStatus', DEFAULTS.profileStatus],
      ['dnsConfig.ttl', String(DEFAULTS.ttl)],
      ['maxReturn', String(DEFAULTS.maxReturn)],
      ['monitorConfig.protocol', DEFAULTS.protocol],
      ['monitorConfig.port (HTTP)', String(DEFAULTS.port.HTTP)],
      ['monitorConfig.port (HTTPS)', String(DEFAULTS.port.HTTPS)],
      ['monitorConfig.path', DEFAULTS.path],
      ['monitorConfig.method', DEFAULTS.method],
      ['monitorConfig.intervalInSeconds', String(DEFAULTS.intervalInSeconds)],
      ['monitorConfig.timeoutInSeconds (interval 30)', String(DEFAULTS.timeoutInSeconds[30])],
      ['monitorConfig.timeoutInSeconds (interval 10)', String(DEFAULTS.timeoutInSeconds[10])],
      ['monitorConfig.toleratedNumberOfFailures', String(DEFAULTS.toleratedNumberOfFailures)],
      ['monitorConfig.expectedStatusCodeRanges', `${range?.min}-${range?.max}`],
      ['monitorConfig.healthRule', DEFAULTS.healthRule.kind],
      ['monitorConfig.healthRule.sampleSize', String(DEFAULTS.sampleSize)],
      ['monitorConfig.healthRule.successfulSamplesRequired', String(DEFAULTS.successfulSamplesRequired)],
      ['monitorConfig.requiredSuccessesToRecover', String(DEFAULTS.requiredSuccessesToRecover)],
      ['monitorConfig.certificateWarningDays', String(DEFAULTS.certificateWarningDays)],
      ['endpoints[].type', DEFAULTS.endpointType],
      ['endpoints[].endpointStatus', DEFAULTS.endpointStatus],
      ['endpoints[].weight', String(DEFAULTS.weight)],
      ['endpoints[].alwaysServe', String(DEFAULTS.alwaysServe)],
      ['endpoints[].minChildEndpoints', String(DEFAULTS.minChildEndpoints)],
      ['staticFailover', String(DEFAULTS.staticFailover)],
    ]);

    // Act
    const documented = documentedDefaults();

    // Assess
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(expected));
  });
});

describe('parseDefinitions applies the defaults', () => {
  it('fills every profile, DNS and monitor default of a minimal profile', () => {
    // Act
    const profile = parseOne({ ...minimal, endpoints: [] });

    // Assess
    expect(profile).toEqual({
      name: 'shop',
      profileStatus: DEFAULTS.profileStatus,
      trafficRoutingMethod: 'Priority',
      dnsConfig: {
        zoneName: 'example.com',
        hostedZoneId: undefined,
        relativeName: 'shop',
        ttl: DEFAULTS.ttl,
        fqdn: 'shop.example.com',
      },
      maxReturn: undefined,
      monitorConfig: {
        protocol: DEFAULTS.protocol,
        port: DEFAULTS.port.HTTP,
        path: DEFAULTS.path,
        method: DEFAULTS.method,
        intervalInSeconds: DEFAULTS.intervalInSeconds,
        timeoutInSeconds: DEFAULTS.timeoutInSeconds[30],
        toleratedNumberOfFailures: DEFAULTS.toleratedNumberOfFailures,
        customHeaders: [],
        expectedStatusCodeRanges: DEFAULTS.expectedStatusCodeRanges,
        healthRule: DEFAULTS.healthRule,
      },
      probeRegions: undefined,
      staticFailover: DEFAULTS.staticFailover,
      endpoints: [],
    });
  });

  it('takes staticFailover as written, else the deployment default, else true', () => {
    // Act
    const written = parseDefinitions([{ ...minimal, endpoints: [], staticFailover: false }]);
    const deploymentOff = parseDefinitions([{ ...minimal, endpoints: [] }], { staticFailover: false });
    const writtenWins = parseDefinitions([{ ...minimal, endpoints: [], staticFailover: true }], {
      staticFailover: false,
    });
    const wrongType = parseDefinitions([{ ...minimal, endpoints: [], staticFailover: 'yes' }]);

    // Assess
    expect(written.ok && written.profiles[0]?.staticFailover).toBe(false);
    expect(deploymentOff.ok && deploymentOff.profiles[0]?.staticFailover).toBe(false);
    expect(writtenWins.ok && writtenWins.profiles[0]?.staticFailover).toBe(true);
    expect(wrongType.ok ? [] : wrongType.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['profiles.0.staticFailover', 'must be true or false'],
    ]);
  });

  it('fills every endpoint default, priorities by list position', () => {
    // Act
    const profile = parseOne(minimal);

    // Assess
    const common = {
      endpointStatus: DEFAULTS.endpointStatus,
      weight: DEFAULTS.weight,
      endpointLocation: undefined,
      geoMapping: [],
      subnets: [],
      customHeaders: [],
    };
    expect(profile.endpoints).toEqual([
      {
        ...common,
        name: 'east',
        priority: 1,
        type: 'external',
        target: 'east.shop.example.net',
        targetKind: 'hostname',
        alwaysServe: DEFAULTS.alwaysServe,
      },
      {
        ...common,
        name: 'west',
        priority: 2,
        type: 'external',
        target: 'west.shop.example.net',
        targetKind: 'hostname',
        alwaysServe: DEFAULTS.alwaysServe,
      },
      {
        ...common,
        name: 'child',
        priority: 3,
        type: 'nested',
        targetProfile: 'leaf',
        minChildEndpoints: DEFAULTS.minChildEndpoints,
        minChildEndpointsIPv4: undefined,
        minChildEndpointsIPv6: undefined,
      },
    ]);
  });

  it.each([
    {
      name: 'HTTPS defaults to port 443',
      monitor: { protocol: 'HTTPS' },
      expected: { port: DEFAULTS.port.HTTPS },
    },
    {
      name: 'a 10 s interval defaults the timeout to 9',
      monitor: { intervalInSeconds: 10 },
      expected: { timeoutInSeconds: DEFAULTS.timeoutInSeconds[10] },
    },
    {
      name: 'TCP has no path, headers or status codes',
      monitor: { protocol: 'TCP', port: 22 },
      expected: { path: undefined, customHeaders: [], expectedStatusCodeRanges: [] },
    },
    {
      name: 'a sample window gets Front Door defaults 4 and 2',
      monitor: { healthRule: { kind: 'sampleWindow' } },
      expected: {
        healthRule: {
          kind: 'sampleWindow',
          sampleSize: DEFAULTS.sampleSize,
          successfulSamplesRequired: DEFAULTS.successfulSamplesRequired,
        },
      },
    },
    {
      name: 'a sample window keeps given values',
      monitor: { healthRule: { kind: 'sampleWindow', sampleSize: 10, successfulSamplesRequired: 7 } },
      expected: { healthRule: { kind: 'sampleWindow', sampleSize: 10, successfulSamplesRequired: 7 } },
    },
    {
      name: 'string forms become lists',
      monitor: { customHeaders: 'x-a:1', expectedStatusCodeRanges: '200-299, 301' },
      expected: {
        customHeaders: [{ name: 'x-a', value: '1' }],
        expectedStatusCodeRanges: [
          { min: 200, max: 299 },
          { min: 301, max: 301 },
        ],
      },
    },
  ])('$name', ({ monitor, expected }) => {
    // Act
    const profile = parseOne({ ...minimal, endpoints: [], monitorConfig: monitor });

    // Assess
    expect(profile.monitorConfig).toMatchObject(expected);
  });

  it.each([
    { name: 'MultiValue defaults maxReturn to 2', extra: {}, expected: DEFAULTS.maxReturn },
    { name: 'MultiValue keeps a given maxReturn', extra: { maxReturn: 5 }, expected: 5 },
  ])('$name', ({ extra, expected }) => {
    // Act
    const profile = parseOne({
      ...minimal,
      trafficRoutingMethod: 'MultiValue',
      endpoints: [{ name: 'a', target: '2001:DB8::1' }],
      ...extra,
    });

    // Assess
    expect(profile.maxReturn).toBe(expected);
    expect(profile.endpoints[0]).toMatchObject({ target: '2001:db8::1', targetKind: 'ipv6' });
  });

  it('keeps given values, upper-cases geo codes and converts subnets to CIDR blocks', () => {
    // Act
    const geo = parseOne({
      ...minimal,
      trafficRoutingMethod: 'Geographic',
      probeRegions: ['eu-west-1'],
      endpoints: [
        {
          name: 'a',
          target: '192.0.2.1',
          geoMapping: ['de', 'us-ca'],
          endpointStatus: 'Disabled',
          weight: 7,
          priority: 9,
          customHeaders: 'x:1',
        },
      ],
    });
    const subnet = parseOne({
      ...minimal,
      trafficRoutingMethod: 'Subnet',
      endpoints: [{ name: 'a', target: 'a.example.net', subnets: ['203.0.112.0-203.0.114.255'] }],
    });

    // Assess
    expect(geo.probeRegions).toEqual(['eu-west-1']);
    expect(geo.endpoints[0]).toMatchObject({
      geoMapping: ['DE', 'US-CA'],
      endpointStatus: 'Disabled',
      weight: 7,
      priority: 9,
      customHeaders: [{ name: 'x', value: '1' }],
    });
    expect(subnet.endpoints[0]?.subnets).toEqual([
      { source: '203.0.112.0-203.0.114.255', cidrs: ['203.0.112.0/23', '203.0.114.0/24'] },
    ]);
  });
});
