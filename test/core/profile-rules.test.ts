import { describe, expect, it } from 'vitest';
import { parseDefinitions } from '../support/profile-api.js';

type Json = Record<string, unknown>;

/** One valid Priority profile that each row changes in one place. */
function shop(change: (profile: Json, endpoints: Json[], monitor: Json) => void = () => {}): Json[] {
  const endpoints: Json[] = [
    { name: 'east', target: 'east.shop.example.net' },
    { name: 'west', target: 'west.shop.example.net' },
  ];
  const monitor: Json = { protocol: 'HTTPS', path: '/health' };
  const profile: Json = {
    name: 'shop',
    trafficRoutingMethod: 'Priority',
    dnsConfig: { zoneName: 'example.com', relativeName: 'shop' },
    monitorConfig: monitor,
    endpoints,
  };
  change(profile, endpoints, monitor);
  return [profile];
}

function profileOf(method: string, endpoints: Json[], extra: Json = {}): Json {
  const name = method.toLowerCase();
  return {
    name,
    trafficRoutingMethod: method,
    dnsConfig: { zoneName: 'example.com', relativeName: name },
    endpoints,
    ...extra,
  };
}

/** A chain p0 → p1 → … → p(levels), each nesting the next. */
function chain(levels: number): Json[] {
  return Array.from({ length: levels + 1 }, (_, i) =>
    profileOf(
      'Priority',
      i < levels
        ? [{ name: 'next', type: 'nested', targetProfile: `p${i + 1}` }]
        : [{ name: 'leaf', target: 'leaf.example.net' }],
      {
        name: `p${i}`,
        dnsConfig: { zoneName: 'example.com', relativeName: `p${i}` },
      },
    ),
  );
}

const E = (path: (string | number)[]) => ['profiles', 0, 'endpoints', ...path];
const M = (field: string, ...rest: (string | number)[]) => ['profiles', 0, 'monitorConfig', field, ...rest];
const P = (...path: (string | number)[]) => ['profiles', 0, ...path];

