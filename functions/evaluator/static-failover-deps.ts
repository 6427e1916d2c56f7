/**
 * Static failover's dependencies from the one client factory: Route 53 (health checks, through
 * the zone gateway's retry layer and limiter), CloudWatch per probe region, the table.
 * The Lambda (environment.ts) and the tests build them here, so the tested wiring is the deployed one.
 */
import {
  awsClients,
  type AwsClientOptions,
  type AwsClients,
  type Route53ClientOptions,
} from '../shared/aws-clients.js';
import { CloudWatchAlarmGateway } from './alarm-gateway.js';
import { Route53HealthCheckGateway } from './health-check-gateway.js';
import type { RetryPolicy } from '../shared/retry.js';
import type { EvaluatorMetrics } from './ports.js';
import { DynamoDbStaticFailoverStore } from './static-failover-store.js';

export interface StaticFailoverDepsOptions {
  /** The deployment's name (metric dimension, part of every id): `STATIC_FAILOVER_DEPLOYMENT`. */
  readonly deployment: string;
  readonly tableName: string;
  readonly env?: AwsClientOptions['env'];
  readonly metrics?: EvaluatorMetrics;
  /** A failed apply or guard write, for the log (it is also kept in STATIC / STRUCTURE). */
  readonly onError?: (error: unknown) => void;
  /** Explicit endpoints and credentials (tests, the local stack); default: the environment's. */
  readonly dynamodb?: AwsClientOptions;
  readonly route53?: Route53ClientOptions;
  readonly cloudWatch?: Omit<AwsClientOptions, 'region'>;
  /** The health checks' Route 53 retry policy. @default ROUTE53_RETRY, as the zone gateway's */
  readonly route53Retry?: RetryPolicy;
  /** The client factory. @default awsClients, the production one */
  readonly clients?: AwsClients;
}

export type StaticFailoverDeps = ReturnType<typeof staticFailoverDeps>;

export function staticFailoverDeps(options: StaticFailoverDepsOptions) {
  const env = options.env === undefined ? {} : { env: options.env };
  const clients = options.clients ?? awsClients;
  return {
    deployment: options.deployment,
    healthChecks: new Route53HealthCheckGateway(clients.route53({ ...env, ...options.route53 }), {
      ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
      ...(options.route53Retry === undefined ? {} : { retry: options.route53Retry }),
    }),
    alarms: new CloudWatchAlarmGateway((region) =>
      clients.cloudWatch({ ...env, ...options.cloudWatch, region }),
    ),
    store: new DynamoDbStaticFailoverStore(
      clients.dynamodb({ ...env, ...options.dynamodb }),
      options.tableName,
    ),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  };
}
