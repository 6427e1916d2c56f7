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
