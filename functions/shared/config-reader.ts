/**
 * Reads the deployed profile definitions (CONFIG items, shared/state/items.ts) from the
 * table; `readEffectiveConfig` applies the runtime controls (CONTROL items) to them.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { applyControls } from '../../shared/control/apply.js';
import type { Profile } from '../../shared/profile/types.js';
import { type ConfigItem } from '../../shared/state/items.js';
import { KeyPrefix } from '../../shared/state/keys.js';
import { readControls } from './control-store.js';
import { queryPartition } from './query-all.js';

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

/**
 * The profiles as they are to be probed and evaluated now: the deployed definitions with
 * the runtime controls (`tm endpoint|profile …`) applied.
 */
export async function readEffectiveConfig(
  client: DynamoDBClient,
  tableName: string,
  now: number,
): Promise<DeployedConfig> {
  const [deployed, controls] = await Promise.all([
    readDeployedConfig(client, tableName),
    readControls(client, tableName),
  ]);
  return { ...deployed, profiles: applyControls(deployed.profiles, controls, now) };
}

export async function readConfigItems(client: DynamoDBClient, tableName: string): Promise<ConfigItem[]> {
  const items = await queryPartition(client, tableName, KeyPrefix.config, { consistentRead: true });
  return items.map((item) => ({
    name: String(item.name),
    definition: String(item.definition),
    version: String(item.version),
    defaultProbeRegions: Array.isArray(item.defaultProbeRegions) ? item.defaultProbeRegions.map(String) : [],
  }));
}
