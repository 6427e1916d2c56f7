/**
 * Header values kept in Secrets Manager or SSM Parameter Store (shared/profile/secret-references.ts),
 * read by the probe when it runs, cached, and sent — never stored, logged or reported.
 *
 * Caching (per probe container, per reference):
 * - a value read is used for `freshMs` (5 minutes): a rotated secret reaches the checks within
 *   that time, and one warm container reads each secret about 12 times an hour;
 * - concurrent checks needing the same reference share one read;
 * - when a read fails, the last value read keeps being used for up to `staleMs` (1 hour)
 *   after it was read, and the failure is logged (reference and error code, never a value);
 * - with no usable value, the check is not sent: it fails with reason `secret` and a detail
 *   naming the header and the reference. A failed read is retried after `retryMs` (30 s),
 *   not on every check, so a missing permission does not flood the service.
 */
import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { GetParameterCommand } from '@aws-sdk/client-ssm';
import type { Clock } from '../../shared/clock.js';
import { TrafficManagerError } from '../../shared/errors.js';
import { LIMITS } from '../../shared/profile/defaults.js';
import { isHeaderValue } from '../../shared/profile/names.js';
import { describeReference, isSecretReference, regionOf } from '../../shared/profile/secret-references.js';
import type { Header, SecretReference } from '../../shared/profile/types.js';
import type { ProbeRequest, Prober } from '../../shared/probe/target.js';
import {
  awsClients,
  type AwsClientOptions,
  type AwsClients,
  type secretsManagerClient,
  type ssmClient,
} from '../shared/aws-clients.js';
import { SecretValueError } from './errors.js';
import { unsentForSecret } from './probers/http-request.js';

export const SECRET_CACHE = {
  freshMs: 5 * 60_000,
  staleMs: 60 * 60_000,
  retryMs: 30_000,
} as const;

/** Reads a reference's current value; throws the SDK's error when it cannot. */
export interface SecretSource {
  read(reference: SecretReference): Promise<string>;
}

export interface SecretSourceOptions {
  /** The region of parameters given by name (the deployment's home region). @default - the SDK's region */
  readonly parameterRegion?: string | undefined;
  /** Endpoint and credentials for every client (the local stand-ins). @default - from the environment */
  readonly clientOptions?: AwsClientOptions;
  /** The client factory. @default awsClients */
  readonly clients?: AwsClients;
}

/** Reads secrets and parameters with the production SDK clients, one client per region. */
export function awsSecretSource(options: SecretSourceOptions = {}): SecretSource {
  const secretsClients = new Map<string, ReturnType<typeof secretsManagerClient>>();
  const ssmClients = new Map<string, ReturnType<typeof ssmClient>>();
  const factory = options.clients ?? awsClients;
  const clientIn = <C>(
    clients: Map<string, C>,
    region: string | undefined,
    build: (o: AwsClientOptions) => C,
  ) => {
    const key = region ?? '';
    let client = clients.get(key);
    if (client === undefined) {
      client = build({ ...options.clientOptions, ...(region ? { region } : {}) });
      clients.set(key, client);
    }
    return client;
  };
  return {
    async read(reference) {
      const region = regionOf(reference);
      if ('secret' in reference) {
        const client = clientIn(secretsClients, region, factory.secretsManager);
        const output = await client.send(new GetSecretValueCommand({ SecretId: reference.secret }));
        if (output.SecretString === undefined) throw new SecretValueError('the secret holds binary data');
        return output.SecretString;
      }
      const client = clientIn(ssmClients, region ?? options.parameterRegion, factory.ssm);
      const output = await client.send(
        new GetParameterCommand({ Name: reference.parameter, WithDecryption: true }),
      );
      if (output.Parameter?.Value === undefined) throw new SecretValueError('the parameter has no value');
      return output.Parameter.Value;
    },
  };
}

export type Resolution =
  { readonly ok: true; readonly value: string } | { readonly ok: false; readonly detail: string };

export interface SecretsLogger {
  warn(message: string, fields: Record<string, unknown>): void;
}

interface Entry {
  value?: string;
  readAt?: number;
  failedAt?: number;
  failure?: string;
  reading?: Promise<void>;
}

