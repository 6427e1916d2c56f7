/** Priority: one simple record to the first served endpoint by priority (SPEC §5). */
import { servedWithFailover } from '../eligibility.js';
import { recordOf, type RoutingMethodPlanner } from '../method.js';

export const planPriority: RoutingMethodPlanner = ({ profile, endpoints, answersOf }) => {
  for (const { endpoint } of servedWithFailover(endpoints)) {
    const answers = answersOf(endpoint);
    if (answers.length > 0) return answers.map((answer) => recordOf(profile, answer, {}));
  }
  return [];
};
