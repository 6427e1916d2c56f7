/**
 * Example profiles: every routing method, and a nested pair (a Geographic parent whose
 * Europe endpoint is a Priority child — the recommended way to get failover with
 * geographic routing). Used by `npm start` fallbacks, `cdk.json` and the CDK tests.
 * Targets use documentation addresses (RFC 5737 / RFC 3849) and `*.example.net` names.
 * Outside this repository, import the helper with `import { defineProfiles } from 'traffic-manager'`.
 */
import { defineProfiles } from '../shared/profile/define.js';

const zone = { zoneName: 'example.com', hostedZoneId: 'Z00000000000000000001' };

export default defineProfiles([
  {
    // Failover: east serves while healthy, west takes over when east is Degraded.
    name: 'shop',
    trafficRoutingMethod: 'Priority',
    dnsConfig: { ...zone, relativeName: 'shop', ttl: 30 },
    monitorConfig: {
      protocol: 'HTTPS',
      path: '/health',
      intervalInSeconds: 30,
      timeoutInSeconds: 10,
      toleratedNumberOfFailures: 3,
      customHeaders: [{ name: 'x-probe', value: 'traffic-manager' }],
      expectedStatusCodeRanges: '200-299',
    },
    endpoints: [
      { name: 'east', target: 'east.shop.example.net', priority: 1 },
      { name: 'west', target: 'west.shop.example.net', priority: 2 },
      { name: 'maintenance', target: 'sorry.shop.example.net', priority: 3, endpointStatus: 'Disabled' },
    ],
  },
  {
    // Spread by weight; a sample window rule (2 of the last 4 checks) tolerates a flaky backend.
    name: 'api',
    trafficRoutingMethod: 'Weighted',
    dnsConfig: { ...zone, relativeName: 'api', ttl: 60 },
    monitorConfig: {
      protocol: 'HTTP',
      port: 8080,
      path: '/healthz',
      method: 'HEAD',
      healthRule: { kind: 'sampleWindow', sampleSize: 4, successfulSamplesRequired: 2 },
    },
    probeRegions: ['us-east-1', 'eu-west-1', 'ap-southeast-1'],
    endpoints: [
      { name: 'blue', target: '192.0.2.10', weight: 3 },
      { name: 'green', target: '192.0.2.20', weight: 1 },
      { name: 'canary', target: '198.51.100.30', weight: 1, customHeaders: 'x-canary:true' },
    ],
  },
  {
    // Lowest latency wins; a fast interval (10 s, timeout at most 9 s).
    name: 'media',
    trafficRoutingMethod: 'Performance',
    dnsConfig: { ...zone, relativeName: 'media' },
    monitorConfig: {
      protocol: 'HTTPS',
      path: '/ping',
      intervalInSeconds: 10,
      timeoutInSeconds: 5,
      toleratedNumberOfFailures: 2,
    },
    endpoints: [
      { name: 'virginia', target: 'use1.media.example.net', endpointLocation: 'us-east-1' },
      { name: 'ireland', target: 'euw1.media.example.net', endpointLocation: 'eu-west-1' },
      { name: 'singapore', target: 'apse1.media.example.net', endpointLocation: 'ap-southeast-1' },
    ],
  },
  {
    // Geographic: each location maps to one endpoint; Europe fails over inside the nested child.
    name: 'www',
    trafficRoutingMethod: 'Geographic',
    dnsConfig: { ...zone, relativeName: 'www' },
    monitorConfig: { protocol: 'HTTPS', path: '/health' },
    endpoints: [
      { name: 'americas', target: 'americas.www.example.net', geoMapping: ['GEO-NA', 'GEO-SA'] },
      { name: 'california', target: 'california.www.example.net', geoMapping: ['US-CA'] },
      {
        name: 'europe',
        type: 'nested',
        targetProfile: 'www-eu',
        minChildEndpoints: 1,
        geoMapping: ['GEO-EU'],
      },
      { name: 'rest', target: 'global.www.example.net', geoMapping: ['WORLD'] },
    ],
  },
  {
    // The nested child of www: Frankfurt first, Dublin when Frankfurt is Degraded.
    name: 'www-eu',
    trafficRoutingMethod: 'Priority',
    dnsConfig: { ...zone, relativeName: 'www-eu' },
    monitorConfig: { protocol: 'HTTPS', path: '/health', toleratedNumberOfFailures: 2 },
    endpoints: [
      { name: 'frankfurt', target: 'fra.www.example.net' },
      { name: 'dublin', target: 'dub.www.example.net' },
    ],
  },
  {
    // Up to 3 healthy addresses per answer, IPv4 and IPv6 mixed; a TCP check on 443.
    name: 'edge',
    trafficRoutingMethod: 'MultiValue',
    maxReturn: 3,
    dnsConfig: { ...zone, relativeName: 'edge', ttl: 20 },
    monitorConfig: { protocol: 'TCP', port: 443, toleratedNumberOfFailures: 1 },
    endpoints: [
      { name: 'edge-a', target: '203.0.113.10' },
      { name: 'edge-b', target: '203.0.113.11' },
      { name: 'edge-c', target: '2001:db8::10' },
      { name: 'edge-d', target: '2001:db8::11' },
      { name: 'edge-e', target: '203.0.113.12', alwaysServe: true },
    ],
  },
  {
    // By client address: the office and partner ranges get their own endpoints, everyone else the fallback.
    name: 'portal',
    trafficRoutingMethod: 'Subnet',
    dnsConfig: { ...zone, relativeName: 'portal' },
    monitorConfig: { protocol: 'HTTPS', path: '/status', expectedStatusCodeRanges: '200-299, 301-302' },
    endpoints: [
      {
        name: 'office',
        target: 'office.portal.example.net',
        subnets: ['198.51.100.0/24', '2001:db8:100::/48'],
      },
      { name: 'partners', target: 'partners.portal.example.net', subnets: ['203.0.112.0-203.0.113.255'] },
      { name: 'public', target: 'public.portal.example.net' },
    ],
  },
]);
