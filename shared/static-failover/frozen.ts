/**
 * Profiles whose static path the silent probe regions hold (docs/adr/0011-static-failover.md,
 * "fail static"). A silent region's check keeps its last vote, so once the silent regions alone
 * reach the up votes the target check needs, it cannot fail over; once they reach the down votes
 * that make it down, it cannot fail back — whatever the fresh regions see. Either is frozen.
 */
import { downVotesNeeded, upVotesNeeded } from '../monitor/quorum.js';
import type { Profile } from '../profile/types.js';
import { distinctRegions } from './checks.js';
import { hasVote } from './records.js';

export function frozenStaticProfiles(
  profiles: readonly Profile[],
  defaultProbeRegions: readonly string[],
  stale: ReadonlySet<string>,
): string[] {
  return profiles
    .filter((profile) => {
      const monitored = profile.endpoints.some((e) => e.endpointStatus === 'Enabled' && hasVote(profile, e));
      if (!profile.staticFailover || profile.profileStatus !== 'Enabled' || !monitored) return false;
      const regions = distinctRegions(profile.probeRegions ?? defaultProbeRegions);
      const silent = regions.filter((region) => stale.has(region)).length;
      const { regionQuorum: quorum } = profile.monitorConfig;
      return (
        silent >= Math.min(upVotesNeeded(quorum, regions.length), downVotesNeeded(quorum, regions.length))
      );
    })
    .map((profile) => profile.name);
}
