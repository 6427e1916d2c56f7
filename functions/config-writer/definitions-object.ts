/**
 * The deployed definitions, read from the S3 object CDK uploaded as an asset: the normalized
 * `Profile[]` as JSON. The template carries only the object's bucket, key and hash, so the
 * definitions are bounded by what the config writer can read, not by the template's 1 MB.
 */
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { Profile } from '../../shared/profile/types.js';
import { InvalidConfigRequestError } from './errors.js';

export async function readDefinitions(client: S3Client, bucket: string, key: string): Promise<Profile[]> {
  const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const text = await object.Body?.transformToString('utf8');
  if (text === undefined)
    throw new InvalidConfigRequestError(`s3://${bucket}/${key}: the object has no body`);
  const profiles = JSON.parse(text) as unknown;
  if (!Array.isArray(profiles))
    throw new InvalidConfigRequestError(`s3://${bucket}/${key}: must hold a JSON list of profiles`);
  return profiles as Profile[];
}
