/** Creates the traffic-manager table the way the CDK home stack does (pk/sk, stream with both images, TTL). */
import {
  CreateTableCommand,
  DescribeTableCommand,
  UpdateTimeToLiveCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';

export const TTL_ATTRIBUTE = 'expiresAt';

export async function createTable(client: DynamoDBClient, tableName: string): Promise<{ streamArn: string }> {
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
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
    }),
  );
  const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const streamArn = described.Table?.LatestStreamArn;
  if (streamArn === undefined) throw new Error(`table ${tableName} has no stream`);
  return { streamArn };
}
