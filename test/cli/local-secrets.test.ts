/** `tm local --secrets FILE`: the values the local Secrets Manager and Parameter Store hold; a bad file stops before anything starts, naming entries, never values. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLocalSecrets, missingLocalSecrets } from '../../infra/local/secrets-file.js';
import { tmInProcess } from '../support/tm.js';

const SECRET = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:shop/probe-token-AbCdEf';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tm-local-secrets-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('tm local --secrets FILE', () => {
  it('reads secrets by ARN and parameters by name from YAML', async () => {
    const file = join(dir, 'secrets.yaml');
    await writeFile(file, `secrets:\n  ${SECRET}: Bearer abc\nparameters:\n  /shop/api-key: k-42\n`);
    const values = await loadLocalSecrets(file);
    expect(values).toEqual({ secrets: { [SECRET]: 'Bearer abc' }, parameters: { '/shop/api-key': 'k-42' } });
    expect(
      missingLocalSecrets(
        [
          { secret: SECRET },
          { parameter: 'arn:aws:ssm:us-east-1:123456789012:parameter/shop/api-key' },
          { parameter: '/shop/other' },
        ],
        values,
      ),
    ).toEqual(['parameter /shop/other']);
  });

  it('a bad file: exit 1 with every problem named, no value shown, nothing started', async () => {
    // Arrange
    const file = join(dir, 'bad.json');
    await writeFile(
      file,
      JSON.stringify({
        secrets: { 'shop/token': 'Bearer hidden-1', [SECRET]: 42 },
        parameters: { '/ok': 'x' },
        extra: {},
      }),
    );

    // Act
    const { code, stdout, stderr } = await tmInProcess('local', '--secrets', file, '--dns-port', '0');

    // Assess
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toEqual([
      `tm local: ${file}: "extra": is not a known field`,
      `tm local: ${file}: secrets["shop/token"]: must be the full ARN of a Secrets Manager secret (arn:aws:secretsmanager:REGION:ACCOUNT:secret:NAME-abcdef, as the console shows it)`,
      `tm local: ${file}: secrets["${SECRET}"]: must be a non-empty string (the value)`,
    ]);
    expect(stderr).not.toContain('hidden-1');
  });

  it('a file that cannot be read', async () => {
    const { code, stderr } = await tmInProcess(
      'local',
      '--secrets',
      join(dir, 'none.yaml'),
      '--dns-port',
      '0',
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/^tm local: .*none\.yaml: cannot be read: ENOENT/);
  });
});
