/**
 * `tm import azure`'s core on whole imports it must refuse: files without a profile, a
 * `--target` naming nothing, two profiles whose names meet, an import that does not validate.
 * Each is refused with every problem named, nothing half-imported. And on what it maps with a
 * difference (names, the DNS name, nested and Azure endpoints, weights), a report line each.
 */
import { describe, expect, it } from 'vitest';
import { importAzure, type ImportOptions } from '../../shared/azure/import.js';

const OPTIONS: ImportOptions = {
  zoneName: 'example.com',
  hostedZoneId: 'Z00000000000000000001',
  targets: new Map(),
};
const ID =
  '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Network';

/** A profile as `az network traffic-manager profile show` prints it (the fields the import reads). */
function profile(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: `${ID}/trafficManagerProfiles/${name}`,
    name,
    type: 'Microsoft.Network/trafficManagerProfiles',
    profileStatus: 'Enabled',
    trafficRoutingMethod: 'Priority',
    dnsConfig: { relativeName: name.toLowerCase(), ttl: 30 },
    monitorConfig: {
      protocol: 'HTTPS',
      port: 443,
      path: '/',
      intervalInSeconds: 30,
      timeoutInSeconds: 10,
      toleratedNumberOfFailures: 3,
    },
    endpoints: [
      {
        id: `${ID}/trafficManagerProfiles/${name}/externalEndpoints/east`,
        name: 'east',
        type: 'Microsoft.Network/trafficManagerProfiles/externalEndpoints',
        endpointStatus: 'Enabled',
        target: 'east.example.net',
        priority: 1,
      },
    ],
    ...extra,
  };
}

const problemsOf = (result: ReturnType<typeof importAzure>): string[] => (result.ok ? [] : result.problems);

describe('importAzure refuses a whole import', () => {
  it('whose files hold no Traffic Manager profile, naming the files', () => {
    const result = importAzure([{ file: 'empty.json', content: { resources: [] } }], OPTIONS);
    expect(problemsOf(result)).toEqual([
      'empty.json: hold no Traffic Manager profile (Microsoft.Network/trafficmanagerprofiles)',
    ]);
  });

  it('with a --target that names no azureEndpoints endpoint of the files', () => {
    const result = importAzure([{ file: 'shop.json', content: profile('shop') }], {
      ...OPTIONS,
      targets: new Map([[`${ID}/publicIPAddresses/gone`, 'gone.example.net']]),
    });
    expect(problemsOf(result)).toEqual([
      expect.stringContaining('names no azureEndpoints endpoint of the files imported'),
    ]);
  });

  it('of two profiles whose names become the same, naming both', () => {
    const result = importAzure(
      [
        { file: 'a.json', content: profile('My.Shop') },
        { file: 'b.json', content: profile('my_shop') },
      ],
      OPTIONS,
    );
    expect(problemsOf(result)).toEqual([
      `b.json "my_shop".name: is also the name of a.json "My.Shop" (names here are compared without case, '.' and '_' read as '-'): import one of them`,
    ]);
  });

  it('with a field written both in properties and beside it, naming the field (definitions refuse it too)', () => {
    const { endpoints, ...shop } = profile('shop');
    const [east] = endpoints as Record<string, unknown>[];
    const result = importAzure(
      [
        {
          file: 'shop.json',
          content: {
            ...shop,
            trafficRoutingMethod: 'Weighted',
            properties: { trafficRoutingMethod: 'Priority' },
            endpoints: [{ ...east, properties: { priority: 2 } }],
          },
        },
      ],
      OPTIONS,
    );
    expect(problemsOf(result)).toEqual([
      'shop.json "shop".properties: holds trafficRoutingMethod, also written beside it: keep one',
      'shop.json "shop" endpoints[0] "east".properties: holds priority, also written beside it: keep one',
    ]);
  });

  it('whose result would not validate, with the validation problems named by file and place', () => {
    const result = importAzure(
      [{ file: 'shop.json', content: profile('shop', { dnsConfig: { relativeName: 'shop', ttl: -1 } }) }],
      OPTIONS,
    );
    expect(problemsOf(result)).toEqual([
      'shop.json "shop".dnsConfig.ttl: must be an integer 0–2147483647, got -1',
    ]);
  });

  it('with a geoMapping entry that is not a string: the validation problem, no crash', () => {
    const geographic = profile('geo', { trafficRoutingMethod: 'Geographic' });
    const [east] = geographic['endpoints'] as Record<string, unknown>[];
    const result = importAzure(
      [
        {
          file: 'geo.json',
          content: { ...geographic, endpoints: [{ ...east, geoMapping: [42, 'GEO-EU'] }] },
        },
      ],
      OPTIONS,
    );
    expect(problemsOf(result)).toEqual([
      expect.stringMatching(/^geo\.json "geo" endpoints\[0\] "east"\.geoMapping\[0\]: /),
    ]);
  });
});

