/**
 * How many of the voting regions must say up for an endpoint to be up (`regionQuorum`).
 * Without a quorum the rule is Azure's: a problem only if fewer than 50 % say up, so exactly
 * half up is still up. A region votes while its heartbeat is fresh and once it has decided;
 * every form counts over the voting regions, so a region that falls silent neither helps nor
 * hurts (a count above the voting regions means all of them).
 */
import type { RegionQuorum } from '../profile/types.js';

/** The up votes needed among `voting` (≥ 1) voting regions. */
export function upVotesNeeded(quorum: RegionQuorum | undefined, voting: number): number {
  switch (quorum) {
    case undefined:
      return Math.ceil(voting / 2);
    case 'any':
      return 1;
    case 'majority':
      return Math.floor(voting / 2) + 1;
    case 'all':
      return voting;
    default:
      return Math.min(quorum, voting);
  }
}

/** The down votes that make the endpoint down: one more than the up votes may fall short by. */
export function downVotesNeeded(quorum: RegionQuorum | undefined, voting: number): number {
  return voting - upVotesNeeded(quorum, voting) + 1;
}

/** e.g. "1 of 3 regions up, quorum all needs 3". */
export function describeQuorum(quorum: RegionQuorum, ups: number, voting: number): string {
  return `${ups} of ${voting} regions up, quorum ${quorum} needs ${upVotesNeeded(quorum, voting)}`;
}
