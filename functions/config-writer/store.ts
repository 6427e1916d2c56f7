/** Writes the CONFIG items of the state table with an injected DynamoDB client (reads: functions/shared/config-reader.ts). */
import { DeleteItemCommand, PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { type ConfigItem } from '../../shared/state/items.js';
import { Keys } from '../../shared/state/keys.js';

export { readConfigItems } from '../shared/config-reader.js';

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
