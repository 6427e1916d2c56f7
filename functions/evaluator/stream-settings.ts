/**
 * The evaluator's DynamoDB stream event source, in one place: the CDK stack's event source
 * mapping and the local poller (infra/local/stream-poller.ts) use the same numbers.
 *
 * A large batch lets a storm — many probe verdicts changing at once — be evaluated together,
 * so Route 53 gets one change batch per 1,000 records instead of one per invocation (Route 53
 * allows 5 requests/s per account). 10,000 is Lambda's maximum for DynamoDB streams; Lambda
 * also closes a batch at 6 MB of payload (some 6,000 verdict records). The window is how long
 * Lambda gathers records before invoking: long enough for a storm written over a couple of
 * seconds (1,000 targets × 3 regions take DynamoDB Local about 2 s) to land in one batch; it
 * adds up to 2 s to a lone transition in the cloud, small beside detection itself (tolerated
 * failures × probe interval, tens of seconds).
 */
export const EVALUATOR_STREAM_SETTINGS = {
  /** Records per invocation (Lambda `BatchSize`). */
  batchSize: 10_000,
  /** How long records are gathered before an invocation (Lambda `MaximumBatchingWindowInSeconds`, in ms). */
  maxBatchingWindowMs: 2_000,
  /** Retries of a failing record before it goes to the on-failure queue (bisecting on the way). */
  retryAttempts: 5,
  /** Records older than this are sent to the on-failure queue instead of being evaluated (s). */
  maxRecordAgeSeconds: 3_600,
} as const;
