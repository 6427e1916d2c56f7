/** Geographic profiles: every endpoint maps at least one location, and each location is mapped once. */
import { seenBefore, type EndpointRules, type EndpointScope } from './report.js';

export function geographicRules(scope: EndpointScope): EndpointRules {
  const { ref, at, report } = scope;
  const geoCodes = new Map<string, { endpoint: number; entry: number }>();
  return {
    endpoint(raw, index) {
      if (scope.method !== 'Geographic') return;
      if (raw.geoMapping === undefined || (Array.isArray(raw.geoMapping) && raw.geoMapping.length === 0)) {
        report(
          at(index, 'geoMapping'),
          'required',
          raw.geoMapping,
          'must map at least one location with trafficRoutingMethod Geographic',
        );
      }
      for (const [entry, code] of (Array.isArray(raw.geoMapping) ? raw.geoMapping : []).entries()) {
        if (typeof code !== 'string') continue;
        const key = code.toUpperCase();
        const first = seenBefore(geoCodes, key, { endpoint: index, entry });
        if (first === undefined) continue;
        const owner =
          first.endpoint === index ? `geoMapping[${first.entry}] of this endpoint` : ref(first.endpoint);
        report(
          at(index, 'geoMapping', entry),
          'geo-unique',
          code,
          `must be mapped by one endpoint only: ${owner} maps ${key} already`,
        );
      }
    },
  };
}