/** An endpoint as `az … profile show` prints it (the fields the import reads). */
function endpoint(name: string, kind: 'external' | 'nested' | 'azure', extra: Record<string, unknown>) {
  return { name, type: `Microsoft.Network/trafficManagerProfiles/${kind}Endpoints`, ...extra };
}
const withEndpoints = (name: string, endpoints: unknown[], extra: Record<string, unknown> = {}) =>
  profile(name, { endpoints, ...extra });

function imported(content: unknown, targets: ReadonlyMap<string, string> = new Map()) {
  const result = importAzure([{ file: 'tm.json', content }], { ...OPTIONS, targets });
  if (!result.ok) throw new Error(`not imported: ${result.problems.join('\n')}`);
  return result;
}

describe('importAzure: what Route 53 carries otherwise, each with a report line', () => {
  it('names with other characters become letters, digits and -, unique in the profile', () => {
    const { profiles, report } = imported(
      withEndpoints(
        'My.Shop',
        [
          endpoint('east west', 'external', { target: 'a.example.net', priority: 1 }),
          endpoint('east_west', 'external', { target: 'b.example.net', priority: 2 }),
          endpoint('***', 'external', { target: 'c.example.net', priority: 3 }),
        ],
        { dnsConfig: { relativeName: 'shop', ttl: 30 } },
      ),
    );
    expect(
      profiles.map((p) => [p['name'], (p['endpoints'] as { name: string }[]).map((e) => e.name)]),
    ).toEqual([['My-Shop', ['east-west', 'east-west-2', 'endpoint']]]);
    expect(report).toEqual(
      expect.arrayContaining([
        `profiles[0] "My-Shop".name: is the Azure name; names here are letters, digits and '-': it is "My-Shop", got "My.Shop"`,
        `profiles[0] "My-Shop" endpoints[1] "east-west-2".name: is the Azure name; names here are letters, digits and '-', unique in the profile: it is "east-west-2", got "east_west"`,
        `profiles[0] "My-Shop" endpoints[2] "endpoint".name: is the Azure name; names here are letters, digits and '-', unique in the profile: it is "endpoint", got "***"`,
      ]),
    );
  });

  it("a sovereign cloud's name (dnsConfig.fqdn) is the one reported as Azure's, the label in lower case", () => {
    const { profiles, report } = imported(
      profile('cn', { dnsConfig: { relativeName: 'Shop', fqdn: 'Shop.TrafficManager.cn', ttl: 30 } }),
    );
    expect(profiles[0]?.['dnsConfig']).toEqual({
      zoneName: 'example.com',
      hostedZoneId: 'Z00000000000000000001',
      relativeName: 'shop',
      ttl: 30,
    });
    expect(report).toEqual(
      expect.arrayContaining([
        `profiles[0] "cn".dnsConfig.fqdn: is the profile's Azure name (read-only): here the name is shop.example.com, got "Shop.TrafficManager.cn"`,
        expect.stringMatching(
          /^profiles\[0\] "cn"\.dnsConfig\.relativeName: was shop\.trafficmanager\.cn in Azure; here it is shop\.example\.com, in the zone you own/,
        ),
      ]),
    );
  });

  it('a nested endpoint names its child by resource id: the child profile imported with it, its Azure name dropped', () => {
    const { profiles, report } = imported([
      withEndpoints('parent', [
        endpoint('kid', 'nested', {
          target: 'child.trafficmanager.net',
          targetResourceId: `${ID}/trafficManagerProfiles/Child`,
          priority: 1,
          minChildEndpoints: 1,
        }),
      ]),
      profile('child'),
    ]);
    expect(profiles[0]?.['endpoints']).toEqual([
      { name: 'kid', type: 'nested', targetProfile: 'child', priority: 1, minChildEndpoints: 1 },
    ]);
    expect(report).toEqual(
      expect.arrayContaining([
        `profiles[0] "parent" endpoints[0] "kid".target: is the child profile's Azure name (read-only): the child is targetProfile here, got "child.trafficmanager.net"`,
        expect.stringMatching(
          /^profiles\[0\] "parent" endpoints\[0\] "kid"\.targetResourceId: is the child profile "child", imported with it, got /,
        ),
      ]),
    );
  });

  it('an Azure endpoint is the external endpoint of its host: from --target (any case of the id), else its own target', () => {
    const app = '/subscriptions/0/resourceGroups/rg/providers/Microsoft.Web/sites/App';
    const { profiles, report } = imported(
      withEndpoints('az', [
        endpoint('app', 'azure', { targetResourceId: app, priority: 1 }),
        endpoint('ip', 'azure', {
          targetResourceId: `${ID}/publicIPAddresses/ip`,
          target: 'ip.example.net',
          priority: 2,
        }),
        endpoint('ext', 'external', {
          target: 'ext.example.net',
          targetResourceId: `${ID}/publicIPAddresses/x`,
          priority: 3,
        }),
      ]),
      new Map([[app.toLowerCase(), 'app.example.net']]),
    );
    expect(profiles[0]?.['endpoints']).toEqual([
      { name: 'app', target: 'app.example.net', priority: 1 },
      { name: 'ip', target: 'ip.example.net', priority: 2 },
      { name: 'ext', target: 'ext.example.net', priority: 3 },
    ]);
    expect(report).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^profiles\[0\] "az" endpoints\[0\] "app"\.targetResourceId: is an Azure resource \(azureEndpoints\): it is probed and published as the external endpoint "app\.example\.net", got /,
        ),
        expect.stringMatching(
          / endpoints\[1\] "ip"\.targetResourceId: .* as the external endpoint "ip\.example\.net", got /,
        ),
        expect.stringMatching(
          / endpoints\[2\] "ext"\.targetResourceId: is ignored: the endpoint is its target, got /,
        ),
      ]),
    );
  });

  it('weights above 255 with a common divisor that brings them within 255: divided, the same ratios', () => {
    const { profiles, report } = imported(
      withEndpoints(
        'w',
        [
          endpoint('a', 'external', { target: 'a.example.net', weight: 1000 }),
          endpoint('b', 'external', { target: 'b.example.net', weight: 500 }),
        ],
        { trafficRoutingMethod: 'Weighted' },
      ),
    );
    expect((profiles[0]?.['endpoints'] as { weight: number }[]).map((e) => e.weight)).toEqual([2, 1]);
    expect(report).toEqual(
      expect.arrayContaining([
        'profiles[0] "w" endpoints[0] "a".weight: is 2 here (Route 53 weights are 1–255; every weight of "w" divided by 500: the same ratios), got 1000',
        'profiles[0] "w" endpoints[1] "b".weight: is 1 here (Route 53 weights are 1–255; every weight of "w" divided by 500: the same ratios), got 500',
      ]),
    );
  });

  it("weights without such a divisor: scaled and rounded, each endpoint's share before and after (below 1 %: two decimals)", () => {
    const { profiles, report } = imported(
      withEndpoints(
        'w',
        [
          endpoint('a', 'external', { target: 'a.example.net', weight: 1000 }),
          endpoint('b', 'external', { target: 'b.example.net', weight: 1 }),
          endpoint('c', 'external', { target: 'c.example.net' }), // Azure's default, 1
        ],
        { trafficRoutingMethod: 'Weighted' },
      ),
    );
    expect((profiles[0]?.['endpoints'] as { weight: number }[]).map((e) => e.weight)).toEqual([255, 1, 1]);
    expect(report).toEqual(
      expect.arrayContaining([
        'profiles[0] "w" endpoints[0] "a".weight: is 255 here (Route 53 weights are 1–255; scaled so the largest is 255, rounded): 99.8% of the traffic in Azure, 99.2% here, got 1000',
        'profiles[0] "w" endpoints[1] "b".weight: is still 1 here (Route 53 weights are 1–255; scaled so the largest is 255, rounded): 0.10% of the traffic in Azure, 0.39% here, got 1',
      ]),
    );
  });
});