/** The cache in front of a `SecretSource` (the policy is in this file's header). */
export class HeaderSecrets {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly source: SecretSource,
    private readonly clock: Clock,
    private readonly logger?: SecretsLogger,
  ) {}

  async resolve(reference: SecretReference): Promise<Resolution> {
    const key = describeReference(reference);
    let entry = this.entries.get(key);
    if (entry === undefined) {
      entry = {};
      this.entries.set(key, entry);
    }
    const now = this.clock.now();
    const fresh = entry.readAt !== undefined && now - entry.readAt < SECRET_CACHE.freshMs;
    const waiting = entry.failedAt !== undefined && now - entry.failedAt < SECRET_CACHE.retryMs;
    // A read in flight leaves readAt and failedAt as they were, so every caller meanwhile joins it.
    if (!fresh && !waiting) {
      entry.reading ??= this.read(reference, key, entry).finally(() => (entry.reading = undefined));
      await entry.reading;
    }
    return this.usable(entry, key);
  }

  private async read(reference: SecretReference, key: string, entry: Entry): Promise<void> {
    try {
      const value = (await this.source.read(reference)).trim();
      if (value === '' || value.length > LIMITS.headerValueLength || !isHeaderValue(value))
        throw new SecretValueError('not a header value');
      entry.value = value;
      entry.readAt = this.clock.now();
      entry.failedAt = undefined;
      entry.failure = undefined;
    } catch (error) {
      const code = codeOf(error);
      entry.failedAt = this.clock.now();
      entry.failure = `${key} ${explain(code)} (${code})`;
      const usable = this.usable(entry, key).ok;
      this.logger?.warn('reading a header secret failed', {
        reference: key,
        error: code,
        ...(usable ? { usingValueReadAt: new Date(entry.readAt!).toISOString() } : {}),
      });
    }
  }

  private usable(entry: Entry, key: string): Resolution {
    const now = this.clock.now();
    if (entry.value !== undefined && entry.readAt !== undefined && now - entry.readAt < SECRET_CACHE.staleMs)
      return { ok: true, value: entry.value };
    return { ok: false, detail: entry.failure ?? `${key} could not be read` };
  }
}

/**
 * A prober that sends header secrets resolved: a target without references goes through
 * as it is; one whose reference cannot be resolved is not sent and fails with reason
 * `secret`. The resolved target is kept per target while its values stay the same, so the
 * prober's own per-target preparation is reused.
 */
export function withHeaderSecrets(prober: Prober, secrets: HeaderSecrets, clock: Clock): Prober {
  const resolvedTargets = new WeakMap<ProbeRequest, { values: string; target: ProbeRequest }>();
  return async (target, timeoutMs) => {
    if (!target.headers.some((header) => isSecretReference(header.value))) return prober(target, timeoutMs);
    const headers: Header[] = [];
    for (const header of target.headers) {
      if (!isSecretReference(header.value)) {
        headers.push(header);
        continue;
      }
      const resolved = await secrets.resolve(header.value);
      if (!resolved.ok)
        return unsentForSecret(
          clock.now(),
          timeoutMs,
          `header ${JSON.stringify(header.name)}: ${resolved.detail}; the check was not sent`,
        );
      headers.push({ name: header.name, value: resolved.value });
    }
    const values = headers.map((header) => header.value).join('\u0000');
    let resolved = resolvedTargets.get(target);
    if (resolved?.values !== values) {
      resolved = { values, target: { ...target, headers } };
      resolvedTargets.set(target, resolved);
    }
    return prober(resolved.target, timeoutMs);
  };
}

/** The AWS error code of a failed read (the SDK's exception name), or ours. */
function codeOf(error: unknown): string {
  const name =
    error instanceof TrafficManagerError ? error.code : error instanceof Error ? error.name : undefined;
  return typeof name === 'string' && /^[A-Za-z][A-Za-z0-9.]{0,80}$/.test(name) ? name : 'Error';
}

/** Our words for the error codes Secrets Manager and SSM answer with (never the error's message). */
function explain(code: string): string {
  switch (code) {
    case 'ResourceNotFoundException':
    case 'ParameterNotFound':
    case 'ParameterVersionNotFound':
      return 'does not exist';
    case 'AccessDeniedException':
    case 'AccessDenied':
      return 'may not be read by the probe (its role needs secretsmanager:GetSecretValue or ssm:GetParameter on it, and kms:Decrypt on a customer-managed key)';
    case 'DecryptionFailure':
    case 'KMSAccessDeniedException':
    case 'InvalidKeyId':
      return 'could not be decrypted (the probe role needs kms:Decrypt on its customer-managed key)';
    case 'InvalidHeaderValue':
      return 'does not hold a header value (text of at most 8192 printable ASCII characters, no line breaks)';
    case 'InvalidRequestException':
      return 'cannot be read now (is it marked for deletion?)';
    default:
      return 'could not be read';
  }
}
