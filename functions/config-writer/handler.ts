/**
 * CloudFormation custom resource (Provider framework `onEvent`): writes the deployed profile
 * definitions to the table on create and update. The definitions are an S3 asset, the
 * normalized `Profile[]` as JSON (read with `readDefinitions`); the resource's properties name
 * it and carry its hash, so new definitions change a property and CloudFormation sends an
 * update. Delete does nothing: the table is retained, and the physical id never changes, so
 * CloudFormation never deletes after a replacement.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import type { Profile } from '../../shared/profile/types.js';
import { logger } from '../shared/logger.js';
import { InvalidConfigRequestError } from './errors.js';
import { syncConfig } from './sync.js';
import { awsClients, type AwsClients } from '../shared/aws-clients.js';

export interface ConfigWriterProperties {
  readonly TableName: string;
  /** The asset's bucket and key: the JSON of the normalized `Profile[]`. */
  readonly DefinitionsBucket: string;
  readonly DefinitionsKey: string;
  /** The asset's hash: changes with the definitions, so that CloudFormation sends an update. */
  readonly DefinitionsHash: string;
  /** Comma list. */
  readonly DefaultProbeRegions: string;
}

/** The custom resource's handler; its clients come from `clients`, built on the first create or update. */
export function createConfigWriterHandler(clients: AwsClients = awsClients) {
  let built: { dynamodb: DynamoDBClient; s3: S3Client } | undefined;
  return async (event: CloudFormationCustomResourceEvent) => {
    const props = propertiesOf(event.ResourceProperties);
    const PhysicalResourceId = `traffic-manager-config:${props.TableName}`;
    if (event.RequestType === 'Delete') return { PhysicalResourceId, Data: { Written: 0, Deleted: 0 } };
    built ??= { dynamodb: clients.dynamodb(), s3: clients.s3() };
    const profiles = await readDefinitions(built.s3, props.DefinitionsBucket, props.DefinitionsKey);
    const regions = props.DefaultProbeRegions.split(',').filter((r) => r !== '');
    const plan = await syncConfig(built.dynamodb, props.TableName, profiles, regions);
    logger.info('config synced', {
      definitions: `s3://${props.DefinitionsBucket}/${props.DefinitionsKey}`,
      written: plan.puts.map((p) => p.name),
      deleted: plan.deletes,
    });
    return { PhysicalResourceId, Data: { Written: plan.puts.length, Deleted: plan.deletes.length } };
  };
}

export const handler = createConfigWriterHandler();

const REQUIRED = [
  'TableName',
  'DefinitionsBucket',
  'DefinitionsKey',
  'DefinitionsHash',
  'DefaultProbeRegions',
] as const;

function propertiesOf(raw: Record<string, unknown>): ConfigWriterProperties {
  const wrong = REQUIRED.filter((name) => typeof raw[name] !== 'string');
  if (wrong.length > 0) throw new InvalidConfigRequestError(`${wrong.join(', ')}: must be strings`);
  return Object.fromEntries(REQUIRED.map((name) => [name, raw[name]])) as unknown as ConfigWriterProperties;
}

async function readDefinitions(client: S3Client, bucket: string, key: string): Promise<Profile[]> {
  const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const text = await object.Body?.transformToString('utf8');
  if (text === undefined)
    throw new InvalidConfigRequestError(`s3://${bucket}/${key}: the object has no body`);
  const profiles = JSON.parse(text) as unknown;
  if (!Array.isArray(profiles))
    throw new InvalidConfigRequestError(`s3://${bucket}/${key}: must hold a JSON list of profiles`);
  return profiles as Profile[];
}