describe('parseDefinitions accepts valid definitions', () => {
  it.each([
    { name: 'a minimal Priority profile', input: shop() },
    { name: 'the { profiles: [...] } wrapper', input: { profiles: shop() } },
    { name: 'a profile with no endpoints', input: [profileOf('Weighted', [])] },
    {
      name: 'an absolute zone name with capitals',
      input: shop((p) => (p.dnsConfig = { zoneName: 'Example.COM.', relativeName: 'Shop.EU' })),
    },
    { name: 'priority 1 and 1000', input: shop((_p, e) => ((e[0]!.priority = 1000), (e[1]!.priority = 1))) },
    {
      name: 'weight 1 and 255',
      input: [
        profileOf('Weighted', [
          { name: 'a', target: 'a.example.net', weight: 1 },
          { name: 'b', target: 'b.example.net', weight: 255 },
        ]),
      ],
    },
    {
      name: 'TTL 0 and the largest TTL',
      input: [
        profileOf('Priority', [], { dnsConfig: { zoneName: 'example.com', relativeName: 'a', ttl: 0 } }),
        profileOf('Weighted', [], {
          dnsConfig: { zoneName: 'example.com', relativeName: 'b', ttl: 2147483647 },
        }),
      ],
    },
    {
      name: 'a TCP check with a port',
      input: shop((_p, _e, m) => {
        delete m.path;
        m.protocol = 'TCP';
        m.port = 5432;
      }),
    },
    {
      name: 'timeout 5–9 with a 10 s interval',
      input: shop((_p, _e, m) => ((m.intervalInSeconds = 10), (m.timeoutInSeconds = 9))),
    },
    { name: 'timeout 5 and 10 with a 30 s interval', input: shop((_p, _e, m) => (m.timeoutInSeconds = 5)) },
    { name: 'tolerated 0 and 9', input: shop((_p, _e, m) => (m.toleratedNumberOfFailures = 0)) },
    {
      name: 'eight headers in the string form',
      input: shop(
        (_p, _e, m) => (m.customHeaders = Array.from({ length: 8 }, (_, i) => `x-h${i}:v`).join(', ')),
      ),
    },
    {
      name: 'a Host header without a wildcard',
      input: shop((_p, _e, m) => (m.customHeaders = [{ name: 'Host', value: 'shop.example.com' }])),
    },
    {
      name: 'eight status ranges in the string form',
      input: shop(
        (_p, _e, m) => (m.expectedStatusCodeRanges = '200, 201-202, 203, 204, 205, 206, 300-399, 599'),
      ),
    },
    {
      name: 'a sample window with Front Door defaults',
      input: shop((_p, _e, m) => (m.healthRule = { kind: 'sampleWindow' })),
    },
    {
      name: 'a sample window of 32 needing 32',
      input: shop(
        (_p, _e, m) =>
          (m.healthRule = { kind: 'sampleWindow', sampleSize: 32, successfulSamplesRequired: 32 }),
      ),
    },
    {
      name: 'the consecutive-failures rule named explicitly',
      input: shop((_p, _e, m) => (m.healthRule = { kind: 'consecutiveFailures' })),
    },
    {
      name: 'IPv4 and IPv6 mixed in MultiValue',
      input: [
        profileOf(
          'MultiValue',
          [
            { name: 'a', target: '192.0.2.1' },
            { name: 'b', target: '2001:db8::1' },
          ],
          { maxReturn: 8 },
        ),
      ],
    },
    {
      name: 'IPv6 targets only in Priority',
      input: [
        profileOf('Priority', [
          { name: 'a', target: '2001:db8::1' },
          { name: 'b', target: '2001:DB8:0:0::2' },
        ]),
      ],
    },
    {
      name: 'host names plus a nested endpoint',
      input: [
        profileOf('Priority', [
          { name: 'a', target: 'a.example.net' },
          { name: 'n', type: 'nested', targetProfile: 'weighted' },
        ]),
        profileOf('Weighted', [{ name: 'x', target: '192.0.2.1' }]),
      ],
    },
    {
      name: 'a nested endpoint with alwaysServe false',
      input: [
        profileOf('Priority', [{ name: 'n', type: 'nested', targetProfile: 'weighted', alwaysServe: false }]),
        profileOf('Weighted', []),
      ],
    },
    { name: 'nesting exactly 10 levels deep', input: chain(10) },
    {
      name: 'a child shared by two parents',
      input: [
        profileOf('Priority', [{ name: 'n', type: 'nested', targetProfile: 'weighted' }]),
        profileOf('Performance', [
          { name: 'n', type: 'nested', targetProfile: 'weighted', endpointLocation: 'eu-west-1' },
        ]),
        profileOf('Weighted', []),
      ],
    },
    {
      name: 'a country inside a mapped continent (most specific wins)',
      input: [
        profileOf('Geographic', [
          { name: 'eu', target: 'eu.example.net', geoMapping: ['GEO-EU'] },
          { name: 'de', target: 'de.example.net', geoMapping: ['DE', 'US-DC', 'world'] },
        ]),
      ],
    },
    {
      name: 'adjacent subnets and one fallback',
      input: [
        profileOf('Subnet', [
          { name: 'a', target: 'a.example.net', subnets: ['10.0.0.0/9'] },
          { name: 'b', target: 'b.example.net', subnets: ['10.128.0.0-10.255.255.255', '2001:db8::/48'] },
          { name: 'c', target: 'c.example.net', subnets: [] },
        ]),
      ],
    },
    {
      name: 'probe regions listed once each',
      input: shop((p) => (p.probeRegions = ['us-east-1', 'eu-west-1'])),
    },
  ])('$name', ({ input }) => {
    // Act
    const result = parseDefinitions(input);

    // Assess
    expect(result.ok ? [] : result.issues).toEqual([]);
  });
});

