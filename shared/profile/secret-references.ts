/**
 * A custom header value may be a reference to a secret kept in AWS instead of the value
 * itself: `{ secret: '<Secrets Manager secret ARN>' }` or `{ parameter: '<SSM parameter
 * name or ARN>' }`. The probe reads it when it runs; the definitions, the template, the
 * table, the logs and the events hold only the reference.
 */
import { isAwsRegion } from './aws-regions.js';
import { formatPath, type IssuePath } from './issues.js';
import type { Header, HeaderValue, Profile, SecretReference } from './types.js';

/** `arn:PARTITION:SERVICE:REGION:ACCOUNT:RESOURCE` */
const ARN = /^arn:([^:]*):([^:]*):([^:]*):([^:]*):(.*)$/;
/** A secret's name and the 6-character suffix Secrets Manager adds to its ARN. */
const SECRET_RESOURCE = /^secret:([A-Za-z0-9/_+=.@-]{1,512})-[A-Za-z0-9]{6}$/;
/** A parameter name: letters, digits and `.-_/`, at most 15 levels. */
const PARAMETER_NAME = /^\/?[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+){0,14}$/;
const MAX_PARAMETER_NAME_LENGTH = 1011;

export const SECRET_REFERENCE_MESSAGES = {
  shape:
    'must be a string, { secret: "<Secrets Manager secret ARN>" } or { parameter: "<SSM parameter name or ARN>" }',
  secret:
    'must be the full ARN of a Secrets Manager secret (arn:aws:secretsmanager:REGION:ACCOUNT:secret:NAME-abcdef, as the console shows it)',
  parameter:
    'must be an SSM parameter name (/path/name) or ARN (arn:aws:ssm:REGION:ACCOUNT:parameter/path/name)',
} as const;

export function isSecretReference(value: HeaderValue): value is SecretReference {
  return typeof value === 'object';
}

/**
 * What is wrong with the target of `{ secret: … }` or `{ parameter: … }`, in house style
 * (the rule, without "got …"); `undefined` when it is valid.
 */
export function referenceProblem(kind: 'secret' | 'parameter', target: unknown): string | undefined {
  if (typeof target !== 'string' || target === '') return SECRET_REFERENCE_MESSAGES[kind];
  if (kind === 'parameter' && !target.startsWith('arn:'))
    return parameterNameProblem(target) === undefined ? undefined : SECRET_REFERENCE_MESSAGES.parameter;
  const arn = ARN.exec(target);
  if (arn === null) return SECRET_REFERENCE_MESSAGES[kind];
  const [, partition, service, region, account, resource] = arn as unknown as string[];
  const expectedService = kind === 'secret' ? 'secretsmanager' : 'ssm';
  if (service !== expectedService)
    return `${SECRET_REFERENCE_MESSAGES[kind]}: this is an ARN of service "${service}", not "${expectedService}"`;
  if (partition !== 'aws')
    return `must be an ARN in the "aws" partition (traffic-manager runs in the commercial AWS regions, whose probes cannot read partition "${partition}")`;
  if (!isAwsRegion(region!))
    return `must name a commercial AWS region in its ARN, not "${region}" (e.g. arn:aws:${service}:us-east-1:…)`;
  if (!/^\d{12}$/.test(account!)) return `must name a 12-digit AWS account in its ARN, not "${account}"`;
  if (kind === 'secret') {
    if (SECRET_RESOURCE.test(resource!)) return undefined;
    return /^secret:[A-Za-z0-9/_+=.@-]{1,512}$/.test(resource!)
      ? 'must be the full ARN of the secret, ending in the 6 characters Secrets Manager adds to its name (…:secret:NAME-abcdef): a partial ARN cannot be granted to the probe exactly'
      : SECRET_REFERENCE_MESSAGES.secret;
  }
  const name = /^parameter\/(.+)$/.exec(resource!)?.[1];
  return name !== undefined && parameterNameProblem(name) === undefined
    ? undefined
    : SECRET_REFERENCE_MESSAGES.parameter;
}

