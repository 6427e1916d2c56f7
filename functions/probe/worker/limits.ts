/** The probe worker's defaults and item budgets (functions/probe/worker.ts). */

/** The heartbeat period (before the time scale): staleness is judged against it (shared/monitor/staleness.ts). */
export const DEFAULT_HEARTBEAT_PERIOD_MS = 60_000;
/**
 * Probes in flight at once. A round of 10,000 targets with 10% black-holed (9 s timeout)
 * spread over a 10 s interval holds ~900 hanging probes at its end, so the local default
 * leaves room beside them; on Lambda the process has 1,024 file descriptors, so the
 * handler uses less (LAMBDA_PROBE_CONCURRENCY in handler.ts).
 */
export const DEFAULT_CONCURRENCY = 2_000;
/**
 * A heartbeat item is limited to 400 KB; a checkpoint entry is ~100 bytes (a 45-character
 * key, the count and the run's start). Beyond this many non-clean targets (a network-wide
 * outage) the rest restore from their verdict alone.
 */
export const MAX_CHECKPOINT_ENTRIES = 3_000;
/**
 * JSON bytes a heartbeat's checkpoint, a certificates item's certificates or a judge list's
 * keys may take: DynamoDB's 400 KB item limit, less room for the rest of the item (the stored
 * encoding is compressed, never larger). A judge list holds some 6,000 keys; judges beyond it
 * (a shard far above its planned size) have no check summary and show their verdict's check.
 */
export const ITEM_BUDGET_BYTES = 350_000;
/**
 * The check summaries are written every this many heartbeat periods (5 min at 60 s): about
 * 4 bytes per judge compressed, ~9 write units for a full shard of 2,000 judges, against 1 for
 * the heartbeat — written every period they would cost ~0.3 write units per target-hour.
 */
export const SUMMARY_EVERY_PERIODS = 5;
