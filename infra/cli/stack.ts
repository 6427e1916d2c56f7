/**
 * Which stack a `tm` command reads or changes: AWS when `--table` (or TM_TABLE_NAME) names
 * a deployment's table — credentials, region and endpoint from the usual AWS SDK
 * configuration (`--region`, AWS_REGION, AWS_ENDPOINT_URL_DYNAMODB …) — else the running
 * local stack (the one on `--dns-port` when given).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { dynamoDbClient } from '../../functions/shared/aws-clients.js';
import { selectRunningStack } from '../local/state-file.js';

export interface StackOptions {
  readonly dnsPort?: number;
  readonly table?: string;
  readonly region?: string;
}

export interface Stack {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  /** `the local stack (DNS port 5353)` or `table NAME in REGION`, for messages. */
  readonly description: string;
  readonly local: boolean;
}

/** A command cannot find the stack it should read: the message says how to name one. */
export class StackNotFoundError extends Error {
  override name = 'StackNotFoundError';
}

export function connectStack(options: StackOptions, command: string): Stack {
  if (options.table !== undefined) {
    const client = dynamoDbClient({ region: options.region });
    return {
      client,
      tableName: options.table,
      description: `table ${options.table}${options.region === undefined ? '' : ` in ${options.region}`}`,
      local: false,
    };
  }
  const selected = selectRunningStack(options.dnsPort);
  if ('problem' in selected)
    throw new StackNotFoundError(
      `${selected.problem} (start one with \`npm start\` or \`tm local\`);\n` +
        `  for AWS, name the table: tm ${command} --table NAME [--region REGION]  (or set TM_TABLE_NAME)`,
    );
  const local = selected.stack;
  return {
    client: dynamoDbClient({
      endpoint: local.dynamodbEndpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
    tableName: local.tableName,
    description: `the local stack (DNS port ${local.dnsPort})`,
    local: true,
  };
}
