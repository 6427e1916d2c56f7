/**
 * Profiles → the static-failover structure (docs/adr/0011-static-failover.md). Pure and
 * deterministic; it depends on configuration only (definitions and runtime controls), never
 * on health, so it changes on config change and the data plane does the rest.
 */
import { endpointVerdictKey } from '../probe/target.js';
import type { Endpoint, Profile } from '../profile/types.js';
import { createAddressing, type Addressing, type Answer } from '../routing/addressing.js';
import { byPriority } from '../routing/eligibility.js';
import { failsOver } from '../routing/failover-methods.js';
import { childrenFirst } from '../status/nested.js';
import type { RecordType } from '../zone/record-set.js';
import { createChecksRegistry, distinctRegions, type ChecksRegistry } from './checks.js';
import { staticNameOf } from './identity.js';
import { hasVote, staticRecordsOf, switchRecordsOf, type StaticEndpoint } from './records.js';
import type { StaticRecord, StaticStructure } from './types.js';

export interface StaticPlanOptions {
  /** The deployment's name: a dimension of every metric and part of every id. */
  readonly deployment: string;
  /** Probe regions of profiles without `probeRegions`. */
  readonly defaultProbeRegions: readonly string[];
}

export function planStaticFailover(
  profiles: readonly Profile[],
  options: StaticPlanOptions,
): StaticStructure {
  const registry = createChecksRegistry(options.deployment);
  const addressing = createAddressing(profiles);
  const serves = servingProfiles(profiles);
  const byName = new Map(profiles.map((p) => [p.name, p]));
  /** Record types at each planned profile's `_static` root. */
  const rootTypes = new Map<string, ReadonlySet<RecordType>>();
  const planned: { profile: Profile; records: StaticRecord[] }[] = [];
  const regionsOf = (profile: Profile) =>
    distinctRegions(profile.probeRegions ?? options.defaultProbeRegions);

  for (const profile of childrenFirst(profiles)) {
    if (!serves.has(profile.name)) continue;
    const endpoints = byPriority(profile.endpoints)
      .filter((endpoint) => isEligible(endpoint, serves))
      .map((endpoint): StaticEndpoint => {
        const answers = addressing.answersOf(profile, endpoint).flatMap((answer) => {
          if (endpoint.type !== 'nested' || answer.aliasTarget === undefined) return [answer];
          const child = byName.get(endpoint.targetProfile);
          return child === undefined ? [] : aimAtStatic(answer, child, profile, rootTypes);
        });
        // Geographic and Subnet never fail over (Azure's rule): their records carry no check.
        const healthCheckRef = checkOf(profile, endpoint, regionsOf(profile), registry);
        return { endpoint, answers, healthCheckRef };
      });
    const records = staticRecordsOf(profile, endpoints);
    const root = staticNameOf(profile.dnsConfig.fqdn);
    rootTypes.set(profile.name, new Set(records.filter((r) => r.name === root).map((r) => r.type)));
    planned.push({ profile, records });
  }

  const guardRegions = distinctRegions([
    ...options.defaultProbeRegions,
    ...planned.flatMap(({ profile }) => regionsOf(profile)),
  ]);
  const guard = planned.length > 0 && guardRegions.length > 0 ? registry.guardCheck(guardRegions) : undefined;
  const order = new Map(profiles.map((p, i) => [p.name, i]));
  planned.sort((a, b) => (order.get(a.profile.name) ?? 0) - (order.get(b.profile.name) ?? 0));
  const records = planned.flatMap(({ profile, records: structure }) => [
    ...(guard === undefined || mixedRecordTypes(profile, addressing) !== undefined
      ? []
      : switchRecordsOf(profile, structure, guard)),
    ...structure,
  ]);
  return {
    targets: registry.targets(),
    metrics: registry.metrics(),
    alarms: registry.alarms(),
    healthChecks: registry.healthChecks(),
    records,
  };
}

/**
 * Why a profile gets no switch, or undefined: a Priority profile whose endpoints answer
 * different record types (`v4: A; kid: A, AAAA`, through a nested child). Today's records at
 * `_fast` then hold only the first served endpoint's types, and Route 53 refuses a switch alias
 * to a type `_fast` does not hold — so the profile keeps today's records at its fqdn (its
 * `_static` tree still serves parents that nest it). From configuration only, so it is stable.
 */
export function mixedRecordTypes(profile: Profile, addressing: Addressing): string | undefined {
  if (profile.trafficRoutingMethod !== 'Priority') return undefined;
  const typesOf = (endpoint: Endpoint) =>
    [...new Set(addressing.answersOf(profile, endpoint).map((a) => a.type))].sort().join(', ');
  const types = profile.endpoints.map((endpoint) => `${endpoint.name}: ${typesOf(endpoint)}`);
  return new Set(profile.endpoints.map(typesOf)).size > 1 ? types.join('; ') : undefined;
}

/** A monitored external endpoint's check: its override's forced check, else its target check. */
function checkOf(
  profile: Profile,
  endpoint: Endpoint,
  regions: readonly string[],
  registry: ChecksRegistry,
): string | undefined {
  if (!hasVote(profile, endpoint) || regions.length === 0) return undefined;
  const verdictKey = endpointVerdictKey(profile, endpoint);
  const override = endpoint.runtime?.override?.status;
  if (override !== undefined) return registry.forcedCheck(verdictKey, regions, override);
  return registry.targetCheck(verdictKey, regions, profile.monitorConfig.regionQuorum);
}

/** A nested alias aimed at the child's `_static` root, evaluating its health in failover methods; dropped when the child's root lacks the type. */
function aimAtStatic(
  answer: Answer,
  child: Profile,
  parent: Profile,
  rootTypes: ReadonlyMap<string, ReadonlySet<RecordType>>,
): Answer[] {
  if (answer.aliasTarget === undefined || rootTypes.get(child.name)?.has(answer.type) !== true) return [];
  return [
    {
      ...answer,
      aliasTarget: {
        ...answer.aliasTarget,
        dnsName: staticNameOf(child.dnsConfig.fqdn),
        evaluateTargetHealth: failsOver(parent.trafficRoutingMethod),
      },
    },
  ];
}

/** Configuration alone: enabled, and a nested endpoint's child is defined and serves. */
function isEligible(endpoint: Endpoint, serves: ReadonlySet<string>): boolean {
  if (endpoint.endpointStatus !== 'Enabled') return false;
  return endpoint.type === 'external' || serves.has(endpoint.targetProfile);
}

/**
 * Profiles that publish something whatever the health: enabled, with an eligible endpoint
 * (today: not Inactive, so a nested endpoint on it is not Stopped).
 */
function servingProfiles(profiles: readonly Profile[]): Set<string> {
  const serves = new Set<string>();
  for (const profile of childrenFirst(profiles)) {
    if (profile.profileStatus !== 'Enabled') continue;
    if (profile.endpoints.some((endpoint) => isEligible(endpoint, serves))) serves.add(profile.name);
  }
  return serves;
}
