/**
 * Subnet profiles: at most one fallback endpoint (no subnets), and no client address maps to
 * two endpoints (nor twice to one).
 */
import { parseSubnet, type SubnetParse } from '../subnet.js';
import type { EndpointRules, EndpointScope } from './report.js';

/** A parsed range, and which entry of which endpoint wrote it. */
type SubnetOwner = Extract<SubnetParse, { ok: true }> & {
  readonly endpoint: number;
  readonly subnet: number;
  readonly source: string;
};

export function subnetRules(scope: EndpointScope): EndpointRules {
  const { ref, at, report } = scope;
  const subnets: SubnetOwner[] = [];
  let fallback: number | undefined;
  return {
    endpoint(raw, index) {
      if (scope.method !== 'Subnet') return;
      if (raw.subnets === undefined || (Array.isArray(raw.subnets) && raw.subnets.length === 0)) {
        if (fallback === undefined) fallback = index;
        else {
          report(
            at(index, 'subnets'),
            'subnet-fallback',
            raw.subnets,
            `must list client ranges: only one endpoint may be the fallback (no subnets), and ${ref(fallback)} already is`,
          );
        }
      }
      for (const [subnet, source] of (Array.isArray(raw.subnets) ? raw.subnets : []).entries()) {
        if (typeof source !== 'string') continue;
        const parsed = parseSubnet(source);
        if (parsed.ok) subnets.push({ ...parsed, endpoint: index, subnet, source });
      }
    },
    finish: () => checkOverlaps(subnets, scope),
  };
}

/** A sweep over ranges sorted by start reports each range that begins inside an earlier-starting one. */
function checkOverlaps(subnets: SubnetOwner[], { ref, at, report }: EndpointScope): void {
  for (const family of ['ipv4', 'ipv6'] as const) {
    const sorted = subnets
      .filter((s) => s.family === family)
      .sort((a, b) =>
        a.first < b.first ? -1 : a.first > b.first ? 1 : a.endpoint - b.endpoint || a.subnet - b.subnet,
      );
    let widest: SubnetOwner | undefined;
    for (const range of sorted) {
      if (widest !== undefined && range.first <= widest.last) {
        const owner = widest.endpoint === range.endpoint ? 'this endpoint' : ref(widest.endpoint);
        report(
          at(range.endpoint, 'subnets', range.subnet),
          'subnet-overlap',
          range.source,
          `must not overlap ${JSON.stringify(widest.source)} of ${owner}: an address maps to one endpoint only`,
        );
      }
      if (widest === undefined || range.last > widest.last) widest = range;
    }
  }
}
