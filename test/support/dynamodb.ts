/** A fresh table on the shared DynamoDB Local for one test file. */
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { createTable } from '../../infra/local/table.js';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { putConfigItem } from '../../functions/config-writer/sync.js';
import { dynamoDbClient, dynamoDbStreamsClient } from '../../functions/shared/aws-clients.js';
import type { Profile } from '../../shared/profile/types.js';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

export function localClients() {
  const endpoint = inject('dynamodbEndpoint');
  return {
    endpoint,
    dynamodb: dynamoDbClient({ endpoint, region: 'us-east-1', credentials }),
    streams: dynamoDbStreamsClient({ endpoint, region: 'us-east-1', credentials }),
  };
}

export async function freshTable(prefix = 'tm-test') {
  const clients = localClients();
  const tableName = `${prefix}-${randomUUID().slice(0, 8)}`;
  const { streamArn } = await createTable(clients.dynamodb, tableName);
  return { ...clients, tableName, streamArn };
}

/** The environment a deployed handler finds, pointed at `table` on DynamoDB Local, for probe region `region`. */
export function handlerEnvironment(
  table: { readonly tableName: string; readonly endpoint: string },
  region: string,
): Record<string, string> {
  return {
    TABLE_NAME: table.tableName,
    AWS_ENDPOINT_URL_DYNAMODB: table.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    PROBE_REGION: region,
  };
}

/** Stores `profiles` as the config writer does (one CONFIG item each), with the deployment's default probe regions. */
export async function putProfiles(
  table: { readonly dynamodb: DynamoDBClient; readonly tableName: string },
  profiles: readonly Profile[],
  defaultProbeRegions: readonly string[],
): Promise<void> {
  for (const profile of profiles)
    await putConfigItem(table.dynamodb, table.tableName, {
      name: profile.name,
      definition: JSON.stringify(profile),
      version: '1',
      defaultProbeRegions: [...defaultProbeRegions],
    });
}
