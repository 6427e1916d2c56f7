import { describe, expect, it } from 'vitest';
import { parseDefinitions } from '../support/profile-api.js';
import { profileDefinition } from '../../shared/profile/profile-definition.js';

describe('profileDefinition: one profile in the definitions format', () => {
  it('a Priority profile at <name>.example.com with an HTTP /health monitor on port 80, which validates', () => {
    const built = profileDefinition({ name: 'shop', endpoints: [{ name: 'east', target: '192.0.2.10' }] });
    expect(built).toEqual({
      name: 'shop',
      trafficRoutingMethod: 'Priority',
      dnsConfig: { zoneName: 'example.com', relativeName: 'shop' },
      monitorConfig: { protocol: 'HTTP', port: 80, path: '/health' },
      endpoints: [{ name: 'east', target: '192.0.2.10' }],
    });
    const parsed = parseDefinitions([built]);
    expect(parsed.ok && parsed.profiles[0]?.dnsConfig.fqdn).toBe('shop.example.com');
  });

  it('dnsConfig and monitorConfig merge field by field; other fields replace', () => {
    const built = profileDefinition({
      name: 'api',
      trafficRoutingMethod: 'Weighted',
      dnsConfig: { hostedZoneId: 'Z00000000000000000001', ttl: 5 },
      monitorConfig: { port: 8080, intervalInSeconds: 30 },
    });
    expect(built.trafficRoutingMethod).toBe('Weighted');
    expect(built.endpoints).toEqual([]);
    expect(built.dnsConfig).toEqual({
      zoneName: 'example.com',
      relativeName: 'api',
      hostedZoneId: 'Z00000000000000000001',
      ttl: 5,
    });
    expect(built.monitorConfig).toEqual({
      protocol: 'HTTP',
      port: 8080,
      path: '/health',
      intervalInSeconds: 30,
    });
  });
});
