/**
 * What one probe region votes (docs/adr/0011-static-failover.md, "Votes, alarms and checks"):
 * for each target of the profiles with static failover whose probe regions include the region,
 * the `Vote` metric exactly as the plan names it (planStaticFailover: namespace, name and
 * dimensions), and the value of a region verdict — 1 up, 0 down. Pure: the probe worker keeps
 * the verdicts and sends the data.
 */
import type { Profile } from '../profile/types.js';
import { RegionVerdict } from '../status/vocabulary.js';
import { planStaticFailover, type StaticPlanOptions } from './plan.js';
import { type MetricSpec, VOTE_METRIC } from './types.js';

/** The metric one target's vote is published as, in the voting region. */
export interface VoteMetric extends Omit<MetricSpec, 'region'> {
  /** `t-…`: the `Target` dimension (identity.ts `targetIdOf`). */
  readonly targetId: string;
}

/** One vote as sent: the metric, 1 or 0, and the start of the minute it is stamped with. */
export interface VoteDatum {
  readonly metric: VoteMetric;
  readonly value: 0 | 1;
  /** Epoch ms. */
  readonly timestamp: number;
}

/** The vote of a region verdict: 1 up, 0 down. */
export function voteOf(verdict: RegionVerdict): 0 | 1 {
  return verdict === RegionVerdict.Up ? 1 : 0;
}

/**
 * The targets `region` votes for, by verdict key: those of the static structure of the
 * profiles with static failover whose vote metric lives in `region`.
 */
export function voteTargetsOf(
  profiles: readonly Profile[],
  options: StaticPlanOptions,
  region: string,
): Map<string, VoteMetric> {
  const structure = planStaticFailover(
    profiles.filter((profile) => profile.staticFailover),
    options,
  );
  const metrics = new Map<string, VoteMetric>();
  for (const { region: at, ...metric } of structure.metrics) {
    if (at !== region || metric.metricName !== VOTE_METRIC) continue;
    const targetId = metric.dimensions.find((d) => d.name === 'Target')?.value;
    if (targetId !== undefined) metrics.set(targetId, { targetId, ...metric });
  }
  const targets = new Map<string, VoteMetric>();
  for (const target of structure.targets) {
    const metric = metrics.get(target.id);
    if (metric !== undefined) targets.set(target.verdictKey, metric);
  }
  return targets;
}

/** The start of the minute (`minuteMs` long: 60 s × the time scale) that `now` falls in. */
export function minuteOf(now: number, minuteMs: number): number {
  return Math.floor(now / minuteMs) * minuteMs;
}
