/**
 * Header secrets at run time: the probe reads a referenced secret or parameter with the
 * production clients (the one factory; here pointed at the local Secrets Manager and SSM
 * stand-ins), sends the value to a real loopback server, caches it (5 minutes fresh, up to
 * an hour when reads fail, 30 s between failed reads), and never logs or reports it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  awsSecretSource,
  HeaderSecrets,
  SECRET_CACHE,
  withHeaderSecrets,
  type SecretSource,
} from '../../functions/probe/header-secrets.js';
import { probe } from '../../functions/probe/probers/registry.js';
import { ENDPOINT_VARIABLE } from '../../functions/shared/aws-clients.js';
import {
  startLocalSecretsManager,
  type LocalSecretsManager,
} from '../../infra/local/secretsmanager/server.js';
import { startLocalParameterStore, type LocalParameterStore } from '../../infra/local/ssm/server.js';
import type { ProbeRequest } from '../../shared/probe/target.js';
import type { SecretReference } from '../../shared/profile/types.js';
import { startHttpServer, type TestHttpServer } from '../support/servers.js';

const SECRET = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:shop/probe-token-AbCdEf';
const OTHER_SECRET = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:shop/other-QwErTy';
const BINARY_SECRET = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:shop/binary-ZxCvBn';
const SECRET_VALUE = 'Bearer s3cr3t-from-secrets-manager';
const PARAMETER = '/shop/api-key';
const PARAMETER_VALUE = 'k-parameter-value-42';
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

let secretsManager: LocalSecretsManager;
let parameterStore: LocalParameterStore;
let server: TestHttpServer;

beforeAll(async () => {
  secretsManager = await startLocalSecretsManager({
    [SECRET]: SECRET_VALUE,
    [BINARY_SECRET]: new TextEncoder().encode('Bearer binary-s3cr3t'),
  });
  parameterStore = await startLocalParameterStore({ [PARAMETER]: PARAMETER_VALUE });
  server = await startHttpServer();
});
afterAll(async () => {
  await secretsManager.stop();
  await parameterStore.stop();
  await server.close();
});

const source = () =>
  awsSecretSource({
    parameterRegion: 'us-east-1',
    clientOptions: {
      credentials,
      env: {
        [ENDPOINT_VARIABLE.secretsManager]: secretsManager.endpoint,
        [ENDPOINT_VARIABLE.ssm]: parameterStore.endpoint,
      },
    },
  });

const request = (headers: ProbeRequest['headers']): ProbeRequest => ({
  key: 'k',
  protocol: 'HTTP',
  host: '127.0.0.1',
  port: server.port,
  path: '/health',
  method: 'GET',
  headers,
});

function manualClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function recordingLogger() {
  const lines: string[] = [];
  return {
    lines,
    warn: (message: string, fields: Record<string, unknown>) =>
      lines.push(JSON.stringify({ message, ...fields })),
  };
}

/** A source that counts reads and answers from a table (a missing entry throws like the SDK). */
function countingSource(values: Map<string, string>) {
  const reads: string[] = [];
  const source: SecretSource = {
    async read(reference: SecretReference) {
      const key = 'secret' in reference ? reference.secret : reference.parameter;
      reads.push(key);
      const value = values.get(key);
      if (value === undefined)
        throw Object.assign(new Error('not found'), { name: 'ResourceNotFoundException' });
      return value;
    },
  };
  return { reads, source };
}

