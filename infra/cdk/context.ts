/** Reads the app's options from CDK context (cdk.json or `-c key=value`). */
import { InvalidDeploymentError } from './errors.js';
import type { BuildAppOptions } from './build-app.js';

export const ContextKey = {
  definitions: 'traffic-manager:definitions',
  homeRegion: 'traffic-manager:homeRegion',
  /** The deployment's default of each profile's `staticFailover` (`true` / `false`). */
  staticFailover: 'traffic-manager:staticFailover',
  probeRegions: 'traffic-manager:probeRegions',
  account: 'traffic-manager:account',
  deploymentName: 'traffic-manager:deploymentName',
  alarmTopicArn: 'traffic-manager:alarmTopicArn',
  notificationTopicArn: 'traffic-manager:notificationTopicArn',
  nag: 'traffic-manager:nag',
} as const;

/**
 * Whether cdk-nag's AwsSolutions checks run: on unless the context says false — the JSON
 * `false` of cdk.json or the string `false` of `-c traffic-manager:nag=false` (the CDK CLI
 * passes `-c` values as strings).
 */
export function nagEnabled(get: (key: string) => unknown): boolean {
  return optionalBoolean(ContextKey.nag, get(ContextKey.nag)) ?? true;
}

export function contextOptions(get: (key: string) => unknown): BuildAppOptions {
  const definitions = get(ContextKey.definitions);
  const homeRegion = get(ContextKey.homeRegion);
  if (typeof definitions !== 'string' || definitions === '')
    needs(ContextKey.definitions, 'the definitions file path', definitions);
  if (typeof homeRegion !== 'string' || homeRegion === '')
    needs(ContextKey.homeRegion, 'a region', homeRegion);
  const staticFailover = optionalBoolean(ContextKey.staticFailover, get(ContextKey.staticFailover));
  return {
    definitions,
    ...(staticFailover === undefined ? {} : { staticFailover }),
    homeRegion,
    probeRegions: regionList(get(ContextKey.probeRegions)),
    account: optionalString(get(ContextKey.account)) ?? process.env.CDK_DEFAULT_ACCOUNT,
    deploymentName: optionalString(get(ContextKey.deploymentName)),
    alarmTopicArn: optionalString(get(ContextKey.alarmTopicArn)),
    notificationTopicArn: optionalString(get(ContextKey.notificationTopicArn)),
  };
}

/** A JSON list from cdk.json, or a comma list from `-c traffic-manager:probeRegions=a,b`. */
function regionList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed.startsWith('[')) return (JSON.parse(trimmed) as unknown[]).map(String);
    return trimmed
      .split(',')
      .map((r) => r.trim())
      .filter((r) => r !== '');
  }
  return needs(ContextKey.probeRegions, 'a list of regions', value);
}

function needs(key: string, what: string, value: unknown): never {
  throw new InvalidDeploymentError(
    `context ${key}: needs ${what}, got ${JSON.stringify(value) ?? 'nothing'}`,
  );
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `true` / `false` from cdk.json (JSON) or `-c key=false` (the CDK CLI passes strings); unset: undefined. */
function optionalBoolean(key: string, value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new InvalidDeploymentError(`context ${key}: must be true or false, got ${JSON.stringify(value)}`);
}
