/** What the probe worker reports (functions/probe/worker.ts). */
import type { ProbeResult } from '../../../shared/probe/result.js';
import type { PlannedJudge, PlannedProbe } from '../../../shared/probe/target.js';
import type { RegionVerdict } from '../../../shared/status/vocabulary.js';

export interface VerdictChange {
  readonly probe: PlannedProbe;
  readonly judge: PlannedJudge;
  readonly region: string;
  readonly verdict: RegionVerdict;
  readonly previous: RegionVerdict | undefined;
  readonly detail: string;
  /** Start of the first check of the run that led to this verdict (VerdictItem.runStartedAt). */
  readonly runStartedAt: number;
  readonly result: ProbeResult;
}

export interface RoundReport {
  readonly dueAt: number;
  readonly startedAt: number;
  readonly finishedAt: number;
  /** Requests sent in this round (one per due probe, however many judges it served). */
  readonly probed: number;
  /** Checks judged in this round (one per due judge). */
  readonly judged: number;
  /** Due checks skipped because the judge's previous check had not ended yet. */
  readonly skipped: number;
  /** How late the latest probe started against its own due time (its round's due time + its place in the spread), ms. */
  readonly latestStartMs: number;
  /** The window the round's probes were spread over (their own due times: spreadWindowMs), ms. */
  readonly windowMs: number;
  readonly changes: readonly VerdictChange[];
  /** Verdict items written (including retried ones), and whether the heartbeat was. */
  readonly verdictWrites: number;
  readonly heartbeatWritten: boolean;
  /** Static-failover votes published at the end of the round (changes included; 0 without a vote sink). */
  readonly votes: number;
  /** Writes that failed and wait for the next round. */
  readonly pendingWrites: number;
  /** The round did not probe because the restore from the table failed (retried next round). */
  readonly restoreFailed: boolean;
}

export interface WorkerLogger {
  warn(message: string, fields: Record<string, unknown>): void;
}

/** Judges a worker holds, by verdict key (each with its request key). */
export type HeldJudges = ReadonlyMap<string, string>;