describe('a probe with header references', () => {
  it('sends the resolved secret and parameter values to the server, and reports nothing of them', async () => {
    // Arrange
    const logger = recordingLogger();
    const clock = { now: () => Date.now() };
    const prober = withHeaderSecrets(probe, new HeaderSecrets(source(), clock, logger), clock);
    const before = server.received.length;

    // Act
    const observation = await prober(
      request([
        { name: 'Authorization', value: { secret: SECRET } },
        { name: 'X-Api-Key', value: { parameter: PARAMETER } },
        { name: 'X-Plain', value: 'plain' },
      ]),
      5_000,
    );

    // Assess
    expect(observation).toMatchObject({ answered: true, statusCode: 200 });
    const received = server.received.slice(before);
    expect(received).toHaveLength(1);
    expect(received[0]!.headers).toMatchObject({
      authorization: SECRET_VALUE,
      'x-api-key': PARAMETER_VALUE,
      'x-plain': 'plain',
    });
    expect(JSON.stringify(observation)).not.toContain('s3cr3t');
    expect(logger.lines).toEqual([]);
  });

  it('an unknown secret: nothing is sent, the check fails with reason "secret" naming the reference, and the log has no value', async () => {
    // Arrange
    const logger = recordingLogger();
    const clock = { now: () => Date.now() };
    const prober = withHeaderSecrets(probe, new HeaderSecrets(source(), clock, logger), clock);
    const before = server.received.length;

    // Act
    const observation = await prober(
      request([
        { name: 'X-Api-Key', value: { parameter: PARAMETER } },
        { name: 'Authorization', value: { secret: OTHER_SECRET } },
      ]),
      5_000,
    );

    // Assess
    expect(server.received.length).toBe(before);
    expect(observation).toMatchObject({
      answered: false,
      reason: 'secret',
      detail: `header "Authorization": secret ${OTHER_SECRET} does not exist (ResourceNotFoundException); the check was not sent`,
    });
    expect(logger.lines.map((line) => JSON.parse(line))).toEqual([
      {
        message: 'reading a header secret failed',
        reference: `secret ${OTHER_SECRET}`,
        error: 'ResourceNotFoundException',
      },
    ]);
    expect(JSON.stringify([observation, logger.lines])).not.toContain(PARAMETER_VALUE);
  });

  it('a binary secret (SecretBinary, no SecretString) is not sent: it does not hold a header value', async () => {
    const logger = recordingLogger();
    const clock = { now: () => Date.now() };
    const prober = withHeaderSecrets(probe, new HeaderSecrets(source(), clock, logger), clock);
    const before = server.received.length;

    const observation = await prober(
      request([{ name: 'Authorization', value: { secret: BINARY_SECRET } }]),
      5_000,
    );

    expect(server.received.length).toBe(before);
    expect(observation).toMatchObject({
      answered: false,
      reason: 'secret',
      detail: `header "Authorization": secret ${BINARY_SECRET} does not hold a header value (text of at most 8192 printable ASCII characters, no line breaks) (InvalidHeaderValue); the check was not sent`,
    });
    expect(logger.lines.map((line) => JSON.parse(line))).toEqual([
      {
        message: 'reading a header secret failed',
        reference: `secret ${BINARY_SECRET}`,
        error: 'InvalidHeaderValue',
      },
    ]);
  });

  it('a parameter given by name without a parameter region is read in the client’s own region (the home region’s probe function)', async () => {
    const inOwnRegion = awsSecretSource({
      clientOptions: {
        region: 'eu-west-1',
        credentials,
        env: { [ENDPOINT_VARIABLE.ssm]: parameterStore.endpoint },
      },
    });

    expect(await inOwnRegion.read({ parameter: PARAMETER })).toBe(PARAMETER_VALUE);
  });

  it('an unknown parameter fails the same way (ParameterNotFound)', async () => {
    const clock = { now: () => Date.now() };
    const prober = withHeaderSecrets(probe, new HeaderSecrets(source(), clock), clock);
    const observation = await prober(
      request([{ name: 'X-Api-Key', value: { parameter: '/shop/none' } }]),
      5_000,
    );
    expect(observation).toMatchObject({
      answered: false,
      reason: 'secret',
      detail:
        'header "X-Api-Key": parameter /shop/none does not exist (ParameterNotFound); the check was not sent',
    });
  });
});

