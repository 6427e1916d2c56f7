/**
 * `tm local --secrets FILE`: the values the local Secrets Manager and Parameter Store hold,
 * so that headers written as references work locally as they do in AWS. JSON or YAML:
 *
 *   secrets:                                  # Secrets Manager: full secret ARN → SecretString
 *     arn:aws:secretsmanager:us-east-1:123456789012:secret:shop/probe-token-AbCdEf: Bearer abc…
 *   parameters:                               # Parameter Store: name → value (a SecureString)
 *     /shop/api-key: k-123…
 *
 * Problems name the file and the entry, never a value.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { load as parseYaml } from 'js-yaml';
import { isRecord } from '../../shared/profile/issues.js';
import {
  describeReference,
  isParameterNameOrArn,
  isSecretArn,
  SECRET_REFERENCE_MESSAGES,
} from '../../shared/profile/secret-references.js';
import type { SecretReference } from '../../shared/profile/types.js';
import { LocalSecretsFileError } from './errors.js';

export interface LocalSecretValues {
  /** Secrets Manager secret ARN → SecretString. */
  readonly secrets: Readonly<Record<string, string>>;
  /** Parameter name → value. */
  readonly parameters: Readonly<Record<string, string>>;
}

export const NO_LOCAL_SECRETS: LocalSecretValues = { secrets: {}, parameters: {} };

const MAX_FILE_BYTES = 1_048_576;

export async function loadLocalSecrets(file: string): Promise<LocalSecretValues> {
  let text: string | undefined;
  try {
    if ((await stat(file)).size <= MAX_FILE_BYTES) text = await readFile(file, 'utf8');
  } catch (error) {
    throw new LocalSecretsFileError(file, [`cannot be read: ${(error as Error).message}`]);
  }
  if (text === undefined)
    throw new LocalSecretsFileError(file, [`cannot be read: larger than ${MAX_FILE_BYTES} bytes`]);
  let input: unknown;
  try {
    input = extname(file).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text, { maxAliases: 0 });
  } catch (error) {
    const reason = (error as { reason?: string }).reason ?? (error as Error).message;
    throw new LocalSecretsFileError(file, [`cannot be read: ${reason.split('\n')[0]}`]);
  }
  return parseLocalSecrets(input, file);
}

function parseLocalSecrets(input: unknown, file: string): LocalSecretValues {
  const problems: string[] = [];
  if (!isRecord(input))
    throw new LocalSecretsFileError(file, ['must be an object with "secrets" and/or "parameters"']);
  for (const key of Object.keys(input))
    if (key !== 'secrets' && key !== 'parameters')
      problems.push(`${JSON.stringify(key)}: is not a known field`);
  const section = (name: 'secrets' | 'parameters', validKey: (key: string) => boolean, message: string) => {
    const raw = input[name] ?? {};
    const values: Record<string, string> = {};
    if (!isRecord(raw)) {
      problems.push(`${name}: must be an object of name → value`);
      return values;
    }
    for (const [key, value] of Object.entries(raw)) {
      if (!validKey(key)) problems.push(`${name}[${JSON.stringify(key)}]: ${message}`);
      else if (typeof value !== 'string' || value === '')
        problems.push(`${name}[${JSON.stringify(key)}]: must be a non-empty string (the value)`);
      else values[key] = value;
    }
    return values;
  };
  const secrets = section('secrets', isSecretArn, SECRET_REFERENCE_MESSAGES.secret);
  const parameters = section(
    'parameters',
    (key) => !key.startsWith('arn:') && isParameterNameOrArn(key),
    'must be an SSM parameter name (/path/name)',
  );
  if (problems.length > 0) throw new LocalSecretsFileError(file, problems);
  return { secrets, parameters };
}

/** The references the definitions use that the local values do not hold (their checks fail locally). */
export function missingLocalSecrets(
  references: readonly SecretReference[],
  values: LocalSecretValues,
): string[] {
  return references
    .filter((reference) =>
      'secret' in reference
        ? values.secrets[reference.secret] === undefined
        : parameterNamesOf(reference.parameter).every((name) => values.parameters[name] === undefined),
    )
    .map(describeReference);
}

/** The names a parameter reference may be stored under: an ARN names `/path/name` or `path/name`. */
function parameterNamesOf(nameOrArn: string): string[] {
  const arn = /^arn:aws:ssm:[^:]+:\d{12}:parameter\/(.+)$/.exec(nameOrArn);
  return arn === null ? [nameOrArn] : [`/${arn[1]}`, arn[1]!];
}
