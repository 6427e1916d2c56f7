/** Creates the traffic-manager table the way the CDK home stack does (pk/sk, stream with both images, TTL). */
import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { LocalStreamError } from './errors.js';

const TTL_ATTRIBUTE = 'expiresAt';

export async function createTable(client: DynamoDBClient, tableName: string): Promise<{ streamArn: string }> {
  await createOnce(client, tableName);
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
    }),
  );
  const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const streamArn = described.Table?.LatestStreamArn;
  if (streamArn === undefined) throw new LocalStreamError(`table ${tableName} has no stream`);
  return { streamArn };
}

/** The table as a previous start left it (on disk), or a new one: `created` says which. */
export async function openTable(
  client: DynamoDBClient,
  tableName: string,
): Promise<{ streamArn: string; created: boolean }> {
  try {
    const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const streamArn = described.Table?.LatestStreamArn;
    if (streamArn === undefined) throw new LocalStreamError(`table ${tableName} has no stream`);
    return { streamArn, created: false };
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    return { ...(await createTable(client, tableName)), created: true };
  }
}

/**
 * CreateTable, where a retried attempt that finds the table is a success: an attempt that timed
 * out on a busy DynamoDB Local (every attempt is bounded) may have created it before the SDK
 * gave up on the answer. A table that existed before the first attempt is still an error.
 */
async function createOnce(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
      }),
    );
  } catch (error) {
    const retried = ((error as { $metadata?: { attempts?: number } }).$metadata?.attempts ?? 1) > 1;
    if (!(error instanceof ResourceInUseException && retried)) throw error;
  }
}