describe('the cache of header secrets', () => {
  const reference = { secret: SECRET } as const;

  it('reads once while fresh, shares one read among concurrent checks, and reads again after 5 minutes', async () => {
    // Arrange
    const { reads, source } = countingSource(new Map([[SECRET, 'v1']]));
    const clock = manualClock();
    const secrets = new HeaderSecrets(source, clock);

    // Act
    const first = await Promise.all(Array.from({ length: 20 }, () => secrets.resolve(reference)));
    clock.advance(SECRET_CACHE.freshMs - 1);
    await secrets.resolve(reference);
    const readsWhileFresh = reads.length;
    clock.advance(1);
    await secrets.resolve(reference);

    // Assess
    expect(first.every((r) => r.ok && r.value === 'v1')).toBe(true);
    expect(readsWhileFresh).toBe(1);
    expect(reads).toHaveLength(2);
  });

  it('a rotated value reaches the checks at the next read', async () => {
    const values = new Map([[SECRET, 'v1']]);
    const { source } = countingSource(values);
    const clock = manualClock();
    const secrets = new HeaderSecrets(source, clock);
    await secrets.resolve(reference);
    values.set(SECRET, 'v2');
    clock.advance(SECRET_CACHE.freshMs);
    expect(await secrets.resolve(reference)).toEqual({ ok: true, value: 'v2' });
  });

  it('when reads fail, the last value is used for up to an hour after it was read, then the check fails', async () => {
    // Arrange
    const values = new Map([[SECRET, 'v1']]);
    const { reads, source } = countingSource(values);
    const clock = manualClock();
    const logger = recordingLogger();
    const secrets = new HeaderSecrets(source, clock, logger);
    await secrets.resolve(reference);
    values.delete(SECRET);

    // Act
    clock.advance(SECRET_CACHE.freshMs);
    const stale = await secrets.resolve(reference);
    clock.advance(SECRET_CACHE.staleMs - SECRET_CACHE.freshMs);
    const expired = await secrets.resolve(reference);

    // Assess
    expect(stale).toEqual({ ok: true, value: 'v1' });
    expect(expired).toMatchObject({ ok: false, detail: expect.stringContaining('does not exist') });
    expect(reads).toHaveLength(3);
    expect(logger.lines.join('\n')).not.toContain('v1"');
  });

  it('after a failed read, the next read waits 30 s (a missing permission does not flood the service)', async () => {
    const { reads, source } = countingSource(new Map());
    const clock = manualClock();
    const secrets = new HeaderSecrets(source, clock);
    for (let i = 0; i < 10; i++) await secrets.resolve(reference);
    expect(reads).toHaveLength(1);
    clock.advance(SECRET_CACHE.retryMs);
    await secrets.resolve(reference);
    expect(reads).toHaveLength(2);
  });

  it.each([
    { name: 'an empty value', value: '   ' },
    { name: 'a value with a line break (header injection)', value: 'Bearer x\r\nX-Injected: 1' },
    { name: 'a value over 8,192 characters', value: 'x'.repeat(8193) },
  ])('$name is not sent: reason "secret", InvalidHeaderValue', async ({ value }) => {
    const { source } = countingSource(new Map([[SECRET, value]]));
    const secrets = new HeaderSecrets(source, manualClock());
    const resolution = await secrets.resolve(reference);
    expect(resolution).toEqual({
      ok: false,
      detail: `secret ${SECRET} does not hold a header value (text of at most 8192 printable ASCII characters, no line breaks) (InvalidHeaderValue)`,
    });
  });
});

describe('a failed read is told in our words and the error code, never the error message', () => {
  const reference = { secret: SECRET } as const;
  const failingWith = (thrown: unknown): SecretSource => ({
    read: () => Promise.reject(thrown),
  });
  const named = (name: string) => Object.assign(new Error(`message quoting ${SECRET_VALUE}`), { name });

  it.each([
    ['AccessDeniedException', 'may not be read by the probe'],
    ['AccessDenied', 'may not be read by the probe'],
    ['DecryptionFailure', 'could not be decrypted'],
    ['KMSAccessDeniedException', 'could not be decrypted'],
    ['InvalidKeyId', 'could not be decrypted'],
    ['InvalidRequestException', 'cannot be read now (is it marked for deletion?)'],
    ['ParameterVersionNotFound', 'does not exist'],
    ['ThrottlingException', 'could not be read'],
  ])('%s: %s', async (code, words) => {
    const logger = recordingLogger();
    const secrets = new HeaderSecrets(failingWith(named(code)), manualClock(), logger);
    const resolution = await secrets.resolve(reference);
    expect(resolution).toEqual({ ok: false, detail: expect.stringContaining(`${words}`) });
    expect(resolution).toEqual({ ok: false, detail: expect.stringMatching(new RegExp(`\\(${code}\\)$`)) });
    expect(JSON.stringify(resolution) + logger.lines.join('\n')).not.toContain(SECRET_VALUE);
  });

  it.each([
    ['an error whose name is not a code', named('not a code: Bearer s3cr3t')],
    ['a thrown value that is not an Error', 'Bearer s3cr3t'],
  ])('%s is logged and reported as Error', async (_what, thrown) => {
    const logger = recordingLogger();
    const secrets = new HeaderSecrets(failingWith(thrown), manualClock(), logger);
    expect(await secrets.resolve(reference)).toEqual({
      ok: false,
      detail: `secret ${SECRET} could not be read (Error)`,
    });
    expect(logger.lines.join('\n')).not.toContain('s3cr3t');
  });
});
