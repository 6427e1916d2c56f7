/**
 * The vote publisher (docs/adr/0011-static-failover.md, "Votes, alarms and checks"): this
 * region's vote about each static-failover target it holds — 1 up, 0 down, exactly the
 * region verdict — as the target's `Vote` metric in this region, stamped with the minute:
 * at once when a verdict changes, and once a minute for every decided target (nothing while
 * undecided). A failed publish is logged and retried at the end of the next round; it never
 * fails the round.
 */
import type { Clock } from '../../../shared/clock.js';
import type { RegionVerdict } from '../../../shared/status/vocabulary.js';
import { minuteOf, voteOf, type VoteDatum, type VoteMetric } from '../../../shared/static-failover/votes.js';
import type { WorkerLogger } from './types.js';

/** Where votes go: PutMetricData in this region, at most 1,000 metrics a request (cloudwatch-vote-sink.ts). */
export interface VoteSink {
  publish(data: readonly VoteDatum[]): Promise<void>;
}

export interface VotePublisherOptions {
  readonly sink: VoteSink;
  readonly region: string;
  readonly clock: Clock;
  /** The metric period, scaled: 60 s × the time scale. */
  readonly minuteMs: number;
  readonly logger: WorkerLogger;
  /** This region's current verdict of a judge; undefined while undecided. */
  readonly verdictOf: (verdictKey: string) => RegionVerdict | undefined;
  /** The judges this worker holds (a shard votes for its own). */
  readonly held: () => ReadonlyMap<string, unknown>;
}

export class VotePublisher {
  private targets: ReadonlyMap<string, VoteMetric> = new Map();
  /** Verdict keys whose change waits to be published. */
  private readonly changed = new Set<string>();
  /** The minute every decided vote was last published in. */
  private publishedMinute: number | undefined;
  /** Change publishes run one after another; the round's end waits for them. */
  private publishing: Promise<void> = Promise.resolve();
  /** Per target: the minute and value of its vote last sent (a vote is sent once a minute per value). */
  private readonly sentVotes = new Map<string, { readonly minute: number; readonly value: 0 | 1 }>();
  private sent = 0;

  constructor(private readonly options: VotePublisherOptions) {}

  /** The targets to vote for, by verdict key (shared/static-failover/votes.ts `voteTargetsOf`). */
  setTargets(targets: ReadonlyMap<string, VoteMetric>): void {
    this.targets = targets;
    for (const key of this.changed) if (!targets.has(key)) this.changed.delete(key);
    for (const key of this.sentVotes.keys()) if (!targets.has(key)) this.sentVotes.delete(key);
  }

  /** A judge's verdict changed (also its first decision): its vote goes out at once. */
  readonly change = (verdictKey: string): void => {
    if (!this.targets.has(verdictKey)) return;
    this.changed.add(verdictKey);
    this.publishing = this.publishing.then(() => this.publishChanges());
  };

  /**
   * At the end of a round: waits for the change publishes, then, when this minute's have not
   * gone out yet, publishes every decided vote (else retries changes that failed). Resolves
   * with the votes sent since the last call; never rejects.
   */
  async publishDue(): Promise<number> {
    await this.publishing;
    const minute = minuteOf(this.options.clock.now(), this.options.minuteMs);
    if (this.publishedMinute === minute) await this.publishChanges();
    else {
      const keys = [...this.changed];
      if (await this.send(this.decided([...this.targets.keys()]), 'votes')) {
        this.publishedMinute = minute;
        for (const key of keys) this.changed.delete(key);
      }
    }
    const sent = this.sent;
    this.sent = 0;
    return sent;
  }

  private async publishChanges(): Promise<void> {
    if (this.changed.size === 0) return;
    const keys = [...this.changed];
    this.changed.clear();
    if (!(await this.send(this.decided(keys), 'changed votes')))
      for (const key of keys) this.changed.add(key);
  }

  /**
   * The votes of the decided, held targets among `keys`, stamped with the current minute —
   * but not one already sent in this minute with the same value (a change's vote is this
   * minute's vote too).
   */
  private decided(keys: readonly string[]): { key: string; datum: VoteDatum }[] {
    const held = this.options.held();
    const timestamp = minuteOf(this.options.clock.now(), this.options.minuteMs);
    const votes: { key: string; datum: VoteDatum }[] = [];
    for (const key of keys) {
      const metric = this.targets.get(key);
      const verdict = this.options.verdictOf(key);
      if (metric === undefined || verdict === undefined || !held.has(key)) continue;
      const value = voteOf(verdict);
      const sent = this.sentVotes.get(key);
      if (sent?.minute === timestamp && sent.value === value) continue;
      votes.push({ key, datum: { metric, value, timestamp } });
    }
    return votes;
  }

  /** Sends `votes`; true when sent (or nothing to send). */
  private async send(votes: readonly { key: string; datum: VoteDatum }[], what: string): Promise<boolean> {
    if (votes.length === 0) return true;
    const data = votes.map((vote) => vote.datum);
    try {
      await this.options.sink.publish(data);
      for (const { key, datum } of votes)
        this.sentVotes.set(key, { minute: datum.timestamp, value: datum.value });
      this.sent += data.length;
      return true;
    } catch (error) {
      this.options.logger.warn(`publishing ${what} failed; retrying next round`, {
        region: this.options.region,
        votes: data.length,
        error: String(error),
      });
      return false;
    }
  }
}
