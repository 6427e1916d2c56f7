/**
 * Profiles whose static path the silent probe regions hold (docs/adr/0011-static-failover.md,
 * "fail static"). A silent region's check keeps its last vote, so once the silent regions alone
 * reach the up votes the target check needs, it cannot fail over; once they reach the down votes
 * that make it down, it cannot fail back — whatever the fresh regions see. Either is frozen.
 * `profiles` with the runtime controls applied, as the static structure is planned from them.
 */
import { downVotesNeeded, upVotesNeeded } from '../monitor/quorum.js';
import type { Endpoint, Profile } from '../profile/types.js';
import { distinctRegions } from './checks.js';
import { hasVote } from './records.js';

export function frozenStaticProfiles(
  profiles: readonly Profile[],
  defaultProbeRegions: readonly string[],
  stale: ReadonlySet<string>,
): string[] {
  return profiles
    .filter((profile) => {
      if (!profile.staticFailover || profile.profileStatus !== 'Enabled') return false;
      // An overridden endpoint's record carries a forced check, which no vote moves.
      const voted = (e: Endpoint) =>
        e.endpointStatus === 'Enabled' && hasVote(profile, e) && e.runtime?.override === undefined;
      if (!profile.endpoints.some(voted)) return false;
      const regions = distinctRegions(profile.probeRegions ?? defaultProbeRegions);
      const silent = regions.filter((region) => stale.has(region)).length;
      const { regionQuorum: quorum } = profile.monitorConfig;
      return (
        silent >= Math.min(upVotesNeeded(quorum, regions.length), downVotesNeeded(quorum, regions.length))
      );
    })
    .map((profile) => profile.name);
}
