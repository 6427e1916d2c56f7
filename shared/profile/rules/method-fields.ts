/**
 * Routing-method fields: each is required by its method (Performance: endpointLocation) and an
 * error with any other method — a sign of the wrong method. Geographic and Subnet profiles'
 * own rules are in geographic.ts and subnets.ts.
 */
import type { RoutingMethod } from '../types.js';
import type { EndpointRules, EndpointScope } from './report.js';

const FIELD_METHOD = {
  endpointLocation: 'Performance',
  geoMapping: 'Geographic',
  subnets: 'Subnet',
} as const satisfies Record<string, RoutingMethod>;

export function methodFieldRules(scope: EndpointScope): EndpointRules {
  const { method, at, report } = scope;
  return {
    endpoint(raw, index) {
      if (method === undefined) return;
      if (method === 'Performance' && raw.endpointLocation === undefined) {
        report(
          at(index, 'endpointLocation'),
          'required',
          undefined,
          'is required with trafficRoutingMethod Performance',
        );
      }
      for (const [field, owner] of Object.entries(FIELD_METHOD)) {
        if (method !== owner && raw[field] !== undefined) {
          report(
            at(index, field),
            'method-field',
            raw[field],
            `is only allowed with trafficRoutingMethod ${owner}`,
          );
        }
      }
    },
  };
}
