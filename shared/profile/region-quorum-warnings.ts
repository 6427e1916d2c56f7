/**
 * A `regionQuorum` count on a profile without `probeRegions` is checked against the regions it
 * is probed from only where those are known: `cdk synth` (the deployment's `probeRegions`) and
 * `tm local` (`--regions`) refuse a count above them (`deploymentRegionProblems`). `tm validate`
 * does not know the deployment, so it warns instead of passing the count in silence.
 */
import type { DefinitionsWarning } from './secret-references.js';
import type { Profile } from './types.js';

export function regionQuorumWarnings(profiles: readonly Profile[]): DefinitionsWarning[] {
  return profiles.flatMap((profile, index) => {
    const quorum = profile.monitorConfig.regionQuorum;
    if (profile.probeRegions !== undefined || typeof quorum !== 'number') return [];
    return [
      {
        path: ['profiles', index, 'monitorConfig', 'regionQuorum'],
        rule: 'region-quorum-deployment' as const,
        message: `${quorum} needs the deployment to probe from at least ${quorum} regions; without probeRegions the regions are the deployment's, unknown here: cdk synth and tm local refuse fewer`,
      },
    ];
  });
}
