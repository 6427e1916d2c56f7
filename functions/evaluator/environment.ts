/**
 * Builds the evaluator's dependencies from the environment, so the same handler runs in
 * AWS and against the local stack: clients honour `AWS_ENDPOINT_URL_DYNAMODB`,
 * `AWS_ENDPOINT_URL_ROUTE_53` and `AWS_ENDPOINT_URL_EVENTBRIDGE`.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { Route53Client } from '@aws-sdk/client-route-53';
import { Logger } from '@aws-lambda-powertools/logger';
import { DynamoDbEvaluatorStore } from './dynamodb-state-store.js';
import type { EvaluatorDeps } from './evaluation.js';
import { callbackSink, detailOf, eventBridgeSink } from './event-sinks.js';
import { powertoolsMetrics } from './powertools-metrics.js';
import { Route53ZoneGateway } from './route53-zone-gateway.js';

export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'traffic-manager-evaluator',
});

let cached: EvaluatorDeps | undefined;

export function depsFromEnvironment(env: NodeJS.ProcessEnv = process.env): EvaluatorDeps {
  if (cached !== undefined) return cached;
  const tableName = env.TABLE_NAME;
  if (tableName === undefined || tableName === '') throw new Error('TABLE_NAME is not set');
  const metrics = powertoolsMetrics();
  const eventBusName = env.EVENT_BUS_NAME;
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
