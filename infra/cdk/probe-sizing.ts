/**
 * Each probe region's memory size and most shards, from the definitions (shared/probe/region-sizing.ts),
 * and what to warn about when given values cannot carry them. Sized as if every profile and
 * endpoint were enabled: a runtime control may enable what the definitions disable.
 */
import { planProbes } from '../../shared/probe/plan.js';
import { sizeProbeRegion, type RegionSizing } from '../../shared/probe/region-sizing.js';
import { FAST_INTERVAL_MS, roundPeriodMsOf } from '../../shared/probe/round-schedule.js';
import { planLoadOf } from '../../shared/probe/shard-capacity.js';
import { MAX_PROBE_SHARDS } from '../../shared/probe/shards.js';
import type { Profile } from '../../shared/profile/types.js';

export interface ProbeRegionSize extends RegionSizing {
  readonly region: string;
  readonly requests: number;
  /** Why this region's rounds would start late, for a synth warning; none when they fit. */
  readonly warning?: string;
}

export function sizeProbeRegions(
  profiles: readonly Profile[],
  probeRegions: readonly string[],
  given: { readonly memoryMb?: number; readonly maxShards?: number },
): ProbeRegionSize[] {
  const everythingEnabled = profiles.map((profile): Profile => ({
    ...profile,
    profileStatus: 'Enabled',
    endpoints: profile.endpoints.map((endpoint) => ({ ...endpoint, endpointStatus: 'Enabled' })),
  }));
  return probeRegions.map((region) => {
    const plan = planProbes(everythingEnabled, region, probeRegions);
    const roundPeriodMs = roundPeriodMsOf(plan) ?? FAST_INTERVAL_MS;
    const load = planLoadOf(plan, roundPeriodMs);
    const sizing = sizeProbeRegion(load, given);
    return {
      region,
      requests: plan.length,
      ...sizing,
      warning: lateRoundsWarning(region, plan.length, sizing, given),
    };
  });
}

function lateRoundsWarning(
  region: string,
  requests: number,
  sizing: RegionSizing,
  given: { readonly maxShards?: number },
): string | undefined {
  const needs = `probe region ${region}: its ${requests.toLocaleString('en-US')} probe requests need ${sizing.shardsAtConstants} shards of ${sizing.memoryMb.toLocaleString('en-US')} MB to start each round on time, by the per-protocol CPU constants alone (the shards' measured CPU may ask for more)`;
  if (sizing.shardsAtConstants > MAX_PROBE_SHARDS)
    return `${needs}, more than the ${MAX_PROBE_SHARDS} a region may have: its rounds will start late. Spread the profiles over more probe regions (probeRegions).`;
  if (given.maxShards !== undefined && sizing.shardsAtConstants > given.maxShards)
    return `${needs}, but maxProbeShards is ${given.maxShards}: its rounds will start late. Raise maxProbeShards to at least ${sizing.shardsAtConstants}, or leave it unset to size it from the definitions.`;
  return undefined;
}
