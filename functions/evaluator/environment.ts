/**
 * Builds the evaluator's dependencies from the environment, so the same handler runs in
 * AWS and against the local stack: clients come from the one factory
 * (`functions/shared/aws-clients.ts`) and honour `AWS_ENDPOINT_URL_DYNAMODB`,
 * `AWS_ENDPOINT_URL_ROUTE_53`, `AWS_ENDPOINT_URL_EVENTBRIDGE` and `AWS_ENDPOINT_URL_CLOUDWATCH`.
 * With `STATIC_FAILOVER_DEPLOYMENT` set, static failover is on (static-failover-deps.ts).
 */
import { EnvironmentVariable as Env } from '../../shared/contracts/environment.js';
import { awsClients, type AwsClients } from '../shared/aws-clients.js';
import { staticFailoverDeps } from './static-failover-deps.js';
import { tableNameFromEnv } from '../shared/env.js';
import { logger } from '../shared/logger.js';
import { DynamoDbEvaluatorStore } from './dynamodb-state-store.js';
import type { EvaluatorDeps } from './evaluation.js';
import { callbackSink, detailOf, eventBridgeSink } from './event-sinks.js';
import { powertoolsMetrics } from '../shared/powertools-metrics.js';
import { Route53ZoneGateway } from './route53-zone-gateway.js';

let built: EvaluatorDeps | undefined;

/** The container's dependencies, built on its first invocation and kept for the next ones. */
export const containerDeps = (): EvaluatorDeps => (built ??= depsFromEnvironment());

/** The evaluator's dependencies, built from `env` with the clients `clients` builds. */
export function depsFromEnvironment(
  env: NodeJS.ProcessEnv = process.env,
  clients: AwsClients = awsClients,
): EvaluatorDeps {
  const tableName = tableNameFromEnv(env);
  const metrics = powertoolsMetrics();
  const eventBusName = env[Env.eventBusName];
  const deployment = env[Env.staticFailoverDeployment];
  const staticFailover =
    deployment === undefined || deployment === ''
      ? undefined
      : staticFailoverDeps({
          deployment,
          env,
          tableName,
          metrics,
          clients,
          onError: (error) => logger.error('static failover', error as Error),
        });
  return {
    store: new DynamoDbEvaluatorStore(clients.dynamodb({ env }), tableName),
    zones: new Route53ZoneGateway(clients.route53({ env }), { metrics }),
    events:
      eventBusName === undefined || eventBusName === ''
        ? callbackSink((event) => logger.info('status change', { event: detailOf(event) }))
        : eventBridgeSink(clients.eventBridge({ env }), eventBusName),
    metrics,
    now: () => Date.now(),
    ...(staticFailover === undefined ? {} : { staticFailover }),
  };
}
