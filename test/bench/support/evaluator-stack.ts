/**
 * The evaluator wired to real parts for the bench, like test/evaluator/harness.ts but
 * outside vitest: a fresh table (with its stream) on a DynamoDB Local the bench started,
 * the production handler, the local stream poller, the local Route 53 (another process)
 * through the real SDK client at the production rate limit (5 requests/s).
 */
import { BatchWriteItemCommand, PutItemCommand, type WriteRequest } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { randomUUID } from 'node:crypto';
import { syncConfig } from '../../../functions/config-writer/sync.js';
import { DynamoDbEvaluatorStore } from '../../../functions/evaluator/dynamodb-state-store.js';
import type { EvaluatorDeps } from '../../../functions/evaluator/evaluation.js';
import { callbackSink } from '../../../functions/evaluator/event-sinks.js';
import { createStreamHandler } from '../../../functions/evaluator/handler.js';
import { noMetrics } from '../../../functions/evaluator/ports.js';
import { Route53ZoneGateway } from '../../../functions/evaluator/route53-zone-gateway.js';
import { runTick } from '../../../functions/evaluator/tick.js';
import {
  startStreamPoller,
  type StreamPoller,
  type StreamPollerOptions,
} from '../../../infra/local/stream-poller.js';
import { createTable } from '../../../infra/local/table.js';
import type { Profile } from '../../../shared/profile/types.js';
import { type HeartbeatItem, type VerdictItem } from '../../../shared/state/items.js';
import { Keys } from '../../../shared/state/keys.js';
import {
  dynamoDbClient,
  dynamoDbStreamsClient,
  route53Client,
} from '../../../functions/shared/aws-clients.js';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

export interface BenchEvaluatorOptions {
  readonly dynamodbEndpoint: string;
  readonly route53Endpoint: string;
  readonly regions: readonly string[];
  readonly clock: { now: number };
}

export async function startBenchEvaluator(options: BenchEvaluatorOptions) {
  const dynamodb = dynamoDbClient({
    endpoint: options.dynamodbEndpoint,
    region: 'us-east-1',
    credentials,
  });
  const streams = dynamoDbStreamsClient({
    endpoint: options.dynamodbEndpoint,
    region: 'us-east-1',
    credentials,
  });
  const tableName = `tm-bench-${randomUUID().slice(0, 8)}`;
  const { streamArn } = await createTable(dynamodb, tableName);
  const store = new DynamoDbEvaluatorStore(dynamodb, tableName);
  const route53 = route53Client({ endpoint: options.route53Endpoint, credentials });
  const deps: EvaluatorDeps = {
    store,
    zones: new Route53ZoneGateway(route53), // the production limit: 5 requests per second
    events: callbackSink(() => undefined),
    metrics: noMetrics,
    now: () => options.clock.now,
  };
  const errors: unknown[] = [];
  const handler = createStreamHandler(() => deps, { onError: (error) => errors.push(error) });
  /** Every invocation through the poller: when it started and ended, and how many records it carried. */
  const invocations: { startedAt: number; endedAt: number; records: number }[] = [];
  const loggedHandler: typeof handler = async (event) => {
    const invocation = { startedAt: Date.now(), endedAt: NaN, records: event.Records.length };
    invocations.push(invocation);
    try {
      return await handler(event);
    } finally {
      invocation.endedAt = Date.now();
    }
  };
  let poller: StreamPoller | undefined;

  const put = (item: Record<string, unknown>) =>
    dynamodb.send(
      new PutItemCommand({ TableName: tableName, Item: marshall(item, { removeUndefinedValues: true }) }),
    );

  return {
    dynamodb,
    tableName,
    deps,
    handler,
    invocations,
    errors,
    put,
    /** Starts the local stand-in for Lambda's event source mapping (its defaults unless overridden). */
    startPoller(overrides: Partial<StreamPollerOptions> = {}): StreamPoller {
      poller = startStreamPoller({
        client: streams,
        streamArn,
        handler: loggedHandler,
        onError: (error) => errors.push(error),
        ...overrides,
      });
      return poller;
    },
    get poller(): StreamPoller {
      if (poller === undefined) throw new Error('poller not started');
      return poller;
    },
    define: (profiles: readonly Profile[]) => syncConfig(dynamodb, tableName, profiles, options.regions),
    async heartbeats(at = options.clock.now) {
      for (const region of options.regions) {
        const item: HeartbeatItem = { region, at, targets: 0, periodMs: 60_000, checkpoint: {} };
        await put({ ...Keys.heartbeat(region), ...item });
      }
    },
    /** Writes verdict items the way the probe workers do, `concurrency` at a time, in the given order. */
    async verdicts(items: readonly VerdictItem[], concurrency = 32) {
      let next = 0;
      const worker = async () => {
        for (let i = next++; i < items.length; i = next++) {
          const item = items[i] as VerdictItem;
          await put({ ...Keys.verdict(item.targetKey, item.region), ...item });
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
    },
    /** Bulk setup writes (not what a probe does; only to prepare state quickly). */
    async bulkVerdicts(items: readonly VerdictItem[], concurrency = 8) {
      const requests: WriteRequest[] = items.map((item) => ({
        PutRequest: {
          Item: marshall(
            { ...Keys.verdict(item.targetKey, item.region), ...item },
            { removeUndefinedValues: true },
          ),
        },
      }));
      const chunks: WriteRequest[][] = [];
      for (let i = 0; i < requests.length; i += 25) chunks.push(requests.slice(i, i + 25));
      let next = 0;
      const worker = async () => {
        for (let i = next++; i < chunks.length; i = next++) {
          let pending = chunks[i] as WriteRequest[];
          while (pending.length > 0) {
            const result = await dynamodb.send(
              new BatchWriteItemCommand({ RequestItems: { [tableName]: pending } }),
            );
            pending = result.UnprocessedItems?.[tableName] ?? [];
          }
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
    },
    tick: () => runTick({ store, metrics: noMetrics, now: () => options.clock.now }),
    async stop() {
      await poller?.stop();
      dynamodb.destroy();
      streams.destroy();
      route53.destroy();
    },
  };
}

export type BenchEvaluator = Awaited<ReturnType<typeof startBenchEvaluator>>;