describe('importAzure: values Azure reads otherwise than they are written, as Azure reads them', () => {
  it("a null field of az output is Azure's not set, as in definitions: a null weight is Azure's 1, a null type an external endpoint", () => {
    const { profiles, report } = imported(
      withEndpoints(
        'w',
        [
          endpoint('a', 'external', { target: 'a.example.net', weight: 1000 }),
          endpoint('b', 'external', { target: 'b.example.net', weight: null }),
          { name: 'c', type: null, target: 'c.example.net', weight: 500 },
        ],
        { trafficRoutingMethod: 'Weighted', maxReturn: null },
      ),
    );
    expect(profiles[0]?.['endpoints']).toEqual([
      { name: 'a', target: 'a.example.net', weight: 255 },
      { name: 'b', target: 'b.example.net', weight: 1 },
      { name: 'c', target: 'c.example.net', weight: 128 },
    ]);
    expect(report).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^profiles\[0\] "w" endpoints\[0\] "a"\.weight: is 255 here /),
      ]),
    );
  });

  it('integers written as text become the integer; fields Azure ignores for the routing method are dropped', () => {
    const { profiles, report } = imported(
      withEndpoints(
        'shop',
        [
          endpoint('east', 'external', {
            target: 'east.example.net',
            endpointLocation: 'East US',
            subnets: [{ first: '10.0.0.0', scope: '24' }, '10.1.0.0/24'],
          }),
        ],
        {
          trafficRoutingMethod: 'subnet',
          maxReturn: 0,
          dnsConfig: { relativeName: 'shop', ttl: '60' },
          monitorConfig: {
            protocol: 'HTTPS',
            port: ' 443 ',
            path: '/',
            intervalInSeconds: '30',
            expectedStatusCodeRanges: [{ min: '200', max: '299' }],
          },
        },
      ),
    );
    expect(profiles[0]).toMatchObject({
      trafficRoutingMethod: 'Subnet',
      dnsConfig: { ttl: 60 },
      monitorConfig: { port: 443, intervalInSeconds: 30, expectedStatusCodeRanges: [{ min: 200, max: 299 }] },
      endpoints: [{ name: 'east', target: 'east.example.net', subnets: ['10.0.0.0/24', '10.1.0.0/24'] }],
    });
    expect(profiles[0]).not.toHaveProperty('maxReturn');
    expect(profiles[0]?.['endpoints']).not.toContainEqual(
      expect.objectContaining({ endpointLocation: expect.anything() }),
    );
    expect(report).toEqual(
      expect.arrayContaining([
        'tm.json "shop".dnsConfig.ttl: is the text "60": the integer 60, as ARM reads it for this integer property',
        'tm.json "shop".monitorConfig.port: is the text " 443 ": the integer 443, as ARM reads it for this integer property',
        'tm.json "shop".monitorConfig.expectedStatusCodeRanges[0].max: is the text "299": the integer 299, as ARM reads it for this integer property',
        `tm.json "shop".maxReturn: is 0, which Azure ignores for a subnet profile (it is MultiValue's): dropped`,
        'tm.json "shop" endpoints[0] "east".subnets[0].scope: is the text "24": the integer 24, as ARM reads it for this integer property',
        `tm.json "shop" endpoints[0] "east".endpointLocation: is "East US", which Azure ignores for a subnet profile (it is Performance's): dropped`,
      ]),
    );
  });

  it('text that is no integer is left as written, for validation to name', () => {
    const result = importAzure(
      [
        {
          file: 'tm.json',
          content: withEndpoints(
            'shop',
            [endpoint('east', 'external', { target: 'east.example.net', priority: 'one' })],
            {
              monitorConfig: {
                protocol: 'HTTPS',
                port: 443,
                path: '/',
                expectedStatusCodeRanges: ['200-299'],
              },
            },
          ),
        },
      ],
      OPTIONS,
    );
    expect(problemsOf(result)).toEqual([
      'tm.json "shop".monitorConfig.expectedStatusCodeRanges[0]: must be an object with min and max, got "200-299"',
      'tm.json "shop" endpoints[0] "east".priority: must be an integer 1–1000, got "one"',
    ]);
  });

  it('without a routing method nothing is dropped as ignored by it: the missing method is the problem', () => {
    const result = importAzure(
      [
        {
          file: 'tm.json',
          content: withEndpoints(
            'shop',
            [endpoint('east', 'external', { target: 'east.example.net', endpointLocation: 'eastus' })],
            { trafficRoutingMethod: undefined, monitorConfig: undefined },
          ),
        },
      ],
      OPTIONS,
    );
    expect(problemsOf(result)).toEqual([
      'tm.json "shop".trafficRoutingMethod: must be one of Priority, Weighted, Performance, Geographic, MultiValue, Subnet, got nothing',
    ]);
  });
});

