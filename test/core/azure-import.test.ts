/**
 * `tm import azure`'s core on whole imports it must refuse: files without a profile, a
 * `--target` naming nothing, two profiles whose names meet, an import that does not validate.
 * Each is refused with every problem named, nothing half-imported.
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
