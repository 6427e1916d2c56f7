/** The CONFIG items of the state table, read and written with an injected DynamoDB client. */
import {
  DeleteItemCommand,
  PutItemCommand,
  QueryCommand,
  type AttributeValue,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { Keys, KeyPrefix, type ConfigItem } from '../../shared/state/items.js';

export async function readConfigItems(client: DynamoDBClient, tableName: string): Promise<ConfigItem[]> {
  const items: ConfigItem[] = [];
  let startKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: KeyPrefix.config } },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const raw of page.Items ?? []) {
      const item = unmarshall(raw);
      items.push({
        name: String(item.name),
        definition: String(item.definition),
        version: String(item.version),
        defaultProbeRegions: Array.isArray(item.defaultProbeRegions)
          ? item.defaultProbeRegions.map(String)
          : [],
      });
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return items;
}

export async function putConfigItem(
  client: DynamoDBClient,
  tableName: string,
  item: ConfigItem,
): Promise<void> {
  await client.send(
    new PutItemCommand({ TableName: tableName, Item: marshall({ ...Keys.config(item.name), ...item }) }),
  );
}

export async function deleteConfigItem(
  client: DynamoDBClient,
  tableName: string,
  name: string,
): Promise<void> {
  await client.send(new DeleteItemCommand({ TableName: tableName, Key: marshall(Keys.config(name)) }));
}
