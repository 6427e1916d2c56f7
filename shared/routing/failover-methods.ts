/**
 * Which routing methods fail over (SPEC §5): Priority, Weighted, Performance and MultiValue
 * stop answering with a Degraded endpoint; Geographic and Subnet map each location or subnet
 * to exactly one endpoint and keep answering with it, Degraded or not (nested profiles give
 * them failover).
 */
import type { RoutingMethod } from '../profile/types.js';

const WITHOUT_FAILOVER: ReadonlySet<RoutingMethod> = new Set(['Geographic', 'Subnet']);

export function failsOver(method: RoutingMethod): boolean {
  return !WITHOUT_FAILOVER.has(method);
}
