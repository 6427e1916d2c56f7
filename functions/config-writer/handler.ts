/**
 * CloudFormation custom resource (Provider framework `onEvent`): writes the deployed profile
 * definitions to the table on create and update. Delete does nothing: the table is retained,
 * and the physical id never changes, so CloudFormation never deletes after a replacement.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import type { Profile } from '../../shared/profile/types.js';
import { logger } from '../shared/logger.js';
import { InvalidConfigRequestError } from './errors.js';
import { syncConfig } from './sync.js';
import { dynamoDbClient } from '../shared/aws-clients.js';

export interface ConfigWriterProperties {
  readonly TableName: string;
  /** JSON of the normalized `Profile[]`. */
  readonly Profiles: string;
  /** Comma list. */
  readonly DefaultProbeRegions: string;
}

export interface ConfigWriterResponse {
  readonly PhysicalResourceId: string;
  readonly Data: { readonly Written: number; readonly Deleted: number };
}

let client: DynamoDBClient | undefined;

export async function handler(event: CloudFormationCustomResourceEvent): Promise<ConfigWriterResponse> {
  const props = propertiesOf(event.ResourceProperties);
  const PhysicalResourceId = `traffic-manager-config:${props.TableName}`;
  if (event.RequestType === 'Delete') return { PhysicalResourceId, Data: { Written: 0, Deleted: 0 } };
  const profiles = JSON.parse(props.Profiles) as Profile[];
  const regions = props.DefaultProbeRegions.split(',').filter((r) => r !== '');
  client ??= dynamoDbClient();
  const plan = await syncConfig(client, props.TableName, profiles, regions);
  logger.info('config synced', { written: plan.puts.map((p) => p.name), deleted: plan.deletes });
  return { PhysicalResourceId, Data: { Written: plan.puts.length, Deleted: plan.deletes.length } };
}

function propertiesOf(raw: Record<string, unknown>): ConfigWriterProperties {
  const { TableName, Profiles, DefaultProbeRegions } = raw;
  if (
    typeof TableName !== 'string' ||
    typeof Profiles !== 'string' ||
    typeof DefaultProbeRegions !== 'string'
  ) {
    throw new InvalidConfigRequestError('TableName, Profiles and DefaultProbeRegions must be strings');
  }
  return { TableName, Profiles, DefaultProbeRegions };
}
