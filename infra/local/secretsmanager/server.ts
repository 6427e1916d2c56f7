/**
 * The local Secrets Manager: `GetSecretValue` over the AWS JSON 1.1 protocol, so the probe's
 * production client reads header secrets from it with an endpoint override. It holds the
 * secrets `tm local --secrets FILE` gives it (by full ARN; a secret given as bytes is a binary
 * secret, answered as `SecretBinary` without `SecretString`, as Secrets Manager answers one
 * created with `SecretBinary`) and refuses what Secrets Manager
 * refuses: an unknown secret, version or staging label is `ResourceNotFoundException`, a
 * missing or oversized `SecretId` a `ValidationException`, any other operation
 * `UnknownOperationException`.
 */
import { createHash } from 'node:crypto';
import type { GuardedHttpServer } from '../http-guard.js';
import { AwsJsonError, requiredString, startAwsJsonServer } from '../aws-json.js';

export type LocalSecretsManager = Pick<GuardedHttpServer, 'endpoint' | 'stop'>;

const NOT_FOUND = "Secrets Manager can't find the specified secret.";

/** `secrets`: secret ARN → its SecretString (or, as bytes, its SecretBinary). */
export async function startLocalSecretsManager(
  secrets: Readonly<Record<string, string | Uint8Array>>,
): Promise<LocalSecretsManager> {
  const createdDate = Math.floor(Date.now() / 1000);
  const stored = Object.entries(secrets).map(([arn, value]) => ({
    arn,
    name: arn.split(':secret:')[1]!.replace(/-[A-Za-z0-9]{6}$/, ''),
    value,
    // Stable per secret and value, like a version id (a UUID); derived so that it reveals nothing.
    versionId: uuidOf(createHash('sha256').update(arn).update('\0').update(value).digest('hex')),
    createdDate,
  }));
  const find = (id: string) =>
    stored.find((s) => s.arn === id || s.name === id || s.arn.replace(/-[A-Za-z0-9]{6}$/, '') === id);

  return startAwsJsonServer({
    signingName: 'secretsmanager',
    targetPrefix: 'secretsmanager',
    operations: {
      GetSecretValue: (input) => {
        const secretId = requiredString(input, 'SecretId', 'secretId', 2048);
        const secret = find(secretId);
        if (secret === undefined) throw new AwsJsonError('ResourceNotFoundException', NOT_FOUND);
        const { VersionId: versionId, VersionStage: stage } = input;
        if (versionId !== undefined && versionId !== secret.versionId)
          throw new AwsJsonError(
            'ResourceNotFoundException',
            `Secrets Manager can't find the specified secret value for VersionId: ${String(versionId)}`,
          );
        if (stage !== undefined && stage !== 'AWSCURRENT')
          throw new AwsJsonError(
            'ResourceNotFoundException',
            `Secrets Manager can't find the specified secret value for staging label: ${String(stage)}`,
          );
        return {
          ARN: secret.arn,
          Name: secret.name,
          VersionId: secret.versionId,
          ...(typeof secret.value === 'string'
            ? { SecretString: secret.value }
            : { SecretBinary: Buffer.from(secret.value).toString('base64') }),
          VersionStages: ['AWSCURRENT'],
          CreatedDate: secret.createdDate,
        };
      },
    },
  });
}

function uuidOf(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
