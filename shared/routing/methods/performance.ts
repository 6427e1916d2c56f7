/**
 * Performance: one latency record per served endpoint (Region = endpointLocation). Route 53
 * takes one latency record per region for a name and type, so when several served endpoints
 * share a region the first by priority answers for it; the next one takes over when it fails.
 */
import { servedWithFailover } from '../eligibility.js';
import { recordOf, type RoutingMethodPlanner } from '../method.js';
import type { RecordSet } from '../../zone/record-set.js';

export const planPerformance: RoutingMethodPlanner = ({ profile, endpoints, answersOf }) => {
  const records: RecordSet[] = [];
  const taken = new Set<string>();
  for (const { endpoint } of servedWithFailover(endpoints)) {
    const region = endpoint.endpointLocation;
    if (region === undefined) continue;
    for (const answer of answersOf(endpoint)) {
      const slot = `${region}|${answer.type}`;
      if (taken.has(slot)) continue;
      taken.add(slot);
      records.push(recordOf(profile, answer, { setIdentifier: endpoint.name, region }));
    }
  }
  return records;
};