describe('parseDefinitions reports each broken rule where it is', () => {
  it.each([
    // The definitions and the profile
    { name: 'the definitions must be a list', input: { shop: {} }, path: [], rule: 'type' },
    {
      name: 'the wrapper has no other fields',
      input: { profiles: shop(), version: 2 },
      path: ['version'],
      rule: 'unknown-field',
    },
    { name: 'a profile must be an object', input: ['shop'], path: ['profiles', 0], rule: 'type' },
    {
      name: 'a profile name is letters, digits and -',
      input: shop((p) => (p.name = 'shop_eu')),
      path: P('name'),
      rule: 'format',
    },
    {
      name: 'a profile name is required',
      input: shop((p) => delete p.name),
      path: P('name'),
      rule: 'required',
    },
    {
      name: 'profile names are unique (case-insensitive)',
      input: [...shop(), profileOf('Weighted', [], { name: 'SHOP' })],
      path: ['profiles', 1, 'name'],
      rule: 'unique-name',
    },
    {
      name: 'profileStatus is Enabled or Disabled',
      input: shop((p) => (p.profileStatus = 'Off')),
      path: P('profileStatus'),
      rule: 'enum',
    },
    {
      name: 'the routing method is one of six',
      input: shop((p) => (p.trafficRoutingMethod = 'Failover')),
      path: P('trafficRoutingMethod'),
      rule: 'enum',
    },
    {
      name: 'unknown profile fields are errors',
      input: shop((p) => (p.ttl = 30)),
      path: P('ttl'),
      rule: 'unknown-field',
    },
    // dnsConfig
    {
      name: 'dnsConfig is required',
      input: shop((p) => delete p.dnsConfig),
      path: P('dnsConfig'),
      rule: 'required',
    },
    {
      name: 'the zone name is a DNS name',
      input: shop((p) => (p.dnsConfig = { zoneName: 'example..com', relativeName: 'shop' })),
      path: P('dnsConfig', 'zoneName'),
      rule: 'format',
    },
    {
      name: 'the relative name is DNS labels',
      input: shop((p) => (p.dnsConfig = { zoneName: 'example.com', relativeName: '-shop' })),
      path: P('dnsConfig', 'relativeName'),
      rule: 'format',
    },
    {
      name: 'the relative name is not the apex',
      input: shop((p) => (p.dnsConfig = { zoneName: 'example.com', relativeName: '@' })),
      path: P('dnsConfig', 'relativeName'),
      rule: 'format',
    },
    {
      name: 'the hosted zone id looks like Z…',
      input: shop(
        (p) => (p.dnsConfig = { zoneName: 'example.com', relativeName: 'shop', hostedZoneId: 'abc' }),
      ),
      path: P('dnsConfig', 'hostedZoneId'),
      rule: 'format',
    },
    {
      name: 'TTL is at least 0',
      input: shop((p) => (p.dnsConfig = { zoneName: 'example.com', relativeName: 'shop', ttl: -1 })),
      path: P('dnsConfig', 'ttl'),
      rule: 'range',
    },
    {
      name: 'TTL is at most 2147483647',
      input: shop((p) => (p.dnsConfig = { zoneName: 'example.com', relativeName: 'shop', ttl: 2147483648 })),
      path: P('dnsConfig', 'ttl'),
      rule: 'range',
    },
    {
      name: 'TTL is an integer',
      input: shop((p) => (p.dnsConfig = { zoneName: 'example.com', relativeName: 'shop', ttl: 1.5 })),
      path: P('dnsConfig', 'ttl'),
      rule: 'type',
    },
    {
      name: 'the full name is at most 253 characters',
      input: shop(
        (p) =>
          (p.dnsConfig = {
            zoneName: `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.com`,
            relativeName: `${'d'.repeat(63)}.${'e'.repeat(10)}`,
          }),
      ),
      path: P('dnsConfig', 'relativeName'),
      rule: 'fqdn-length',
    },
    {
      name: 'two profiles may not share a DNS name',
      input: [
        ...shop(),
        profileOf('Weighted', [], { dnsConfig: { zoneName: 'EXAMPLE.com.', relativeName: 'SHOP' } }),
      ],
      path: ['profiles', 1, 'dnsConfig', 'relativeName'],
      rule: 'unique-fqdn',
    },
    // maxReturn
    {
      name: 'maxReturn is only for MultiValue',
      input: shop((p) => (p.maxReturn = 2)),
      path: P('maxReturn'),
      rule: 'method-field',
    },
    {
      name: 'maxReturn is at most 8',
      input: [profileOf('MultiValue', [], { maxReturn: 9 })],
      path: P('maxReturn'),
      rule: 'range',
    },
    {
      name: 'maxReturn is at least 1',
      input: [profileOf('MultiValue', [], { maxReturn: 0 })],
      path: P('maxReturn'),
      rule: 'range',
    },
    // monitorConfig
    {
      name: 'monitorConfig is an object',
      input: shop((p) => (p.monitorConfig = 'HTTPS')),
      path: P('monitorConfig'),
      rule: 'type',
    },
    {
      name: 'the protocol is HTTP, HTTPS or TCP',
      input: shop((_p, _e, m) => (m.protocol = 'UDP')),
      path: M('protocol'),
      rule: 'enum',
    },
    {
      name: 'the port is 1–65535',
      input: shop((_p, _e, m) => (m.port = 65536)),
      path: M('port'),
      rule: 'range',
    },
    {
      name: 'TCP needs a port',
      input: shop((_p, _e, m) => {
        delete m.path;
        m.protocol = 'TCP';
      }),
      path: M('port'),
      rule: 'required',
    },
    {
      name: 'a path with TCP is an error',
      input: shop((_p, _e, m) => ((m.protocol = 'TCP'), (m.port = 22))),
      path: M('path'),
      rule: 'tcp-field',
    },
    {
      name: 'status ranges with TCP are an error',
      input: shop((_p, _e, m) => {
        delete m.path;
        Object.assign(m, { protocol: 'TCP', port: 22, expectedStatusCodeRanges: '200' });
      }),
      path: M('expectedStatusCodeRanges'),
      rule: 'tcp-field',
    },
    {
      name: 'a method with TCP is an error',
      input: shop((_p, _e, m) => {
        delete m.path;
        Object.assign(m, { protocol: 'TCP', port: 22, method: 'HEAD' });
      }),
      path: M('method'),
      rule: 'tcp-field',
    },
    {
      name: 'endpoint headers with TCP are an error',
      input: shop((_p, e, m) => {
        delete m.path;
        Object.assign(m, { protocol: 'TCP', port: 22 });
        e[0]!.customHeaders = 'x:1';
      }),
      path: E([0, 'customHeaders']),
      rule: 'tcp-field',
    },
    {
      name: 'the path starts with /',
      input: shop((_p, _e, m) => (m.path = 'health')),
      path: M('path'),
      rule: 'format',
    },
    {
      name: 'the path has no spaces',
      input: shop((_p, _e, m) => (m.path = '/a b')),
      path: M('path'),
      rule: 'format',
    },
    {
      name: 'the method is GET or HEAD',
      input: shop((_p, _e, m) => (m.method = 'POST')),
      path: M('method'),
      rule: 'enum',
    },
    {
      name: 'the interval is 10 or 30',
      input: shop((_p, _e, m) => (m.intervalInSeconds = 60)),
      path: M('intervalInSeconds'),
      rule: 'enum',
    },
    {
      name: 'timeout 10 is too long for a 10 s interval',
      input: shop((_p, _e, m) => ((m.intervalInSeconds = 10), (m.timeoutInSeconds = 10))),
      path: M('timeoutInSeconds'),
      rule: 'range',
    },
    {
      name: 'timeout 11 is too long for a 30 s interval',
      input: shop((_p, _e, m) => (m.timeoutInSeconds = 11)),
      path: M('timeoutInSeconds'),
      rule: 'range',
    },
    {
      name: 'timeout 4 is too short',
      input: shop((_p, _e, m) => (m.timeoutInSeconds = 4)),
      path: M('timeoutInSeconds'),
      rule: 'range',
    },
    {
      name: 'tolerated failures are at most 9',
      input: shop((_p, _e, m) => (m.toleratedNumberOfFailures = 10)),
      path: M('toleratedNumberOfFailures'),
      rule: 'range',
    },
    {
      name: 'tolerated failures are at least 0',
      input: shop((_p, _e, m) => (m.toleratedNumberOfFailures = -1)),
      path: M('toleratedNumberOfFailures'),
      rule: 'range',
    },
    {
      name: 'at most 8 profile headers',
      input: shop(
        (_p, _e, m) =>
          (m.customHeaders = Array.from({ length: 9 }, (_, i) => ({ name: `x-${i}`, value: 'v' }))),
      ),
      path: M('customHeaders'),
      rule: 'too-many',
    },
    {
      name: 'header names are RFC 7230 tokens',
      input: shop((_p, _e, m) => (m.customHeaders = [{ name: 'x probe', value: 'v' }])),
      path: M('customHeaders', 0, 'name'),
      rule: 'format',
    },
    {
      name: 'no * in a Host header value',
      input: shop((_p, _e, m) => (m.customHeaders = 'host:*.example.com')),
      path: M('customHeaders', 0),
      rule: 'host-wildcard',
    },
    {
      name: 'at most 8 status ranges',
      input: shop((_p, _e, m) => (m.expectedStatusCodeRanges = '200,201,202,203,204,205,206,207,208')),
      path: M('expectedStatusCodeRanges'),
      rule: 'too-many',
    },
    {
      name: 'status codes are 100–599',
      input: shop((_p, _e, m) => (m.expectedStatusCodeRanges = [{ min: 200, max: 600 }])),
      path: M('expectedStatusCodeRanges', 0, 'max'),
      rule: 'range',
    },
    {
      name: 'status ranges have min ≤ max',
      input: shop((_p, _e, m) => (m.expectedStatusCodeRanges = '299-200')),
      path: M('expectedStatusCodeRanges', 0),
      rule: 'order',
    },
    {
      name: 'the health rule kind is known',
      input: shop((_p, _e, m) => (m.healthRule = { kind: 'majority' })),
      path: M('healthRule', 'kind'),
      rule: 'enum',
    },
    {
      name: 'the sample size is at most 32',
      input: shop((_p, _e, m) => (m.healthRule = { kind: 'sampleWindow', sampleSize: 33 })),
      path: M('healthRule', 'sampleSize'),
      rule: 'range',
    },
    {
      name: 'required samples are at least 1',
      input: shop((_p, _e, m) => (m.healthRule = { kind: 'sampleWindow', successfulSamplesRequired: 0 })),
      path: M('healthRule', 'successfulSamplesRequired'),
      rule: 'range',
    },
    {
      name: 'required samples are at most the sample size',
      input: shop(
        (_p, _e, m) => (m.healthRule = { kind: 'sampleWindow', sampleSize: 3, successfulSamplesRequired: 4 }),
      ),
      path: M('healthRule', 'successfulSamplesRequired'),
      rule: 'sample-window',
    },
    {
      name: 'the default required samples (2) exceed a sample size of 1',
      input: shop((_p, _e, m) => (m.healthRule = { kind: 'sampleWindow', sampleSize: 1 })),
      path: M('healthRule', 'successfulSamplesRequired'),
      rule: 'sample-window',
    },
    {
      name: 'the consecutive-failures rule has no sample fields',
      input: shop((_p, _e, m) => (m.healthRule = { kind: 'consecutiveFailures', sampleSize: 4 })),
      path: M('healthRule', 'sampleSize'),
      rule: 'unknown-field',
    },
    {
      name: 'unknown monitor fields are errors',
      input: shop((_p, _e, m) => (m.intervalSeconds = 30)),
      path: M('intervalSeconds'),
      rule: 'unknown-field',
    },
    // probeRegions
    {
      name: 'probe regions are AWS regions',
      input: shop((p) => (p.probeRegions = ['us-east-1', 'mars-north-1'])),
      path: P('probeRegions', 1),
      rule: 'aws-region',
    },
    {
      name: 'probe regions are not empty',
      input: shop((p) => (p.probeRegions = [])),
      path: P('probeRegions'),
      rule: 'range',
    },
    {
      name: 'probe regions are unique',
      input: shop((p) => (p.probeRegions = ['eu-west-1', 'eu-west-1'])),
      path: P('probeRegions', 1),
      rule: 'unique',
    },
    // Endpoints
    {
      name: 'endpoints are required',
      input: shop((p) => delete p.endpoints),
      path: P('endpoints'),
      rule: 'required',
    },
    {
      name: 'an endpoint is an object',
      input: shop((p) => (p.endpoints = ['east'])),
      path: E([0]),
      rule: 'type',
    },
    {
      name: 'endpoint names are letters, digits and -',
      input: shop((_p, e) => (e[0]!.name = 'east 1')),
      path: E([0, 'name']),
      rule: 'format',
    },
    {
      name: 'endpoint names are unique in a profile',
      input: shop((_p, e) => (e[1]!.name = 'East')),
      path: E([1, 'name']),
      rule: 'unique-name',
    },
    {
      name: 'the endpoint type is external or nested',
      input: shop((_p, e) => (e[0]!.type = 'azure')),
      path: E([0, 'type']),
      rule: 'enum',
    },
    {
      name: 'a target is required',
      input: shop((_p, e) => delete e[0]!.target),
      path: E([0, 'target']),
      rule: 'required',
    },
    {
      name: 'a target is a host name or an IP address',
      input: shop((_p, e) => (e[0]!.target = 'east_1.example.net')),
      path: E([0, 'target']),
      rule: 'format',
    },
    {
      name: 'a target is not a malformed IPv4 address',
      input: shop((_p, e) => (e[0]!.target = '192.0.2.256')),
      path: E([0, 'target']),
      rule: 'format',
    },
    {
      name: 'endpointStatus is Enabled or Disabled',
      input: shop((_p, e) => (e[0]!.endpointStatus = 'Stopped')),
      path: E([0, 'endpointStatus']),
      rule: 'enum',
    },
    {
      name: 'alwaysServe is a boolean',
      input: shop((_p, e) => (e[0]!.alwaysServe = 'yes')),
      path: E([0, 'alwaysServe']),
      rule: 'type',
    },
    {
      name: 'priority is at least 1',
      input: shop((_p, e) => (e[0]!.priority = 0)),
      path: E([0, 'priority']),
      rule: 'range',
    },
    {
      name: 'priority is at most 1000',
      input: shop((_p, e) => (e[0]!.priority = 1001)),
      path: E([0, 'priority']),
      rule: 'range',
    },
    {
      name: 'priorities are unique',
      input: shop((_p, e) => ((e[0]!.priority = 5), (e[1]!.priority = 5))),
      path: E([1, 'priority']),
      rule: 'unique-priority',
    },
    {
      name: 'a default priority (list order) clashes with a given one',
      input: shop((_p, e) => (e[0]!.priority = 2)),
      path: E([1, 'priority']),
      rule: 'unique-priority',
    },
    {
      name: 'weight is at least 1',
      input: shop((_p, e) => (e[0]!.weight = 0)),
      path: E([0, 'weight']),
      rule: 'range',
    },
    {
      name: 'weight is at most 255',
      input: shop((_p, e) => (e[0]!.weight = 256)),
      path: E([0, 'weight']),
      rule: 'range',
    },
    {
      name: 'at most 8 endpoint headers',
      input: shop((_p, e) => (e[0]!.customHeaders = 'a:1,b:1,c:1,d:1,e:1,f:1,g:1,h:1,i:1')),
      path: E([0, 'customHeaders']),
      rule: 'too-many',
    },
    {
      name: 'no * in an endpoint Host header',
      input: shop((_p, e) => (e[0]!.customHeaders = [{ name: 'HOST', value: '*' }])),
      path: E([0, 'customHeaders', 0, 'value']),
      rule: 'host-wildcard',
    },
    {
      name: 'unknown endpoint fields are errors',
      input: shop((_p, e) => (e[0]!.wieght = 2)),
      path: E([0, 'wieght']),
      rule: 'unknown-field',
    },
    {
      name: 'a targetProfile needs type nested',
      input: shop((_p, e) => (e[0]!.targetProfile = 'x')),
      path: E([0, 'targetProfile']),
      rule: 'unknown-field',
    },
    // Addressing kinds
    {
      name: 'one addressing kind per profile: host names or IPs',
      input: shop((_p, e) => (e[1]!.target = '192.0.2.1')),
      path: E([1, 'target']),
      rule: 'addressing-kind',
    },
    {
      name: 'IPv4 and IPv6 do not mix outside MultiValue',
      input: [
        profileOf('Weighted', [
          { name: 'a', target: '192.0.2.1' },
          { name: 'b', target: '2001:db8::1' },
        ]),
      ],
      path: E([1, 'target']),
      rule: 'addressing-kind',
    },
    {
      name: 'MultiValue accepts IP addresses only',
      input: [
        profileOf('MultiValue', [
          { name: 'a', target: '192.0.2.1' },
          { name: 'b', target: 'b.example.net' },
        ]),
      ],
      path: E([1, 'target']),
      rule: 'addressing-kind',
    },
    // Routing-method fields
    {
      name: 'Performance needs endpointLocation',
      input: [profileOf('Performance', [{ name: 'a', target: 'a.example.net' }])],
      path: E([0, 'endpointLocation']),
      rule: 'required',
    },
    {
      name: 'endpointLocation is a real AWS region',
      input: [
        profileOf('Performance', [{ name: 'a', target: 'a.example.net', endpointLocation: 'europe-west1' }]),
      ],
      path: E([0, 'endpointLocation']),
      rule: 'aws-region',
    },
    {
      name: 'endpointLocation is only for Performance',
      input: shop((_p, e) => (e[0]!.endpointLocation = 'us-east-1')),
      path: E([0, 'endpointLocation']),
      rule: 'method-field',
    },
    {
      name: 'Geographic needs geoMapping',
      input: [profileOf('Geographic', [{ name: 'a', target: 'a.example.net' }])],
      path: E([0, 'geoMapping']),
      rule: 'required',
    },
    {
      name: 'Geographic needs a non-empty geoMapping',
      input: [profileOf('Geographic', [{ name: 'a', target: 'a.example.net', geoMapping: [] }])],
      path: E([0, 'geoMapping']),
      rule: 'required',
    },
    {
      name: 'geo codes are Route 53 codes',
      input: [profileOf('Geographic', [{ name: 'a', target: 'a.example.net', geoMapping: ['GEO-XX'] }])],
      path: E([0, 'geoMapping', 0]),
      rule: 'geo-code',
    },
    {
      name: 'a geo code maps to one endpoint only',
      input: [
        profileOf('Geographic', [
          { name: 'a', target: 'a.example.net', geoMapping: ['DE'] },
          { name: 'b', target: 'b.example.net', geoMapping: ['de'] },
        ]),
      ],
      path: E([1, 'geoMapping', 0]),
      rule: 'geo-unique',
    },
    {
      name: 'a geo code appears once in an endpoint',
      input: [
        profileOf('Geographic', [{ name: 'a', target: 'a.example.net', geoMapping: ['WORLD', 'WORLD'] }]),
      ],
      path: E([0, 'geoMapping', 1]),
      rule: 'geo-unique',
    },
    {
      name: 'geoMapping is only for Geographic',
      input: shop((_p, e) => (e[0]!.geoMapping = ['DE'])),
      path: E([0, 'geoMapping']),
      rule: 'method-field',
    },
    {
      name: 'subnets are CIDRs or ranges',
      input: [profileOf('Subnet', [{ name: 'a', target: 'a.example.net', subnets: ['10.0.0.0'] }])],
      path: E([0, 'subnets', 0]),
      rule: 'format',
    },
    {
      name: 'a range has first ≤ last',
      input: [
        profileOf('Subnet', [{ name: 'a', target: 'a.example.net', subnets: ['10.0.1.0-10.0.0.255'] }]),
      ],
      path: E([0, 'subnets', 0]),
      rule: 'order',
    },
    {
      name: 'subnets fit Route 53 (IPv4 up to /24)',
      input: [profileOf('Subnet', [{ name: 'a', target: 'a.example.net', subnets: ['192.0.2.0/25'] }])],
      path: E([0, 'subnets', 0]),
      rule: 'route53-cidr',
    },
    {
      name: 'no address maps to two endpoints',
      input: [
        profileOf('Subnet', [
          { name: 'a', target: 'a.example.net', subnets: ['10.0.0.0/8'] },
          { name: 'b', target: 'b.example.net', subnets: ['10.255.255.0-10.255.255.255'] },
        ]),
      ],
      path: E([1, 'subnets', 0]),
      rule: 'subnet-overlap',
    },
    {
      name: 'IPv6 subnets may not overlap either',
      input: [
        profileOf('Subnet', [
          { name: 'a', target: 'a.example.net', subnets: ['2001:db8::/32'] },
          { name: 'b', target: 'b.example.net', subnets: ['2001:db8:1::/48'] },
        ]),
      ],
      path: E([1, 'subnets', 0]),
      rule: 'subnet-overlap',
    },
    {
      name: 'subnets of one endpoint may not overlap',
      input: [
        profileOf('Subnet', [
          { name: 'a', target: 'a.example.net', subnets: ['10.0.0.0/16', '10.0.0.0/16'] },
        ]),
      ],
      path: E([0, 'subnets', 1]),
      rule: 'subnet-overlap',
    },
    {
      name: 'at most one fallback endpoint without subnets',
      input: [
        profileOf('Subnet', [
          { name: 'a', target: 'a.example.net' },
          { name: 'b', target: 'b.example.net', subnets: [] },
        ]),
      ],
      path: E([1, 'subnets']),
      rule: 'subnet-fallback',
    },
    {
      name: 'subnets are only for Subnet',
      input: shop((_p, e) => (e[0]!.subnets = ['10.0.0.0/8'])),
      path: E([0, 'subnets']),
      rule: 'method-field',
    },
    // Nesting
    {
      name: 'a nested endpoint names an existing profile',
      input: shop((_p, e) => e.push({ name: 'eu', type: 'nested', targetProfile: 'shop-eu' })),
      path: E([2, 'targetProfile']),
      rule: 'nested-target',
    },
    {
      name: 'a nested endpoint needs a targetProfile',
      input: shop((_p, e) => e.push({ name: 'eu', type: 'nested' })),
      path: E([2, 'targetProfile']),
      rule: 'required',
    },
    {
      name: 'a nested endpoint has no target',
      input: [
        profileOf('Priority', [
          { name: 'n', type: 'nested', targetProfile: 'weighted', target: 'x.example.net' },
        ]),
        profileOf('Weighted', []),
      ],
      path: E([0, 'target']),
      rule: 'unknown-field',
    },
    {
      name: 'a profile may not nest itself',
      input: shop((_p, e) => e.push({ name: 'self', type: 'nested', targetProfile: 'shop' })),
      path: E([2, 'targetProfile']),
      rule: 'nested-cycle',
    },
    {
      name: 'nesting never loops',
      input: [
        profileOf('Priority', [{ name: 'n', type: 'nested', targetProfile: 'weighted' }]),
        profileOf('Weighted', [{ name: 'n', type: 'nested', targetProfile: 'priority' }]),
      ],
      path: ['profiles', 1, 'endpoints', 0, 'targetProfile'],
      rule: 'nested-cycle',
    },
    {
      name: 'nesting goes at most 10 levels deep',
      input: chain(11),
      path: E([0, 'targetProfile']),
      rule: 'nested-depth',
    },
    {
      name: 'a MultiValue profile cannot be a parent',
      input: [
        profileOf('MultiValue', [{ name: 'n', type: 'nested', targetProfile: 'weighted' }]),
        profileOf('Weighted', []),
      ],
      path: E([0, 'type']),
      rule: 'nested-parent-multivalue',
    },
    {
      name: 'no alwaysServe on nested endpoints',
      input: [
        profileOf('Priority', [{ name: 'n', type: 'nested', targetProfile: 'weighted', alwaysServe: true }]),
        profileOf('Weighted', []),
      ],
      path: E([0, 'alwaysServe']),
      rule: 'nested-always-serve',
    },
    {
      name: 'minChildEndpoints is at least 1',
      input: [
        profileOf('Priority', [
          { name: 'n', type: 'nested', targetProfile: 'weighted', minChildEndpoints: 0 },
        ]),
        profileOf('Weighted', []),
      ],
      path: E([0, 'minChildEndpoints']),
      rule: 'range',
    },
    {
      name: 'minChildEndpointsIPv6 is at least 1',
      input: [
        profileOf('Priority', [
          { name: 'n', type: 'nested', targetProfile: 'weighted', minChildEndpointsIPv6: 0 },
        ]),
        profileOf('Weighted', []),
      ],
      path: E([0, 'minChildEndpointsIPv6']),
      rule: 'range',
    },
  ])('$name', ({ input, path, rule }) => {
    // Act
    const result = parseDefinitions(input);

    // Assess
    expect(result.ok).toBe(false);
    const issues = result.ok ? [] : result.issues;
    expect(issues.map((issue) => ({ path: issue.path, rule: issue.rule }))).toEqual([{ path, rule }]);
  });
});

