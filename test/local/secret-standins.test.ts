/**
 * The local Secrets Manager and SSM Parameter Store (infra/local/secretsmanager, infra/local/ssm):
 * the real SDK clients from the one factory read from them, and they refuse what the real
 * APIs refuse, in the services' error shapes, behind the shared loopback guard.
 */
import { GetSecretValueCommand, ListSecretsCommand } from '@aws-sdk/client-secrets-manager';
import { GetParameterCommand } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretsManagerClient, ssmClient } from '../../functions/shared/aws-clients.js';
import {
  startLocalSecretsManager,
  type LocalSecretsManager,
} from '../../infra/local/secretsmanager/server.js';
import { startLocalParameterStore, type LocalParameterStore } from '../../infra/local/ssm/server.js';
import { httpRequest, rawRequest } from '../support/raw-http.js';

const SECRET = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:shop/probe-token-AbCdEf';
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

let secretsManager: LocalSecretsManager;
let parameterStore: LocalParameterStore;
beforeAll(async () => {
  secretsManager = await startLocalSecretsManager({ [SECRET]: 'Bearer abc' });
  parameterStore = await startLocalParameterStore({ '/shop/api-key': 'k-42' });
});
afterAll(async () => {
  await secretsManager.stop();
  await parameterStore.stop();
});

const sm = () =>
  secretsManagerClient({ endpoint: secretsManager.endpoint, region: 'us-east-1', credentials });
const ssm = () => ssmClient({ endpoint: parameterStore.endpoint, region: 'us-east-1', credentials });
const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: Error & { $metadata?: { httpStatusCode?: number } }) => ({
      name: error.name,
      message: error.message,
      status: error.$metadata?.httpStatusCode,
    }),
  );

describe('the local Secrets Manager', () => {
  it('answers GetSecretValue by full ARN, by name and by ARN without the suffix', async () => {
    for (const id of [SECRET, 'shop/probe-token', SECRET.slice(0, -7)]) {
      const output = await sm().send(new GetSecretValueCommand({ SecretId: id }));
      expect(output).toMatchObject({
        ARN: SECRET,
        Name: 'shop/probe-token',
        SecretString: 'Bearer abc',
        VersionStages: ['AWSCURRENT'],
      });
    }
  });

  it.each([
    {
      name: 'an unknown secret',
      input: { SecretId: SECRET.replace('probe-token', 'other') },
      expected: {
        name: 'ResourceNotFoundException',
        message: "Secrets Manager can't find the specified secret.",
        status: 400,
      },
    },
    {
      name: 'an unknown staging label',
      input: { SecretId: SECRET, VersionStage: 'AWSPREVIOUS' },
      expected: { name: 'ResourceNotFoundException', status: 400 },
    },
    {
      name: 'an unknown version id',
      input: { SecretId: SECRET, VersionId: '00000000-0000-0000-0000-000000000000' },
      expected: { name: 'ResourceNotFoundException', status: 400 },
    },
    {
      name: 'an empty secret id',
      input: { SecretId: '' },
      expected: { name: 'ValidationException', status: 400 },
    },
  ])('refuses $name as Secrets Manager does', async ({ input, expected }) => {
    expect(await errorOf(sm().send(new GetSecretValueCommand(input)))).toMatchObject(expected);
  });

  it('refuses an operation it does not implement', async () => {
    expect(await errorOf(sm().send(new ListSecretsCommand({})))).toMatchObject({
      name: 'UnknownOperationException',
      status: 400,
    });
  });

  it('refuses a browser request and an unsigned one', async () => {
    const port = Number(new URL(secretsManager.endpoint).port);
    const headers = {
      'X-Amz-Target': 'secretsmanager.GetSecretValue',
      'Content-Type': 'application/x-amz-json-1.1',
    };
    const body = JSON.stringify({ SecretId: SECRET });
    const fromPage = await rawRequest(
      port,
      httpRequest('POST', '/', port, { ...headers, Origin: 'https://evil.example' }, body),
    );
    const unsigned = await rawRequest(port, httpRequest('POST', '/', port, headers, body));
    for (const reply of [fromPage, unsigned]) {
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(reply.body).not.toContain('Bearer abc');
    }
  });
});

describe('the local Parameter Store', () => {
  it('decrypts a SecureString only when asked to, by name or ARN', async () => {
    const name = '/shop/api-key';
    const arn = 'arn:aws:ssm:us-east-1:123456789012:parameter/shop/api-key';
    for (const id of [name, arn]) {
      const output = await ssm().send(new GetParameterCommand({ Name: id, WithDecryption: true }));
      expect(output.Parameter).toMatchObject({ Name: name, Type: 'SecureString', Value: 'k-42', Version: 1 });
    }
    const encrypted = await ssm().send(new GetParameterCommand({ Name: name }));
    expect(encrypted.Parameter?.Value).not.toContain('k-42');
  });

  it.each([
    {
      name: 'an unknown parameter',
      input: { Name: '/shop/none' },
      expected: { name: 'ParameterNotFound', status: 400 },
    },
    {
      name: 'an unknown version',
      input: { Name: '/shop/api-key:7' },
      expected: { name: 'ParameterVersionNotFound', status: 400 },
    },
    { name: 'an empty name', input: { Name: '' }, expected: { name: 'ValidationException', status: 400 } },
  ])('refuses $name as SSM does', async ({ input, expected }) => {
    expect(
      await errorOf(ssm().send(new GetParameterCommand({ ...input, WithDecryption: true }))),
    ).toMatchObject(expected);
  });

  it('refuses a request signed for another service', async () => {
    const client = ssmClient({ endpoint: secretsManager.endpoint, region: 'us-east-1', credentials });
    expect(await errorOf(client.send(new GetParameterCommand({ Name: '/shop/api-key' })))).toMatchObject({
      status: expect.any(Number),
    });
  });
});
