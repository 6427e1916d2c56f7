/**
 * What a probe region's partition says about its judges' recent checks, for `tm status` and
 * the evaluator tick: each shard's check summaries (its SUMMARY item read against the JUDGES
 * list it names) and certificates (its CERTIFICATES item), by verdict key. A heartbeat written
 * before those items existed carries both itself and is read as it is, so a table upgraded in
 * place shows what it holds. A summary whose list is gone or was replaced (the shard's judges
 * changed between the two writes) gives nothing until the shard's next summary: the votes then
 * show their verdicts' own checks.
 */
import type { StoredCertificate } from './certificate-summary.js';
import type { StoredCheckSummary } from './check-summary.js';
import { fromColumns } from './check-summary-columns.js';
import type { CertificatesItem, CheckSummariesItem, HeartbeatItem, JudgeListItem } from '../state/items.js';

/** One shard's (or one old heartbeat's) summaries and certificates of a region, by verdict key. */
export interface RegionChecks {
  readonly region: string;
  readonly summaries?: Readonly<Record<string, StoredCheckSummary>>;
  readonly certificates?: Readonly<Record<string, StoredCertificate>>;
}

/** A probe region's partition, item kind by item kind. */
export interface RegionItems {
  readonly heartbeats: readonly HeartbeatItem[];
  readonly judgeLists: readonly JudgeListItem[];
  readonly checkSummaries: readonly CheckSummariesItem[];
  readonly certificates: readonly CertificatesItem[];
}

/**
 * The summaries and certificates of the shards of the region's current split (that of its
 * newest heartbeat): a shard the region no longer has (it shrank) keeps its last items, which
 * would otherwise show an old certificate forever.
 */
export function regionChecksOf(items: RegionItems): RegionChecks[] {
  const { heartbeats } = items;
  const newest = heartbeats.length === 0 ? undefined : heartbeats.reduce((a, b) => (b.at > a.at ? b : a));
  const shards = newest === undefined ? Infinity : (newest.shards ?? 1);
  const current = (item: { readonly shard?: number }) => (item.shard ?? 0) < shards;
  const legacy = heartbeats.filter(
    (h) => current(h) && (h.summaries !== undefined || h.certificates !== undefined),
  );
  const summaries = items.checkSummaries.filter(current).flatMap((item): RegionChecks[] => {
    const list = items.judgeLists.find(
      (l) => l.region === item.region && (l.shard ?? 0) === (item.shard ?? 0) && l.version === item.judges,
    );
    return list === undefined
      ? []
      : [{ region: item.region, summaries: fromColumns(list.keys, item.columns, item.at) }];
  });
  const certificates = items.certificates
    .filter(current)
    .map(({ region, certificates }) => ({ region, certificates }));
  return [
    ...legacy.map(({ region, summaries, certificates }) => ({
      region,
      ...(summaries === undefined ? {} : { summaries }),
      ...(certificates === undefined ? {} : { certificates }),
    })),
    ...summaries,
    ...certificates,
  ];
}
