/** Every item one DynamoDB Query returns, page after page (the SDK's own paginator), unmarshalled. */
import { paginateQuery, type DynamoDBClient, type QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

export async function queryAll(
  client: DynamoDBClient,
  input: QueryCommandInput,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of paginateQuery({ client }, input))
    for (const raw of page.Items ?? []) items.push(unmarshall(raw));
  return items;
}

/** Every item of partition `pk` (only those whose sort key starts with `skPrefix`, if given), unmarshalled. */
export function queryPartition(
  client: DynamoDBClient,
  tableName: string,
  pk: string,
  options: { skPrefix?: string; consistentRead?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  const { skPrefix, consistentRead } = options;
  return queryAll(client, {
    TableName: tableName,
    KeyConditionExpression: skPrefix === undefined ? 'pk = :pk' : 'pk = :pk AND begins_with(sk, :sk)',
    ExpressionAttributeValues: {
      ':pk': { S: pk },
      ...(skPrefix === undefined ? {} : { ':sk': { S: skPrefix } }),
    },
    ConsistentRead: consistentRead,
  });
}
