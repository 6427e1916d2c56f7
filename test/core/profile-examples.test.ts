import { describe, expect, it } from 'vitest';
import { loadDefinitions } from '../../infra/definitions/load.js';
import { ROUTING_METHODS } from '../support/profile-api.js';

const example = (file: string) => new URL(`../../examples/${file}`, import.meta.url).pathname;

describe('the bundled examples', () => {
  it.each([
    { name: 'definitions.ts', file: 'definitions.ts', profiles: 7 },
    { name: 'definitions.yaml', file: 'definitions.yaml', profiles: 2 },
    { name: 'definitions.json', file: 'definitions.json', profiles: 1 },
  ])('$name is valid', async ({ file, profiles }) => {
    // Act
    const result = await loadDefinitions(example(file));

    // Assess
    expect(result.ok ? [] : result.formatted).toEqual([]);
    expect(result.ok && result.profiles.length).toBe(profiles);
  });

  it('definitions.ts covers all six routing methods and a nested pair, in zone example.com', async () => {
    // Act
    const result = await loadDefinitions(example('definitions.ts'));

    // Assess
    const profiles = result.ok ? result.profiles : [];
    expect(new Set(profiles.map((p) => p.trafficRoutingMethod))).toEqual(new Set(ROUTING_METHODS));
    const nested = profiles.flatMap((p) =>
      p.endpoints.filter((e) => e.type === 'nested').map((e) => [p.name, e.targetProfile]),
    );
    expect(nested).toEqual([['www', 'www-eu']]);
    expect(
      profiles.every(
        (p) => p.dnsConfig.zoneName === 'example.com' && p.dnsConfig.hostedZoneId === 'Z00000000000000000001',
      ),
    ).toBe(true);
  });

  it('invalid.yaml reports every one of its problems in one run', async () => {
    // Act
    const result = await loadDefinitions(example('invalid.yaml'));

    // Assess
    expect(result.ok ? [] : result.formatted).toEqual([
      'profiles[0] "shop".dnsConfig.ttl: must be an integer 0–2147483647, got -1',
      `profiles[0] "shop".monitorConfig.path: must be a path starting with '/' (visible ASCII, no spaces), got "health"`,
      'profiles[0] "shop".monitorConfig.timeoutInSeconds: must be an integer 5–9 when intervalInSeconds is 10, got 10',
      'profiles[0] "shop".monitorConfig.customHeaders[1]: must not contain "*": a wildcard Host header is not supported, got "Host:*.example.net"',
      'profiles[0] "shop".monitorConfig.expectedStatusCodeRanges[0]: must have min ≤ max, got "299-200"',
      'profiles[0] "shop" endpoints[0] "east".weight: must be an integer 1–255, got 0',
      'profiles[0] "shop" endpoints[1] "east".name: must be unique in the profile: endpoints[0] "east" has the same name, got "east"',
      'profiles[0] "shop" endpoints[1] "east".target: must be a host name like endpoints[0] "east": one addressing kind per profile, got "203.0.113.10"',
      'profiles[0] "shop" endpoints[1] "east".priority: must be unique in the profile: endpoints[0] "east" has priority 1 (its list position), got 1',
      'profiles[0] "shop" endpoints[2] "eu".targetProfile: must name a profile of these definitions, got "shop-eu"',
      'profiles[0] "shop" endpoints[2] "eu".alwaysServe: must not be true: health checks cannot be turned off for nested endpoints, got true',
      'profiles[1] "db".maxReturn: must be an integer 1–8, got 9',
      'profiles[1] "db".dnsConfig.relativeName: must give a DNS name no other profile uses: profiles[0] "shop" is shop.example.com too, got "shop"',
      'profiles[1] "db".monitorConfig.path: must not be set when protocol is TCP (HTTP/HTTPS only), got "/"',
      'profiles[1] "db".monitorConfig.port: is required when protocol is TCP, got nothing',
      'profiles[1] "db" endpoints[0] "db-1".target: must be an IP address: MultiValue profiles accept IP addresses only, got "db1.example.net"',
      'profiles[1] "db" endpoints[1] "db-2".wieght: is not a known field; did you mean "weight"?, got 2',
      'profiles[2] "geo" endpoints[1] "germany".geoMapping[0]: must be mapped by one endpoint only: endpoints[0] "europe" maps DE already, got "de"',
      'profiles[2] "geo" endpoints[1] "germany".geoMapping[1]: must be a Route 53 location code: WORLD, GEO-AF|AN|AS|EU|NA|OC|SA, a country (DE) or a US state (US-CA), got "XX"',
      'profiles[2] "geo" endpoints[2] "nowhere".geoMapping: must map at least one location with trafficRoutingMethod Geographic, got nothing',
      'profiles[3] "lan" endpoints[0] "office".subnets[1]: must be made of whole /24 blocks: Route 53 CIDR routing accepts IPv4 blocks up to /24 (the whole blocks around it are 192.0.2.0-192.0.2.255, 157 more addresses), got "192.0.2.1-192.0.2.99"',
      'profiles[3] "lan" endpoints[1] "branch".subnets[0]: must not overlap "10.0.0.0/8" of endpoints[0] "office": an address maps to one endpoint only, got "10.1.0.0/16"',
      'profiles[3] "lan" endpoints[3] "rest-b".subnets: must list client ranges: only one endpoint may be the fallback (no subnets), and endpoints[2] "rest-a" already is, got nothing',
    ]);
  });
});
