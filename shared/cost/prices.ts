/**
 * Published AWS on-demand prices (us-east-1, without free tiers) and the few assumptions the
 * cost model makes where AWS does not say, in one place: the CDK app sizes each probe region
 * with them (shared/probe/region-sizing.ts) and `npm run bench:probe` prices a deployment
 * with them (docs/cost.md).
 */
export const PRICE = {
  lambdaGbSecond: 0.0000133334, // arm64
  lambdaRequest: 0.2 / 1e6,
  sqsRequest: 0.4 / 1e6, // standard; a batch of ≤10 messages is one request
  dynamoWriteUnit: 0.625 / 1e6, // on-demand WRU (≤1 KB)
  dynamoReadUnit: 0.125 / 1e6, // on-demand RRU (≤4 KB strongly consistent)
  schedulerInvocation: 1.0 / 1e6,
  interRegionGb: 0.02,
  alarmMonth: 0.1, // a standard-resolution CloudWatch alarm
  route53NonAwsCheck: 0.75, // a basic health check of a non-AWS endpoint, a month
  route53NonAwsFeature: 2.0, // each optional feature of it: HTTPS, fast interval (10 s), …
  // Static failover (docs/adr/0011-static-failover.md; not re-verified against the pricing pages there):
  route53AwsCheck: 0.5, // a health check at the AWS-endpoint rate: the calculated and CloudWatch-metric kinds, a month
  customMetricMonth: 0.3, // a custom CloudWatch metric, a month (first 10,000)
  putMetricDataRequest: 0.01 / 1000, // one PutMetricData request (≤ 1,000 metrics)
} as const;

export const MINUTES_PER_MONTH = 43_800;

/** Assumption (not documented exactly by AWS): an idle SQS event source keeps ~5 pollers long-polling 20 s. */
export const IDLE_POLL_REQUESTS_PER_MINUTE = 15;

/** Assumption: the slowest remote endpoint of a healthy round answers in ~150 ms (loopback is faster). */
export const REMOTE_PROBE_MS = 150;

/** Lambda bills by the millisecond: `ms` of one invocation at `memoryMb`. */
export function lambdaDurationCost(ms: number, memoryMb: number): number {
  return (Math.ceil(ms) / 1000) * (memoryMb / 1024) * PRICE.lambdaGbSecond;
}

/** One Lambda invocation of `ms` at `memoryMb`, its request included. */
export function lambdaInvocationCost(ms: number, memoryMb: number): number {
  return PRICE.lambdaRequest + lambdaDurationCost(ms, memoryMb);
}
