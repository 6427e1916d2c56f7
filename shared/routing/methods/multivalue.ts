/**
 * MultiValue: multivalue-answer records for the served endpoints. Route 53 answers with up to
 * 8 of a name's healthy multivalue records, so `maxReturn` is honoured by publishing at most
 * `maxReturn` records per record type, the first served ones by priority. Every answer then
 * has at most `maxReturn` values; the endpoints past `maxReturn` are standbys that enter
 * the answer when a published one fails, rather than being rotated in at random.
 */
import { servedWithFailover } from '../eligibility.js';
import { recordOf, type RoutingMethodPlanner } from '../method.js';
import type { RecordSet } from '../../zone/record-set.js';

/** SPEC §5: "up to maxReturn records (default 2)". */
export const DEFAULT_MAX_RETURN = 2;

export const planMultiValue: RoutingMethodPlanner = ({ profile, endpoints, answersOf }) => {
  const maxReturn = profile.maxReturn ?? DEFAULT_MAX_RETURN;
  const perType = new Map<string, number>();
  const records: RecordSet[] = [];
  for (const { endpoint } of servedWithFailover(endpoints)) {
    for (const answer of answersOf(endpoint)) {
      const count = perType.get(answer.type) ?? 0;
      if (count >= maxReturn) continue;
      perType.set(answer.type, count + 1);
      records.push(recordOf(profile, answer, { setIdentifier: endpoint.name, multiValueAnswer: true }));
    }
  }
  return records;
};
