/**
 * What a probe role may read for header references, and nothing more:
 * - `secretsmanager:GetSecretValue` on exactly the secrets named (full ARNs);
 * - `ssm:GetParameter` on exactly the parameters named (a name is the home region's, as the
 *   probe reads it);
 * - `kms:Decrypt` only through those services (`kms:ViaService`: Secrets Manager / SSM in
 *   the items' regions), never called directly: what it decrypts is what the reads above
 *   allow. The AWS managed keys (`aws/secretsmanager`, `aws/ssm`) need no grant; a
 *   customer-managed key needs a key policy that delegates to IAM (docs/deploy.md).
 */
import { Aws } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { regionOf } from '../../shared/profile/secret-references.js';
import type { SecretReference } from '../../shared/profile/types.js';

export function headerSecretStatements(
  references: readonly SecretReference[],
  homeRegion: string,
): PolicyStatement[] {
  const secrets = references.flatMap((reference) => ('secret' in reference ? [reference.secret] : []));
  const parameters = references.flatMap((reference) =>
    'parameter' in reference ? [parameterArnOf(reference.parameter, homeRegion)] : [],
  );
  const regionsOf = (kind: 'secret' | 'parameter') => [
    ...new Set(references.filter((reference) => kind in reference).map((r) => regionOf(r) ?? homeRegion)),
  ];
  const statements: PolicyStatement[] = [];
  if (secrets.length > 0)
    statements.push(
      new PolicyStatement({
        sid: 'ReadHeaderSecrets',
        actions: ['secretsmanager:GetSecretValue'],
        resources: secrets,
      }),
      decryptVia('DecryptHeaderSecrets', 'secretsmanager', regionsOf('secret')),
    );
  if (parameters.length > 0)
    statements.push(
      new PolicyStatement({
        sid: 'ReadHeaderParameters',
        actions: ['ssm:GetParameter'],
        resources: parameters,
      }),
      decryptVia('DecryptHeaderParameters', 'ssm', regionsOf('parameter')),
    );
  return statements;
}

function decryptVia(
  sid: string,
  service: 'secretsmanager' | 'ssm',
  regions: readonly string[],
): PolicyStatement {
  return new PolicyStatement({
    sid,
    actions: ['kms:Decrypt'],
    // The key is not known (AWS managed or the owner's own); the service condition scopes the grant.
    resources: ['*'],
    conditions: {
      StringEquals: {
        'kms:ViaService': regions.map((region) => `${service}.${region}.${Aws.URL_SUFFIX}`),
      },
    },
  });
}

/** `/shop/token` → `arn:…:ssm:<home region>:<account>:parameter/shop/token`; an ARN stays as it is. */
function parameterArnOf(nameOrArn: string, homeRegion: string): string {
  if (nameOrArn.startsWith('arn:')) return nameOrArn;
  return `arn:${Aws.PARTITION}:ssm:${homeRegion}:${Aws.ACCOUNT_ID}:parameter/${nameOrArn.replace(/^\//, '')}`;
}
