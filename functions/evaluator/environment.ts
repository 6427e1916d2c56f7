/**
 * Builds the evaluator's dependencies from the environment, so the same handler runs in
 * AWS and against the local stack: clients honour `AWS_ENDPOINT_URL_DYNAMODB`,
 * `AWS_ENDPOINT_URL_ROUTE_53` and `AWS_ENDPOINT_URL_EVENTBRIDGE`.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { Route53Client } from '@aws-sdk/client-route-53';
import { EnvironmentVariable as Env } from '../../shared/contracts/environment.js';
import { tableNameFromEnv } from '../shared/env.js';
import { logger } from '../shared/logger.js';
import { DynamoDbEvaluatorStore } from './dynamodb-state-store.js';
import type { EvaluatorDeps } from './evaluation.js';
import { callbackSink, detailOf, eventBridgeSink } from './event-sinks.js';
import { powertoolsMetrics } from './powertools-metrics.js';
import { Route53ZoneGateway } from './route53-zone-gateway.js';

export { logger };

let cached: EvaluatorDeps | undefined;

export function depsFromEnvironment(env: NodeJS.ProcessEnv = process.env): EvaluatorDeps {
  if (cached !== undefined) return cached;
  const tableName = tableNameFromEnv(env);
  const metrics = powertoolsMetrics();
  const eventBusName = env[Env.eventBusName];
  cached = {
    store: new DynamoDbEvaluatorStore(new DynamoDBClient({}), tableName),
    zones: new Route53ZoneGateway(new Route53Client({ region: 'us-east-1' }), { metrics }),
    events:
      eventBusName === undefined || eventBusName === ''
        ? callbackSink((event) => logger.info('status change', { event: detailOf(event) }))
        : eventBridgeSink(new EventBridgeClient({}), eventBusName),
    metrics,
    now: () => Date.now(),
  };
  return cached;
}
