/**
 * Handlers take their clients and settings from the environment, so the same code runs
 * in AWS and against the local stack. Clients come from the one factory
 * (`aws-clients.ts`: `AWS_ENDPOINT_URL_<SERVICE>`, `AWS_REGION`, the credentials chain).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EnvironmentVariable as Env } from '../../shared/contracts/environment.js';
import { awsClients, type AwsClients } from './aws-clients.js';
import { InvalidEnvironmentVariableError, MissingEnvironmentVariableError } from './errors.js';

type Environment = Readonly<Record<string, string | undefined>>;

/** `TABLE_REGION`, when set, is the table's region (probe regions write to the home region's table). */
export function dynamoDbClientFromEnv(
  clients: AwsClients = awsClients,
  env: Environment = process.env,
): DynamoDBClient {
  const region = env[Env.tableRegion]?.trim();
  return clients.dynamodb({ region: region || undefined, env });
}

/** `TABLE_REGION`, else the function's own region: the deployment's home region (SSM parameters given by name live there). */
export function homeRegionFromEnv(env: Environment = process.env): string | undefined {
  return env[Env.tableRegion]?.trim() || env.AWS_REGION?.trim() || undefined;
}

/** `TABLE_NAME`: the traffic-manager table. */
export function tableNameFromEnv(env: Environment = process.env): string {
  const value = env[Env.tableName]?.trim();
  if (!value) throw new MissingEnvironmentVariableError(Env.tableName, 'the traffic-manager table name');
  return value;
}

/** `PROBE_REGION`, else `AWS_REGION`: the region name this probe function reports as. */
export function probeRegionFromEnv(env: Environment = process.env): string {
  const region = env[Env.probeRegion]?.trim() || env.AWS_REGION?.trim();
  if (!region)
    throw new MissingEnvironmentVariableError(Env.probeRegion, 'the probe region name; or AWS_REGION');
  return region;
}

/** `PROBE_REGIONS`: the deployment's default probe regions, a comma list (used when the CONFIG items carry none). */
export function probeRegionsFromEnv(env: Environment = process.env): string[] {
  return listFromEnv(Env.probeRegions, env);
}

/** A comma list setting; blanks and empty entries are dropped. */
export function listFromEnv(variable: Env, env: Environment = process.env): string[] {
  return (env[variable] ?? '').split(',').flatMap((entry) => entry.trim() || []);
}

/** A positive integer setting, or its default when unset. */
export function positiveIntegerFromEnv(
  variable: Env,
  fallback: number,
  env: Environment = process.env,
): number {
  const raw = env[variable]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidEnvironmentVariableError(variable, 'must be a positive integer', raw);
  }
  return value;
}

/** The probe function's shard of its region (`PROBE_SHARD`, default 0). */
export function probeShardFromEnv(env: Environment = process.env): number {
  const raw = env[Env.probeShard]?.trim();
  if (!raw) return 0;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new InvalidEnvironmentVariableError(Env.probeShard, 'must be an integer ≥ 0', raw);
  }
  return value;
}

/** `STATIC_FAILOVER_DEPLOYMENT`: the deployment name static failover's metrics carry; undefined when unset (no votes). */
export function staticFailoverDeploymentFromEnv(env: Environment = process.env): string | undefined {
  return env[Env.staticFailoverDeployment]?.trim() || undefined;
}
