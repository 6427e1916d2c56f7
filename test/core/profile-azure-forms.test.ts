import { describe, expect, it } from 'vitest';
import { formatIssue, parseDefinitions, type Profile } from '../support/profile-api.js';

type Json = Record<string, unknown>;

/**
 * A profile as `az network traffic-manager profile show` prints it (Azure's documented
 * Profile/Endpoint model, API version 2022-04-01), with the one field Azure has no
 * equivalent of added: `dnsConfig.zoneName`.
 */
function azShow(): Json {
  return {
    allowedEndpointRecordTypes: null,
    dnsConfig: {
      fqdn: 'contoso-shop.trafficmanager.net',
      relativeName: 'shop',
      ttl: 60,
      zoneName: 'example.com',
      hostedZoneId: 'Z00000000000000000001',
    },
    endpoints: [
      {
        alwaysServe: 'Disabled',
        customHeaders: [{ name: 'x-probe', value: 'tm' }],
        endpointLocation: 'East US',
        endpointMonitorStatus: 'Online',
        endpointStatus: 'Enabled',
        geoMapping: null,
        id: '/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Network/trafficManagerProfiles/shop/externalEndpoints/east',
        minChildEndpoints: null,
        minChildEndpointsIPv4: null,
        minChildEndpointsIPv6: null,
        name: 'east',
        priority: 1,
        resourceGroup: 'rg',
        subnets: [],
        target: 'east.shop.example.net',
        targetResourceId: null,
        type: 'Microsoft.Network/trafficManagerProfiles/externalEndpoints',
        weight: 1,
      },
      {
        alwaysServe: 'Enabled',
        endpointLocation: 'westeurope',
        endpointMonitorStatus: 'Degraded',
        endpointStatus: 'Disabled',
        id: '/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Network/trafficManagerProfiles/shop/externalEndpoints/west',
        name: 'west',
        priority: 2,
        target: 'west.shop.example.net',
        type: 'Microsoft.Network/trafficManagerProfiles/externalEndpoints',
        weight: 1,
      },
    ],
    id: '/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Network/trafficManagerProfiles/shop',
    location: 'global',
    maxReturn: null,
    monitorConfig: {
      customHeaders: [],
      expectedStatusCodeRanges: [{ min: 200, max: 299 }],
      intervalInSeconds: 30,
      path: '/health',
      port: 443,
      profileMonitorStatus: 'Degraded',
      protocol: 'https',
      timeoutInSeconds: 10,
      toleratedNumberOfFailures: 3,
    },
    name: 'shop',
    profileStatus: 'enabled',
    resourceGroup: 'rg',
    tags: {},
    trafficRoutingMethod: 'performance',
    trafficViewEnrollmentStatus: 'Disabled',
    type: 'Microsoft.Network/trafficManagerProfiles',
  };
}

function valid(input: unknown): { profiles: Profile[]; notices: string[] } {
  const result = parseDefinitions(input);
  if (!result.ok) throw new Error(result.issues.map((issue) => formatIssue(issue, input)).join('\n'));
  return { profiles: result.profiles, notices: result.notices.map((notice) => formatIssue(notice, input)) };
}

function problems(input: unknown): string[] {
  const result = parseDefinitions(input);
  return result.ok ? [] : result.issues.map((issue) => formatIssue(issue, input));
}

