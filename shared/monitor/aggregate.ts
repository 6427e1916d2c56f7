/**
 * Cross-region aggregation for one endpoint (SPEC §3): each probe region applies the
 * per-region rule and stores a verdict; the endpoint is a problem only if fewer than
 * 50% of the voting regions report it up, or fewer than the profile's `regionQuorum`
 * (quorum.ts). A region votes while its heartbeats (every shard of its split) are fresh
 * and once it has decided.
 */
import type { RegionQuorum } from '../profile/types.js';
import type { HeartbeatItem, VerdictItem } from '../state/items.js';
import { RegionVerdict } from '../status/vocabulary.js';
import { describeQuorum, downVotesNeeded, upVotesNeeded } from './quorum.js';
import { isRegionFresh } from './staleness.js';

export const Vote = { ...RegionVerdict, Undecided: 'undecided', Stale: 'stale' } as const;
export type Vote = (typeof Vote)[keyof typeof Vote];

export const Health = { ...RegionVerdict, Checking: 'checking', Stale: 'stale' } as const;
export type Health = (typeof Health)[keyof typeof Health];

/** One region's say about one endpoint, with the verdict it rests on (if any). */
export interface RegionVote {
  readonly region: string;
  /** undecided: fresh (or never heard of) but no verdict yet; stale: a shard's heartbeat too old or missing. */
  readonly vote: Vote;
  /** The verdict's `since` (also kept for a stale vote, for display). */
  readonly since?: number;
  readonly checkedAt?: number;
  /** The verdict's `runStartedAt`: when the run of checks that led to it began. */
  readonly runStartedAt?: number;
  readonly latencyMs?: number;
  readonly detail?: string;
}

export interface AggregateInput {
  /** The profile's probe regions. */
  readonly regions: readonly string[];
  /** This target's verdict items by region. */
  readonly verdicts: ReadonlyMap<string, VerdictItem>;
  /** Every shard's heartbeat, by region. */
  readonly heartbeats: ReadonlyMap<string, readonly HeartbeatItem[]>;
  readonly now: number;
  /** The profile's `regionQuorum`; absent: Azure's rule. */
  readonly quorum?: RegionQuorum;
}

export interface AggregateHealth {
  /**
   * up/down: decided by the voting regions; checking: nobody has decided yet;
   * stale: only silent regions had decided — the caller keeps the last status (fail static).
   */
  readonly health: Health;
  readonly votes: RegionVote[];
  /** Human text, e.g. "4 consecutive failures (tolerated 3) in 2/3 regions". */
  readonly reason: string;
  /** When the current up/down health began: the `since` of the verdict that tipped the vote. */
  readonly since: number | undefined;
}

export function aggregateRegions(input: AggregateInput): AggregateHealth {
  const votes = [...new Set(input.regions)].map((region) =>
    regionVote(region, input.verdicts.get(region), input.heartbeats.get(region), input.now),
  );
  const voting = votes.filter((v): v is DecidedVote => v.vote === Vote.Up || v.vote === Vote.Down);
  const suffix = silentSuffix(votes);
  if (voting.length === 0) {
    const staleDeciders = votes.filter((v) => v.vote === Vote.Stale && v.since !== undefined);
    if (staleDeciders.length > 0) {
      return {
        health: Health.Stale,
        votes,
        reason: `no fresh probe data: every region that had decided is silent${suffix}`,
        since: undefined,
      };
    }
    const reason = votes.length === 0 ? 'no probe regions' : `no probe region has decided yet${suffix}`;
    return { health: Health.Checking, votes, reason, since: undefined };
  }
  const ups = voting.filter((v) => v.vote === Vote.Up);
  const downs = voting.filter((v) => v.vote === Vote.Down);
  const health = ups.length >= upVotesNeeded(input.quorum, voting.length) ? Health.Up : Health.Down;
  const since = decidingVote(votes, health, input.quorum)?.since;
  const quorum =
    input.quorum === undefined ? '' : `; ${describeQuorum(input.quorum, ups.length, voting.length)}`;
  const reason =
    health === Health.Up
      ? `up in ${ups.length}/${voting.length} regions${downs.length > 0 ? `; ${describeDown(downs, voting.length)}` : ''}${quorum}${suffix}`
      : `${describeDown(downs, voting.length)}${quorum}${suffix}`;
  return { health, votes, reason, since };
}

/**
 * The vote that tipped the endpoint into `health`: of the regions agreeing with it, ordered by
 * when their verdicts began, the one that made them enough (the quorum's up votes for up; for
 * down, enough that the rest fall short of it — without a quorum, half of the voting regions
 * for up, more than half for down). Its `since` is when the health began.
 */
export function decidingVote(
  votes: readonly RegionVote[],
  health: typeof Health.Up | typeof Health.Down,
  quorum?: RegionQuorum,
): RegionVote | undefined {
  const voting = votes.filter((v): v is DecidedVote => v.vote === Vote.Up || v.vote === Vote.Down);
  const agreeing = voting.filter((v) => v.vote === health).sort((a, b) => a.since - b.since);
  const needed =
    health === Health.Up ? upVotesNeeded(quorum, voting.length) : downVotesNeeded(quorum, voting.length);
  return agreeing.length >= needed ? agreeing[needed - 1] : undefined;
}

/** A fresh region's up/down vote always rests on a verdict. */
type DecidedVote = RegionVote & {
  readonly vote: RegionVerdict;
  readonly since: number;
  readonly detail: string;
};

function regionVote(
  region: string,
  verdict: VerdictItem | undefined,
  heartbeats: readonly HeartbeatItem[] | undefined,
  now: number,
): RegionVote {
  const fresh = isRegionFresh(heartbeats ?? [], now);
  // A region never heard from at all (no heartbeat, no verdict) has simply not reported yet.
  const silent = !fresh && (verdict !== undefined || heartbeats !== undefined);
  if (verdict === undefined) return { region, vote: silent ? Vote.Stale : Vote.Undecided };
  return {
    region,
    vote: silent ? Vote.Stale : verdict.verdict,
    since: verdict.since,
    checkedAt: verdict.checkedAt,
    ...(verdict.runStartedAt === undefined ? {} : { runStartedAt: verdict.runStartedAt }),
    ...(verdict.latencyMs === undefined ? {} : { latencyMs: verdict.latencyMs }),
    detail: verdict.detail,
  };
}

/** "4 consecutive failures (tolerated 3) in 2/3 regions", or per region when details differ. */
function describeDown(downs: readonly DecidedVote[], voting: number): string {
  const details = new Set(downs.map((v) => v.detail));
  const [only] = details;
  if (details.size === 1 && only) return `${only} in ${downs.length}/${voting} regions`;
  return `down in ${downs.length}/${voting} regions (${downs.map((v) => `${v.region}: ${v.detail}`).join('; ')})`;
}

function silentSuffix(votes: readonly RegionVote[]): string {
  const parts: string[] = [];
  for (const kind of [Vote.Stale, Vote.Undecided] as const) {
    const regions = votes.filter((v) => v.vote === kind).map((v) => v.region);
    if (regions.length > 0) parts.push(`${regions.length} ${kind} (${regions.join(', ')})`);
  }
  return parts.length > 0 ? `; ${parts.join('; ')}` : '';
}