describe('parseDefinitions collects every problem in one run', () => {
  it('reports schema and cross-field problems of several profiles together, in document order', () => {
    // Prepare
    const input = [
      ...shop((_p, e, m) => {
        m.timeoutInSeconds = 11;
        e[1]!.priority = 1;
      }),
      profileOf('Geographic', [{ name: 'a', target: 'a.example.net', weight: 0 }]),
    ];

    // Act
    const result = parseDefinitions(input);

    // Assess
    expect(result.ok ? [] : result.issues.map((issue) => `${issue.path.join('.')} ${issue.rule}`)).toEqual([
      'profiles.0.monitorConfig.timeoutInSeconds range',
      'profiles.0.endpoints.1.priority unique-priority',
      'profiles.1.endpoints.0.weight range',
      'profiles.1.endpoints.0.geoMapping required',
    ]);
  });

  it('reports a too-deep chain once, at its top', () => {
    // Act
    const result = parseDefinitions(chain(12));

    // Assess
    const issues = result.ok ? [] : result.issues;
    expect(issues).toHaveLength(1);
    expect(issues[0]?.message).toBe(
      'must not nest more than 10 levels deep: p0 → p1 → p2 → p3 → p4 → p5 → p6 → p7 → p8 → p9 → p10 → p11 → p12 is 12 levels',
    );
  });

  it('names the loop of a nesting cycle', () => {
    // Prepare
    const input = [
      profileOf('Priority', [{ name: 'n', type: 'nested', targetProfile: 'weighted' }]),
      profileOf('Weighted', [{ name: 'n', type: 'nested', targetProfile: 'subnet' }]),
      profileOf('Subnet', [{ name: 'n', type: 'nested', targetProfile: 'priority' }]),
    ];

    // Act
    const result = parseDefinitions(input);

    // Assess
    expect(result.ok ? [] : result.issues.map((issue) => issue.message)).toEqual([
      'must not form a nesting cycle: priority → weighted → subnet → priority',
    ]);
  });

  it('suggests the profile a nested endpoint meant when only the case differs', () => {
    // Act
    const result = parseDefinitions([
      profileOf('Priority', [{ name: 'n', type: 'nested', targetProfile: 'Weighted' }]),
      profileOf('Weighted', []),
    ]);

    // Assess
    expect(result.ok ? [] : result.issues.map((issue) => issue.message)).toEqual([
      'must name a profile of these definitions; did you mean "weighted"?',
    ]);
  });
});