function parameterNameProblem(name: string): string | undefined {
  if (name.length > MAX_PARAMETER_NAME_LENGTH || !PARAMETER_NAME.test(name)) return 'syntax';
  const first = name.replace(/^\//, '').split('/')[0]!.toLowerCase();
  // SSM reserves names that begin with "aws" or "ssm".
  return first.startsWith('aws') || first.startsWith('ssm') ? 'reserved' : undefined;
}

export function isSecretArn(arn: string): boolean {
  return referenceProblem('secret', arn) === undefined;
}

export function isParameterNameOrArn(name: string): boolean {
  return referenceProblem('parameter', name) === undefined;
}

/** The region of an ARN reference; `undefined` for a parameter name (the deployment's home region). */
export function regionOf(reference: SecretReference): string | undefined {
  const arn = 'secret' in reference ? reference.secret : reference.parameter;
  return arn.startsWith('arn:') ? arn.split(':')[3] : undefined;
}

/** How a reference is written in messages and logs: `secret arn:…` or `parameter /shop/token`. */
export function describeReference(reference: SecretReference): string {
  return 'secret' in reference ? `secret ${reference.secret}` : `parameter ${reference.parameter}`;
}

/**
 * A header value as part of a check's identity: the value itself, or the reference — never
 * what a reference resolves to. A NUL cannot occur in a plain value, so the two never collide.
 */
export function headerValueIdentity(value: HeaderValue): string {
  return isSecretReference(value) ? `\u0000${describeReference(value)}` : value;
}

/** Every distinct reference the headers of `profiles` use, in order of first use. */
export function secretReferencesOf(profiles: readonly Profile[]): SecretReference[] {
  const seen = new Map<string, SecretReference>();
  for (const profile of profiles) {
    const endpointHeaders = profile.endpoints.flatMap((endpoint) => endpoint.customHeaders);
    for (const header of [...profile.monitorConfig.customHeaders, ...endpointHeaders]) {
      if (isSecretReference(header.value)) seen.set(describeReference(header.value), header.value);
    }
  }
  return [...seen.values()];
}

/** Header names that usually carry a credential. */
const SECRET_LOOKING_NAME =
  /^(?:authorization|proxy-authorization|cookie)$|(?:^|[-_])(?:token|secret|password|passwd|pwd|key|apikey|auth|session|credentials?|signature)$/i;

export function looksSecret(headerName: string): boolean {
  return SECRET_LOOKING_NAME.test(headerName);
}

/** Something valid that is probably a mistake: reported, never a reason to stop. */
export interface DefinitionsWarning {
  /** Into the normalized profiles: `['profiles', 0, 'monitorConfig', 'customHeaders', 1, 'value']`. */
  readonly path: IssuePath;
  readonly rule: 'inline-secret' | 'region-quorum-deployment' | 'route53-quota';
  readonly message: string;
}

/** A warning for every header that looks like a credential and holds its value inline. */
export function inlineSecretWarnings(profiles: readonly Profile[]): DefinitionsWarning[] {
  const warnings: DefinitionsWarning[] = [];
  const check = (headers: readonly Header[], base: IssuePath) => {
    for (const [index, header] of headers.entries()) {
      if (isSecretReference(header.value) || !looksSecret(header.name)) continue;
      warnings.push({
        path: [...base, index, 'value'],
        rule: 'inline-secret',
        message: `header ${JSON.stringify(header.name)} looks like a credential written inline, so its value is stored in the template, the table and the deployment's logs: use { secret: "<Secrets Manager secret ARN>" } or { parameter: "<SSM SecureString parameter>" }`,
      });
    }
  };
  for (const [index, profile] of profiles.entries()) {
    check(profile.monitorConfig.customHeaders, ['profiles', index, 'monitorConfig', 'customHeaders']);
    for (const [endpoint, { customHeaders }] of profile.endpoints.entries())
      check(customHeaders, ['profiles', index, 'endpoints', endpoint, 'customHeaders']);
  }
  return warnings;
}

/** `warning: profiles[0] "shop".monitorConfig.customHeaders[0].value: …` — never the value itself. */
export function formatWarning(warning: DefinitionsWarning, profiles: readonly Profile[]): string {
  return `warning: ${formatPath(warning.path, profiles)}: ${warning.message}`;
}
