/**
 * The local SSM Parameter Store: `GetParameter` over the AWS JSON 1.1 protocol, so the probe's
 * production client reads header parameters from it with an endpoint override. It holds the
 * parameters `tm local --secrets FILE` gives it, as SecureStrings, version 1, and answers as
 * SSM does: by name or ARN, `name:1` for the version; without `WithDecryption` a
 * SecureString's value is ciphertext (base64), never the value; an unknown name is
 * `ParameterNotFound`, an unknown version `ParameterVersionNotFound`.
 */
import { createHash } from 'node:crypto';
import type { GuardedHttpServer } from '../http-guard.js';
import { AwsJsonError, requiredString, signedRegionOf, startAwsJsonServer } from '../aws-json.js';

export type LocalParameterStore = Pick<GuardedHttpServer, 'endpoint' | 'stop'>;

/** The account of the local stack's ARNs. */
export const LOCAL_ACCOUNT = '000000000000';

/** `parameters`: parameter name (`/shop/token` or `token`) → its value. */
export async function startLocalParameterStore(
  parameters: Readonly<Record<string, string>>,
): Promise<LocalParameterStore> {
  const lastModified = Math.floor(Date.now() / 1000);
  const byName = new Map(Object.entries(parameters));

  return startAwsJsonServer({
    signingName: 'ssm',
    targetPrefix: 'AmazonSSM',
    operations: {
      GetParameter: (input, request) => {
        const requested = requiredString(input, 'Name', 'name', 2048);
        const decrypt = input.WithDecryption;
        if (decrypt !== undefined && typeof decrypt !== 'boolean')
          throw new AwsJsonError('SerializationException', 'WithDecryption must be a boolean');
        const { name, selector } = nameOf(requested, byName);
        const value = byName.get(name);
        if (value === undefined) throw new AwsJsonError('ParameterNotFound', `Parameter ${name} not found.`);
        if (selector !== undefined && selector !== '1')
          throw new AwsJsonError(
            'ParameterVersionNotFound',
            `Systems Manager could not find version ${selector} of ${name}. Verify the version and try again.`,
          );
        const region = signedRegionOf(request);
        return {
          Parameter: {
            Name: name,
            Type: 'SecureString',
            Value: decrypt === true ? value : ciphertextOf(name, value),
            Version: 1,
            ...(selector === undefined ? {} : { Selector: `:${selector}` }),
            LastModifiedDate: lastModified,
            ARN: `arn:aws:ssm:${region}:${LOCAL_ACCOUNT}:parameter/${name.replace(/^\//, '')}`,
            DataType: 'text',
          },
        };
      },
    },
  });
}

/** `arn:aws:ssm:R:A:parameter/a/b` → the stored `/a/b` (or `a/b`); `name:selector` → both parts. */
function nameOf(requested: string, known: ReadonlyMap<string, string>): { name: string; selector?: string } {
  const arn = /^arn:aws:ssm:[a-z0-9-]+:\d{12}:parameter\/(.+)$/.exec(requested);
  let name = requested;
  if (arn !== null) name = known.has(`/${arn[1]}`) ? `/${arn[1]}` : arn[1]!;
  const colon = name.lastIndexOf(':');
  if (colon > 0) return { name: name.slice(0, colon), selector: name.slice(colon + 1) };
  return { name };
}

/** What SSM returns for a SecureString read without decryption: KMS ciphertext, base64. It reveals nothing of the value. */
function ciphertextOf(name: string, value: string): string {
  const digest = createHash('sha256').update(name).update('\0').update(value).digest();
  return Buffer.concat([
    Buffer.from([0x01, 0x02, 0x02, 0x00, 0x78]),
    digest,
    digest.subarray(0, 16),
  ]).toString('base64');
}
