/** Reads the deployed profile definitions (CONFIG items, shared/state/items.ts) from the table. */
import {
  QueryCommand,
  type AttributeValue,
  type DynamoDBClient,
  type QueryCommandOutput,
} from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Profile } from '../../shared/profile/types.js';
import { KeyPrefix, type ConfigItem } from '../../shared/state/items.js';

export interface DeployedConfig {
  readonly profiles: readonly Profile[];
  /** From the CONFIG items; empty when there are none (callers fall back to PROBE_REGIONS). */
  readonly defaultProbeRegions: readonly string[];
}

export async function readDeployedConfig(client: DynamoDBClient, tableName: string): Promise<DeployedConfig> {
  const items: ConfigItem[] = [];
  let startKey: Record<string, AttributeValue> | undefined;
  do {
    const page: QueryCommandOutput = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
        ExpressionAttributeValues: { ':pk': { S: KeyPrefix.config }, ':sk': { S: 'PROFILE#' } },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) items.push(unmarshall(item) as ConfigItem);
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return {
    profiles: items.map((item) => JSON.parse(item.definition) as Profile),
    defaultProbeRegions: items[0]?.defaultProbeRegions ?? [],
  };
}
