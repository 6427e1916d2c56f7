/** One PutItem: the item as it is, keys included; attributes left undefined are left out. */
import { PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';

export async function putItem(client: DynamoDBClient, tableName: string, item: object): Promise<void> {
  await client.send(
    new PutItemCommand({ TableName: tableName, Item: marshall(item, { removeUndefinedValues: true }) }),
  );
}
