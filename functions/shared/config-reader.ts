/** Reads the deployed profile definitions (CONFIG items, shared/state/items.ts) from the table. */
import { QueryCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Profile } from '../../shared/profile/types.js';
import { KeyPrefix, type ConfigItem } from '../../shared/state/items.js';

export interface DeployedConfig {
  readonly profiles: readonly Profile[];
  /** From the CONFIG items; empty when there are none (callers fall back to PROBE_REGIONS). */
  readonly defaultProbeRegions: readonly string[];
}

export async function readDeployedConfig(client: DynamoDBClient, tableName: string): Promise<DeployedConfig> {
  const items = await readConfigItems(client, tableName);
  return {
    profiles: items.map((item) => JSON.parse(item.definition) as Profile),
    defaultProbeRegions: items[0]?.defaultProbeRegions ?? [],
  };
}

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
