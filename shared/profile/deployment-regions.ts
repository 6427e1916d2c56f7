import type { Profile } from './types.js';

/**
 * What a profile asks of the regions a deployment probes from (`cdk synth`'s `probeRegions`,
 * `tm local`'s `--regions`): a region of its own `probeRegions` nothing probes from, or a
 * `regionQuorum` count above the regions it is probed from, which could never be met (the quorum
 * counts voting regions, so it would silently mean "all"). `regionsOf` names where the regions
 * come from in the message. Validation cannot check this: it does not know the deployment.
 */
export function deploymentRegionProblems(
  profiles: readonly Profile[],
  regions: readonly string[],
  regionsOf: string,
): string[] {
  const listed = `(${regions.join(', ')})`;
  const count = new Set(regions).size;
  const problems: string[] = [];
  for (const profile of profiles) {
    const quorum = profile.monitorConfig.regionQuorum;
    if (profile.probeRegions === undefined && typeof quorum === 'number' && quorum > count) {
      problems.push(
        `profile "${profile.name}" monitorConfig.regionQuorum: must be at most ${count}, the number of ${regionsOf} ${listed}, got ${quorum}`,
      );
    }
    for (const region of profile.probeRegions ?? []) {
      if (!regions.includes(region)) {
        problems.push(
          `profile "${profile.name}" probeRegions: ${region} is not one of ${regionsOf} ${listed}: nothing would probe from it`,
        );
      }
    }
  }
  return problems;
}
