/**
 * What a worker keeps of its judges' checks for the items beside the verdicts: each judge's
 * checks since the last heartbeat and the summary the last heartbeat carried
 * (shared/monitor/check-summary.ts), and the certificate each HTTPS judge last saw
 * (shared/monitor/certificate-summary.ts) with a count of the changes seen. No I/O.
 */
import {
  addCheck,
  toStoredSummary,
  type PeriodChecks,
  type StoredCheckSummary,
} from '../../../shared/monitor/check-summary.js';
import {
  sameCertificate,
  toStoredCertificate,
  type StoredCertificate,
} from '../../../shared/monitor/certificate-summary.js';
import type { ProbeResult } from '../../../shared/probe/result.js';

/** A heartbeat period's checks, as they were when it closed. */
export type ClosedPeriod = readonly (readonly [string, PeriodChecks])[];

export class CheckRecords {
  /** Per judge: its checks since the last heartbeat. */
  private readonly periodChecks = new Map<string, PeriodChecks>();
  /** Per judge: the summary of its checks the last heartbeat period closed with. */
  readonly summaries = new Map<string, StoredCheckSummary>();
  /** Per HTTPS judge: the certificate its last check saw (restored from the table). */
  readonly certificates = new Map<string, StoredCertificate>();
  /** Certificate changes seen (first seen, renewed, dropped, restored into this shard). */
  certificateChanges = 0;

  /** Records one judged check. */
  add(verdictKey: string, result: ProbeResult): void {
    this.periodChecks.set(verdictKey, addCheck(this.periodChecks.get(verdictKey), result));
    if (result.certificate === undefined) return;
    const certificate = toStoredCertificate(result.certificate);
    if (!sameCertificate(this.certificates.get(verdictKey), certificate)) {
      this.certificates.set(verdictKey, certificate);
      this.certificateChanges++;
    }
  }

  /** A certificate restored from the table; a change when this shard's own item (`own`) lacks it. */
  restoreCertificate(
    verdictKey: string,
    certificate: StoredCertificate,
    own: StoredCertificate | undefined,
  ): void {
    this.certificates.set(verdictKey, certificate);
    if (!sameCertificate(own, certificate)) this.certificateChanges++;
  }

  /** Forgets the judges not in `held` (a dropped certificate is a change). */
  retain(held: ReadonlyMap<string, unknown>): void {
    for (const key of this.summaries.keys()) if (!held.has(key)) this.summaries.delete(key);
    for (const key of this.certificates.keys())
      if (!held.has(key)) {
        this.certificates.delete(key);
        this.certificateChanges++;
      }
    for (const key of this.periodChecks.keys()) if (!held.has(key)) this.periodChecks.delete(key);
  }

  /** Closes the heartbeat period: each judge's summary becomes that of its checks so far. */
  closePeriod(): ClosedPeriod {
    const period = [...this.periodChecks];
    for (const [key, checks] of period) this.summaries.set(key, toStoredSummary(checks));
    return period;
  }

  /** The closed period is stored: its checks are done with (checks judged since belong to the next one). */
  periodStored(period: ClosedPeriod): void {
    for (const [key, checks] of period)
      if (this.periodChecks.get(key) === checks) this.periodChecks.delete(key);
  }
}
