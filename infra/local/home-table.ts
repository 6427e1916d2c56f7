/**
 * The local stack's home table: DynamoDB Local with the stack's table (kept across restarts when
 * a data directory is given), the clients the stack's parts use, and one watch on the store, so
 * that an outage is one message (and, if it lasts, a fatal stop), not a log line per failed call.
 */
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { dynamoDbClient, dynamoDbStreamsClient } from '../../functions/shared/aws-clients.js';
import { startDynamoDbLocal } from './dynamodb-local.js';
import { readRestoredState } from './restored-state.js';
import { watchStateStore } from './state-store-watch.js';
import { openTable } from './table.js';

export const LOCAL_TABLE_NAME = 'traffic-manager';
/** How long DynamoDB Local may stay gone (× time scale) before the stack gives up. */
const STATE_STORE_OUTAGE_LIMIT_MS = 60_000;
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

export type HomeTable = Awaited<ReturnType<typeof startHomeTable>>;

export async function startHomeTable(options: {
  readonly dataDirectory: string | undefined;
  readonly timeScale: number;
  readonly log: (line: string) => void;
  readonly stopping: AbortSignal | undefined;
  readonly onFatal: ((message: string) => void) | undefined;
  /** Where each part's stop goes, in start order. */
  readonly cleanup: (() => Promise<void>)[];
}) {
  const { cleanup, log } = options;
  const ddb = await startDynamoDbLocal(
    options.dataDirectory === undefined ? {} : { dbPath: options.dataDirectory },
  );
  cleanup.push(() => ddb.stop());
  const endpoint = { endpoint: ddb.endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS };
  const dynamodb = dynamoDbClient(endpoint);
  const streams = dynamoDbStreamsClient(endpoint);
  const { streamArn, created } = await openTable(dynamodb, LOCAL_TABLE_NAME);
  const restored = created ? undefined : await readRestoredState(dynamodb, LOCAL_TABLE_NAME);
  const watchClient = dynamoDbClient(endpoint);
  cleanup.push(async () => watchClient.destroy());
  const storeWatch = watchStateStore({
    description: `DynamoDB Local at ${ddb.endpoint}`,
    // A client of its own: the check must not wait for a socket behind the probes' hung writes.
    check: (abortSignal) =>
      watchClient.send(new DescribeTableCommand({ TableName: LOCAL_TABLE_NAME }), { abortSignal }),
    log,
    limitMs: STATE_STORE_OUTAGE_LIMIT_MS * options.timeScale,
    onGiveUp: (message) => options.onFatal?.(message),
  });
  ddb.onExit((reason) => storeWatch.lost(`its Java process exited: ${reason}`));
  if (options.stopping?.aborted === true) storeWatch.stop();
  options.stopping?.addEventListener('abort', () => storeWatch.stop(), { once: true });
  cleanup.push(async () => storeWatch.stop());
  return {
    ddb,
    dynamodb,
    streams,
    streamArn,
    /** What the kept table held at the start; undefined when it was created now. */
    restored,
    /** Logs a failed call's line unless the store watch already said the store is gone. */
    logStoreError: (line: string, error: unknown) => {
      storeWatch.observe(error);
      if (!storeWatch.explains(error)) log(line);
    },
  };
}
