/**
 * What `tm plan` and `tm validate` say about static failover (docs/adr/0011-static-failover.md,
 * docs/cli.md): per profile, the health checks, alarms and metrics its structure creates and
 * their monthly price (the core's footprintOf / monthlyPriceOf), and the static path's worst
 * cases (staticFailoverTime) beside today's; for a profile with `staticFailover: false`, what it
 * gives up; the deployment's total, and the quota warning past 200 health checks. Probe regions
 * as the other figures assume them (those of `tm local` and the example deployment).
 */
import { withDescendants } from '../../shared/evaluation/triggers.js';
import { staticFailoverTime } from '../../shared/monitor/failover-time.js';
import type { Profile } from '../../shared/profile/types.js';
import {
  footprintOf,
  monthlyPriceOf,
  quotaWarning,
  type StaticFootprint,
} from '../../shared/static-failover/cost.js';
import { createAddressing } from '../../shared/routing/addressing.js';
import { failsOver } from '../../shared/routing/failover-methods.js';
import { mixedRecordTypes, planStaticFailover } from '../../shared/static-failover/plan.js';
import { CheckRole, EVALUATOR_METRIC, type StaticStructure } from '../../shared/static-failover/types.js';
import { DEFAULT_DEPLOYMENT_NAME } from '../cdk/names.js';
import { DEFAULT_LOCAL_REGIONS } from '../local/regions.js';

const OPTIONS = { deployment: DEFAULT_DEPLOYMENT_NAME, defaultProbeRegions: DEFAULT_LOCAL_REGIONS };

const STATIC_OFF =
  'static failover off: fails over only through Route 53’s control plane (record changes) made by the evaluator in the home region — while either is down, DNS keeps its last answers';

/** A profile's lines, `indent` before each. */
export function staticFailoverLines(
  profile: Profile,
  profiles: readonly Profile[],
  indent: string,
): string[] {
  if (!profile.staticFailover) return [`${indent}${STATIC_OFF}`];
  const closure = closureOf(profile, profiles);
  if (closure.length === 1 && !failsOver(profile.trafficRoutingMethod))
    return [`${indent}static failover: nothing to create (${profile.trafficRoutingMethod} never fails over)`];
  const footprint = footprintOf(withoutGuard(planStaticFailover(closure, OPTIONS)));
  const nested = closure.filter((p) => p !== profile).map((p) => p.name);
  const through = nested.length === 0 ? '' : ` (with nested ${nested.join(', ')})`;
  const mixed = mixedRecordTypes(profile, createAddressing(closure));
  if (mixed !== undefined)
    return [
      `${indent}static failover: no switch at its name — its endpoints answer different record types (${mixed}), and Route 53 cannot alias a type today's records may not hold: it fails over through today's path only (its _static tree${through} serves parents that nest it: ${describeFootprint(footprint)})`,
    ];
  const lines = [`${indent}static failover${through}: ${describeFootprint(footprint)}`];
  if (!failsOver(profile.trafficRoutingMethod)) return lines;
  const monitor = profile.monitorConfig;
  const ttl = profile.dnsConfig.ttl;
  const recovery = monitor.requiredSuccessesToRecover;
  return [
    ...lines,
    `${indent}static path (home region or Route 53 API down): users move away within ${staticFailoverTime(monitor, ttl, 'failing', recovery).formula}`,
    `${indent}static path: they come back within ${staticFailoverTime(monitor, ttl, 'recovering', recovery).formula}`,
  ];
}

export const STATIC_HEADING =
  'Static failover (Route 53 health checks fed by the probe regions’ votes: failover without the home region or Route 53’s control plane):';

/** `tm validate`'s section: per profile its name and lines, then the total. */
export function staticFailoverSection(profiles: readonly Profile[]): string[] {
  return [
    ...profiles.flatMap((profile) => [profile.name, ...staticFailoverLines(profile, profiles, '  ')]),
    ...staticFailoverTotal(profiles),
  ];
}

/** The deployment's total (shared targets and the guard counted once), or nothing when no profile has it on. */
export function staticFailoverTotal(profiles: readonly Profile[]): string[] {
  const on = profiles.filter((profile) => profile.staticFailover);
  if (on.length === 0) return [];
  const footprint = footprintOf(planStaticFailover(on, OPTIONS));
  return [
    `Static failover in total (${DEFAULT_LOCAL_REGIONS.length} probe regions, shared targets and the evaluator guard counted once): ${describeFootprint(footprint)}`,
  ];
}

/** The quota warning (`warning: …`), or nothing within the default 200 health checks. */
export function staticFailoverWarnings(profiles: readonly Profile[]): string[] {
  const on = profiles.filter((profile) => profile.staticFailover);
  if (on.length === 0) return [];
  const warning = quotaWarning(footprintOf(planStaticFailover(on, OPTIONS)));
  return warning === undefined ? [] : [`warning: ${warning}`];
}

function describeFootprint(footprint: StaticFootprint): string {
  const price = monthlyPriceOf(footprint);
  const count = (n: number, one: string, many: string) =>
    `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
  return (
    `${count(footprint.healthChecks, 'health check', 'health checks')}, ${count(footprint.alarms, 'alarm', 'alarms')}, ` +
    `${count(footprint.metrics, 'metric', 'metrics')}, ${count(footprint.putMetricDataRequests, 'PutMetricData request', 'PutMetricData requests')} — ` +
    `$${price.total.toFixed(2)} a month (checks $${price.healthChecks.toFixed(2)}, alarms $${price.alarms.toFixed(2)}, ` +
    `metrics $${price.metrics.toFixed(2)}, requests $${price.requests.toFixed(2)})`
  );
}

/** The profile and the profiles with static failover its nested endpoints reach (their structure is part of its answers). */
function closureOf(profile: Profile, profiles: readonly Profile[]): Profile[] {
  const on = profiles.filter((p) => p.staticFailover);
  const reached = withDescendants(on, new Set([profile.name]));
  return on.filter((p) => reached.has(p.name));
}

/** A profile's own part: without the deployment's guard (one per deployment, in the total). */
function withoutGuard(structure: StaticStructure): StaticStructure {
  const guard = new Set<string>([CheckRole.Guard, CheckRole.GuardRegion]);
  return {
    ...structure,
    metrics: structure.metrics.filter((m) => m.metricName !== EVALUATOR_METRIC),
    alarms: structure.alarms.filter((a) => a.metricName !== EVALUATOR_METRIC),
    healthChecks: structure.healthChecks.filter((c) => !guard.has(c.role)),
  };
}