describe("Azure's values accepted in definitions", () => {
  it('validates the JSON of az network traffic-manager profile show, with a notice per field it drops or maps', () => {
    // Act
    const { profiles, notices } = valid([azShow()]);

    // Assess
    const [shop] = profiles;
    expect(shop).toMatchObject({
      name: 'shop',
      profileStatus: 'Enabled',
      trafficRoutingMethod: 'Performance',
      dnsConfig: { fqdn: 'shop.example.com', ttl: 60 },
      monitorConfig: {
        protocol: 'HTTPS',
        port: 443,
        path: '/health',
        expectedStatusCodeRanges: [{ min: 200, max: 299 }],
      },
    });
    expect(shop?.endpoints).toMatchObject([
      {
        name: 'east',
        type: 'external',
        alwaysServe: false,
        endpointStatus: 'Enabled',
        endpointLocation: 'us-east-1',
      },
      {
        name: 'west',
        type: 'external',
        alwaysServe: true,
        endpointStatus: 'Disabled',
        endpointLocation: 'eu-west-2',
      },
    ]);
    expect(notices).toEqual([
      'profiles[0] "shop".dnsConfig.fqdn: is a field Azure sets (read-only or resource metadata) and is ignored, got "contoso-shop.trafficmanager.net"',
      'profiles[0] "shop" endpoints[0] "east".endpointLocation: is the Azure region East US (Virginia): latency is measured to the nearest AWS region, us-east-1, got "East US"',
      'profiles[0] "shop" endpoints[0] "east".endpointMonitorStatus: is a field Azure sets (read-only or resource metadata) and is ignored, got "Online"',
      'profiles[0] "shop" endpoints[0] "east".id: is a field Azure sets (read-only or resource metadata) and is ignored, got "/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Network/trafficManag…',
      'profiles[0] "shop" endpoints[0] "east".resourceGroup: is a field Azure sets (read-only or resource metadata) and is ignored, got "rg"',
      'profiles[0] "shop" endpoints[1] "west".endpointLocation: is the Azure region West Europe (Netherlands): latency is measured to the nearest AWS region, eu-west-2, got "westeurope"',
      'profiles[0] "shop" endpoints[1] "west".endpointMonitorStatus: is a field Azure sets (read-only or resource metadata) and is ignored, got "Degraded"',
      'profiles[0] "shop" endpoints[1] "west".id: is a field Azure sets (read-only or resource metadata) and is ignored, got "/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Network/trafficManag…',
      'profiles[0] "shop".id: is a field Azure sets (read-only or resource metadata) and is ignored, got "/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Network/trafficManag…',
      'profiles[0] "shop".location: is a field Azure sets (read-only or resource metadata) and is ignored, got "global"',
      'profiles[0] "shop".monitorConfig.profileMonitorStatus: is a field Azure sets (read-only or resource metadata) and is ignored, got "Degraded"',
      'profiles[0] "shop".resourceGroup: is a field Azure sets (read-only or resource metadata) and is ignored, got "rg"',
      'profiles[0] "shop".tags: is Azure resource metadata and is not carried over, got {}',
      'profiles[0] "shop".trafficViewEnrollmentStatus: is an Azure setting traffic-manager has no equivalent for and is ignored, got "Disabled"',
      'profiles[0] "shop".type: is a field Azure sets (read-only or resource metadata) and is ignored, got "Microsoft.Network/trafficManagerProfiles"',
    ]);
  });

  it('validates an ARM resource: the properties wrapper of the profile and of its endpoints', () => {
    // Prepare
    const arm = {
      type: 'Microsoft.Network/trafficmanagerprofiles',
      name: 'api',
      location: 'global',
      properties: {
        trafficRoutingMethod: 'Weighted',
        dnsConfig: {
          relativeName: 'api',
          ttl: 30,
          zoneName: 'example.com',
          hostedZoneId: 'Z00000000000000000001',
        },
        monitorConfig: { protocol: 'HTTP', port: 80, path: '/' },
        endpoints: [
          {
            name: 'a',
            type: 'Microsoft.Network/trafficmanagerprofiles/externalEndpoints',
            properties: { target: 'a.example.net', weight: 3, endpointStatus: 'Enabled' },
          },
        ],
      },
    };

    // Act
    const { profiles } = valid([arm]);

    // Assess
    expect(profiles[0]).toMatchObject({
      name: 'api',
      trafficRoutingMethod: 'Weighted',
      endpoints: [{ name: 'a', type: 'external', target: 'a.example.net', weight: 3 }],
    });
  });

  it.each([
    {
      name: 'lower-case routing method',
      change: (p: Json) => (p.trafficRoutingMethod = 'subnet'),
      path: 'trafficRoutingMethod',
      expected: 'Subnet',
    },
    {
      name: 'upper-case profile status',
      change: (p: Json) => (p.profileStatus = 'DISABLED'),
      path: 'profileStatus',
      expected: 'Disabled',
    },
  ])('accepts $name', ({ change, path, expected }) => {
    // Prepare
    const profile = subnetProfile();
    change(profile);

    // Act
    const { profiles } = valid([profile]);

    // Assess
    expect((profiles[0] as unknown as Json)[path]).toBe(expected);
  });

  it('accepts subnets as [{first, last}], [{first, scope}] and strings, and endpoint types in any case', () => {
    // Act
    const { profiles } = valid([subnetProfile()]);

    // Assess
    expect(
      profiles[0]?.endpoints.map((endpoint) => [endpoint.type, endpoint.subnets.map((s) => s.source)]),
    ).toEqual([
      ['external', ['10.0.0.0-10.0.1.255']],
      ['external', ['10.1.0.0/24']],
      ['external', ['10.2.0.0/24', '2001:db8::/48']],
      ['external', []],
    ]);
  });

  it.each([
    { name: 'a name of every object ("constructor")', type: 'constructor' },
    { name: 'a name of every object ("__proto__")', type: '__proto__' },
    { name: 'our name under the ARM prefix', type: 'Microsoft.Network/trafficManagerProfiles/external' },
  ])('refuses an endpoint type that is $name', ({ type }) => {
    // Prepare
    const profile = subnetProfile();
    (profile.endpoints as Json[])[3]!.type = type;

    // Act
    const found = problems([profile]);

    // Assess
    expect(found).toEqual([
      `profiles[0] "portal" endpoints[3] "rest".type: must be "external" (the default) or "nested" (any case, or Azure's Microsoft.Network/trafficManagerProfiles/externalEndpoints and nestedEndpoints), got ${JSON.stringify(type)}`,
    ]);
  });

  it('names the endpoint when a subnet gives both last and scope', () => {
    // Prepare
    const profile = subnetProfile();
    (profile.endpoints as Json[])[0]!.subnets = [{ first: '10.0.0.0', last: '10.0.0.255', scope: 24 }];

    // Act
    const found = problems([profile]);

    // Assess
    expect(found).toEqual([
      'profiles[0] "portal" endpoints[0] "office".subnets[0]: must give last or scope, not both, got {"first":"10.0.0.0","last":"10.0.0.255","scope":24}',
    ]);
  });

  it('reads a subnet { first } alone as that one address, which the /24 rule then names', () => {
    // Prepare
    const profile = subnetProfile();
    (profile.endpoints as Json[])[0]!.subnets = [{ first: '10.0.0.7' }];

    // Act
    const found = problems([profile]);

    // Assess
    expect(found).toEqual([
      'profiles[0] "portal" endpoints[0] "office".subnets[0]: must be made of whole /24 blocks: Route 53 CIDR routing accepts IPv4 blocks up to /24 (the whole blocks around it are 10.0.0.0-10.0.0.255, 255 more addresses), got "10.0.0.7-10.0.0.7"',
    ]);
  });

  it('leaves a subnet object of another shape as written, for the schema to name', () => {
    // Prepare
    const profile = subnetProfile();
    const subnets = [{ first: '10.0.0.0', scope: '24' }, { first: '10.1.0.0', extra: 1 }, { first: 7 }];
    (profile.endpoints as Json[])[0]!.subnets = subnets;

    // Act
    const found = problems([profile]);

    // Assess
    expect(found).toEqual(
      subnets.map(
        (subnet, index) =>
          `profiles[0] "portal" endpoints[0] "office".subnets[${index}]: must be a CIDR block ('10.0.0.0/8') or a range ('192.0.2.0-192.0.2.255'), got ${JSON.stringify(subnet)}`,
      ),
    );
  });

  it("reads an empty expectedStatusCodeRanges as Azure's not set: the default, with a notice", () => {
    // Prepare
    const profile = subnetProfile();
    profile.monitorConfig = { expectedStatusCodeRanges: [] };

    // Act
    const { profiles, notices } = valid([profile]);

    // Assess
    expect(profiles[0]?.monitorConfig.expectedStatusCodeRanges).toEqual([{ min: 200, max: 200 }]);
    expect(notices).toContain(
      'profiles[0] "portal".monitorConfig.expectedStatusCodeRanges: is empty, which Azure reads as not set: the default 200-200 applies, got []',
    );
  });

  it('names an Azure endpoint without a resource id or target as such', () => {
    const found = problems([
      {
        name: 'app',
        trafficRoutingMethod: 'Priority',
        dnsConfig: { zoneName: 'example.com', relativeName: 'app' },
        endpoints: [{ name: 'web', type: 'azureEndpoints' }],
      },
    ]);
    expect(found).toContain(
      'profiles[0] "app" endpoints[0] "web".type: is an Azure endpoint (a resource, "no targetResourceId"): give its host name as target (tm import azure --target RESOURCE_ID=HOST does it), got "azureEndpoints"',
    );
  });

  it('leaves a resource id beside a child already named, and a properties wrapper beside the same fields, for the schema to name', () => {
    const found = problems([
      {
        name: 'www',
        properties: { trafficRoutingMethod: 'Priority' },
        trafficRoutingMethod: 'Priority',
        dnsConfig: { zoneName: 'example.com', relativeName: 'www' },
        endpoints: [
          {
            name: 'eu',
            type: 'nestedEndpoints',
            targetProfile: 'eu',
            targetResourceId: '/x/trafficManagerProfiles/eu',
          },
        ],
      },
      {
        name: 'eu',
        trafficRoutingMethod: 'Priority',
        dnsConfig: { zoneName: 'example.com', relativeName: 'eu' },
        endpoints: [{ name: 'a', target: 'a.example.net' }],
      },
    ]);
    expect(found).toEqual([
      'profiles[0] "www".properties: is not a known field, got {"trafficRoutingMethod":"Priority"}',
      'profiles[0] "www" endpoints[0] "eu".targetResourceId: is not a known field, got "/x/trafficManagerProfiles/eu"',
    ]);
  });

  it('turns a nested endpoint that names its child by resource id into a child by name', () => {
    // Prepare
    const parent = {
      name: 'www',
      trafficRoutingMethod: 'Priority',
      dnsConfig: { zoneName: 'example.com', relativeName: 'www' },
      endpoints: [
        {
          name: 'eu',
          type: 'Microsoft.Network/trafficManagerProfiles/nestedEndpoints',
          targetResourceId:
            '/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Network/trafficManagerProfiles/www-eu',
          minChildEndpoints: 1,
          target: null,
        },
      ],
    };
    const child = {
      name: 'www-eu',
      trafficRoutingMethod: 'Priority',
      dnsConfig: { zoneName: 'example.com', relativeName: 'www-eu' },
      endpoints: [{ name: 'a', target: 'a.example.net' }],
    };

    // Act
    const { profiles, notices } = valid([parent, child]);

    // Assess
    expect(profiles[0]?.endpoints[0]).toMatchObject({ type: 'nested', targetProfile: 'www-eu' });
    expect(notices).toContain(
      'profiles[0] "www" endpoints[0] "eu".targetResourceId: names the child profile "www-eu": it must be defined in the same definitions, got "/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Network/trafficManag…',
    );
  });

  it("drops the Azure name az shows as a nested endpoint's target, with a notice; another target stays an error", () => {
    // Prepare
    const parent = (target: string): Json => ({
      name: 'www',
      trafficRoutingMethod: 'Priority',
      dnsConfig: { zoneName: 'example.com', relativeName: 'www' },
      endpoints: [
        {
          name: 'eu',
          type: 'Microsoft.Network/trafficManagerProfiles/nestedEndpoints',
          targetResourceId:
            '/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Network/trafficManagerProfiles/www-eu',
          target,
        },
      ],
    });
    const child = {
      name: 'www-eu',
      trafficRoutingMethod: 'Priority',
      dnsConfig: { zoneName: 'example.com', relativeName: 'www-eu' },
      endpoints: [{ name: 'a', target: 'a.example.net' }],
    };

    // Act
    const { profiles, notices } = valid([parent('www-eu.TrafficManager.net'), child]);
    const other = problems([parent('www-eu.example.net'), child]);

    // Assess
    expect(profiles[0]?.endpoints[0]).toMatchObject({ type: 'nested', targetProfile: 'www-eu' });
    expect(notices).toContain(
      `profiles[0] "www" endpoints[0] "eu".target: is the child profile's Azure name (read-only): the child is targetProfile here, got "www-eu.TrafficManager.net"`,
    );
    expect(other).toEqual([
      'profiles[0] "www" endpoints[0] "eu".target: is not a field of a nested endpoint, got "www-eu.example.net"',
    ]);
  });

  it('takes an Azure endpoint by its target, and names it when it has none', () => {
    // Prepare
    const azureEndpoint = (target: string | null): Json[] => [
      {
        name: 'app',
        trafficRoutingMethod: 'Priority',
        dnsConfig: { zoneName: 'example.com', relativeName: 'app' },
        endpoints: [
          {
            name: 'web',
            type: 'Microsoft.Network/trafficManagerProfiles/azureEndpoints',
            targetResourceId: '/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Web/sites/web',
            target,
          },
        ],
      },
    ];

    // Act
    const withTarget = valid(azureEndpoint('web.azurewebsites.net'));
    const without = problems(azureEndpoint(null));

    // Assess
    expect(withTarget.profiles[0]?.endpoints[0]).toMatchObject({
      type: 'external',
      target: 'web.azurewebsites.net',
    });
    expect(withTarget.notices.slice(1)).toEqual([
      'profiles[0] "app" endpoints[0] "web".type: is an Azure endpoint: it is probed and published as the external endpoint "web.azurewebsites.net" (its target), got "Microsoft.Network/trafficManagerProfiles/azureEndpoints"',
      'profiles[0] "app" endpoints[0] "web".targetResourceId: is ignored: the endpoint is its target, got "/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Web/sites/web"',
    ]);
    expect(without).toContain(
      'profiles[0] "app" endpoints[0] "web".type: is an Azure endpoint (a resource, "/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Web/sites/web"): give its host name as target (tm import azure --target RESOURCE_ID=HOST does it), got "Microsoft.Network/trafficManagerProfiles/azureEndpoints"',
    );
  });

  it('keeps unknown fields and values Azure does not have as errors', () => {
    // Prepare
    const profile = azShow();
    (profile.endpoints as Json[])[0]!.wieght = 5;
    profile.type = 'Microsoft.Network/dnsZones';
    profile.trafficViewEnrollmentStatus = 'Enabled';
    (profile.endpoints as Json[])[1]!.endpointLocation = 'Mars Central';
    (profile.endpoints as Json[])[1]!.alwaysServe = 'Sometimes';

    // Act
    const found = problems([profile]);

    // Assess
    expect(found).toEqual([
      'profiles[0] "shop" endpoints[0] "east".wieght: is not a known field; did you mean "weight"?, got 5',
      'profiles[0] "shop" endpoints[1] "west".alwaysServe: must be true or false (or Azure\'s "Enabled" / "Disabled"), got "Sometimes"',
      'profiles[0] "shop" endpoints[1] "west".endpointLocation: must be an AWS region name (e.g. "eu-west-1") or an Azure region name (e.g. "West Europe"), got "Mars Central"',
      'profiles[0] "shop".trafficViewEnrollmentStatus: Traffic View has no equivalent here (tm status and the status events show where traffic goes); leave it out or "Disabled", got "Enabled"',
      'profiles[0] "shop".type: is not a known field, got "Microsoft.Network/dnsZones"',
    ]);
  });
});

function subnetProfile(): Json {
  return {
    name: 'portal',
    trafficRoutingMethod: 'Subnet',
    dnsConfig: { zoneName: 'example.com', relativeName: 'portal' },
    endpoints: [
      {
        name: 'office',
        type: 'External',
        target: 'office.example.net',
        subnets: [{ first: '10.0.0.0', last: '10.0.1.255' }],
      },
      {
        name: 'lab',
        type: 'externalEndpoints',
        target: 'lab.example.net',
        subnets: [{ first: '10.1.0.0', scope: 24, last: null }],
      },
      {
        name: 'vpn',
        target: 'vpn.example.net',
        subnets: ['10.2.0.0/24', { first: '2001:db8::', scope: 48 }],
      },
      {
        name: 'rest',
        type: 'Microsoft.Network/trafficManagerProfiles/ExternalEndpoints',
        target: 'rest.example.net',
      },
    ],
  };
}
