/** Weighted: one weighted record per served endpoint; Route 53 picks in proportion to weight (SPEC §5). */
import { servedWithFailover } from '../eligibility.js';
import { recordOf, type RoutingMethodPlanner } from '../method.js';

export const planWeighted: RoutingMethodPlanner = ({ profile, endpoints, answersOf }) =>
  servedWithFailover(endpoints).flatMap(({ endpoint }) =>
    answersOf(endpoint).map((answer) =>
      recordOf(profile, answer, { setIdentifier: endpoint.name, weight: endpoint.weight }),
    ),
  );