describe('importAzure refuses what it cannot map, naming the file, profile and endpoint', () => {
  it('a profile without its DNS name under trafficmanager.net', () => {
    const result = importAzure(
      [
        {
          file: 'tm.json',
          content: [profile('a', { dnsConfig: null }), profile('b', { dnsConfig: { relativeName: '' } })],
        },
      ],
      OPTIONS,
    );
    expect(problemsOf(result)).toEqual([
      `tm.json [0] "a".dnsConfig.relativeName: must be the profile's DNS name under trafficmanager.net`,
      `tm.json [1] "b".dnsConfig.relativeName: must be the profile's DNS name under trafficmanager.net`,
    ]);
  });

  it('a nested endpoint whose child profile is not named by a resource id of the files', () => {
    const result = importAzure(
      [
        {
          file: 'tm.json',
          content: withEndpoints('parent', [
            endpoint('a', 'nested', { priority: 1 }),
            endpoint('b', 'nested', { targetResourceId: 'child', priority: 2 }),
            endpoint('c', 'nested', {
              targetResourceId: `${ID}/trafficManagerProfiles/elsewhere`,
              priority: 3,
            }),
          ]),
        },
      ],
      OPTIONS,
    );
    expect(problemsOf(result)).toEqual([
      'tm.json "parent" endpoints[0] "a".targetResourceId: is missing: a nested endpoint names its child profile by resource id (…/trafficManagerProfiles/NAME)',
      'tm.json "parent" endpoints[1] "b".targetResourceId: must be the resource id of the child profile (…/trafficManagerProfiles/NAME), got "child"',
      'tm.json "parent" endpoints[2] "c".targetResourceId: names the profile "elsewhere", which is not in the files imported: import it with this one',
    ]);
  });

  it('an Azure endpoint with no host name: the flag to give it with, by its resource id when it has one', () => {
    const result = importAzure(
      [
        {
          file: 'tm.json',
          content: withEndpoints('az', [
            endpoint('app', 'azure', { priority: 1 }),
            endpoint('ip', 'azure', { targetResourceId: `${ID}/publicIPAddresses/ip`, priority: 2 }),
          ]),
        },
      ],
      OPTIONS,
    );
    expect(problemsOf(result)).toEqual([
      'tm.json "az" endpoints[0] "app".targetResourceId: is an Azure resource (azureEndpoints) with no host name here: give it with --target RESOURCE_ID=HOST',
      `tm.json "az" endpoints[1] "ip".targetResourceId: is an Azure resource (azureEndpoints) with no host name here: give it with --target ${ID}/publicIPAddresses/ip=HOST`,
    ]);
  });

  it('a geographic code Route 53 has no location for, named with its endpoint', () => {
    const result = importAzure(
      [
        {
          file: 'tm.json',
          content: withEndpoints(
            'geo',
            [
              endpoint('a', 'external', { target: 'a.example.net', geoMapping: ['XK', 'GEO-EU'] }),
              endpoint('b', 'external', { target: 'b.example.net', geoMapping: ['WORLD'] }),
            ],
            { trafficRoutingMethod: 'Geographic' },
          ),
        },
      ],
      OPTIONS,
    );
    expect(problemsOf(result)).toEqual([
      'tm.json "geo" endpoints[0] "a".geoMapping: "XK" is Kosovo, which Route 53 has no location code for: leave it out (its users then get the WORLD endpoint, if any)',
    ]);
  });

  it('an Azure setting with no equivalent, though the rest validates', () => {
    const result = importAzure(
      [{ file: 'tm.json', content: profile('view', { trafficViewEnrollmentStatus: 'Enabled' }) }],
      OPTIONS,
    );
    expect(problemsOf(result)).toEqual([
      'tm.json "view".trafficViewEnrollmentStatus: Traffic View has no equivalent here (tm status and the status events show where traffic goes); leave it out or "Disabled", got "Enabled"',
    ]);
  });
});
