/**
 * `cdk synth`'s warning (never an error) when static failover needs more Route 53 health checks
 * than the account's default quota of 200: the structure the evaluator will create, counted by
 * the core (footprintOf) and worded by it (quotaWarning), so `tm validate` says the same.
 */
import type { Profile } from '../../shared/profile/types.js';
import { footprintOf, quotaWarning } from '../../shared/static-failover/cost.js';
import { planStaticFailover } from '../../shared/static-failover/plan.js';

export function staticFailoverWarning(
  profiles: readonly Profile[],
  deploymentName: string,
  defaultProbeRegions: readonly string[],
): string | undefined {
  const on = profiles.filter((profile) => profile.staticFailover);
  if (on.length === 0) return undefined;
  const structure = planStaticFailover(on, { deployment: deploymentName, defaultProbeRegions });
  return quotaWarning(footprintOf(structure));
}
