/**
 * The AWS JSON 1.1 protocol (Secrets Manager, SSM, …) for local stand-ins: `POST /` with
 * `X-Amz-Target: <prefix>.<Operation>` and a JSON body; answers JSON, errors as
 * `{ "__type": code, "message": … }` with the code in `x-amzn-errortype` too — what the
 * SDK's JSON protocol parses. Served through the shared guard (loopback, SigV4-shaped
 * `Authorization` for the service, no browser requests).
 */
import { randomUUID } from 'node:crypto';
import { TrafficManagerError } from '../../shared/errors.js';
import {
  startGuardedHttpServer,
  type GuardedHttpServer,
  type GuardedRequest,
  type HttpReply,
} from './http-guard.js';

/** An error the service answers with (HTTP 400 unless given); `code` is the AWS error code. */
export class AwsJsonError extends TrafficManagerError {
  override readonly name = 'AwsJsonError';
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** The region a SigV4 `Authorization` header is scoped to. */
export function signedRegionOf(request: GuardedRequest): string {
  const scope = /Credential=[^/]+\/\d{8}\/([a-z0-9-]+)\//.exec(String(request.headers.authorization ?? ''));
  return scope?.[1] ?? 'us-east-1';
}

export type AwsJsonOperation = (input: Readonly<Record<string, unknown>>, request: GuardedRequest) => unknown;

export interface AwsJsonServerOptions {
  /** The SigV4 signing name the guard requires (`secretsmanager`, `ssm`). */
  readonly signingName: string;
  /** `X-Amz-Target` prefix (`secretsmanager`, `AmazonSSM`). */
  readonly targetPrefix: string;
  readonly operations: Readonly<Record<string, AwsJsonOperation>>;
}

/** An answer of AWS JSON `version` (1.0: CloudWatch; 1.1: Secrets Manager, SSM), with a request id. */
export function awsJsonReply(
  version: '1.0' | '1.1',
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): HttpReply {
  return {
    status,
    headers: {
      'content-type': `application/x-amz-json-${version}`,
      'x-amzn-requestid': randomUUID(),
      ...headers,
    },
    body: JSON.stringify(body),
  };
}

export function startAwsJsonServer(options: AwsJsonServerOptions): Promise<GuardedHttpServer> {
  const failure = (code: string, message: string, status: number) =>
    awsJsonReply('1.1', status, { __type: code, message }, { 'x-amzn-errortype': code });
  return startGuardedHttpServer({
    caller: { sigv4Service: options.signingName },
    errorReply: (error) => failure(error.code, error.message, error.status),
    handle: (request) => {
      try {
        const target = String(request.headers['x-amz-target'] ?? '');
        const [prefix, operationName] = target.split('.');
        const operation =
          request.method === 'POST' && request.url.pathname === '/' && prefix === options.targetPrefix
            ? options.operations[operationName ?? '']
            : undefined;
        if (operation === undefined || !Object.hasOwn(options.operations, operationName ?? ''))
          throw new AwsJsonError('UnknownOperationException', `Unknown operation ${JSON.stringify(target)}`);
        const input = jsonObjectOf(
          request.body,
          (message) => new AwsJsonError('SerializationException', message),
        );
        return awsJsonReply('1.1', 200, operation(input, request));
      } catch (error) {
        if (error instanceof AwsJsonError) return failure(error.code, error.message, error.status);
        throw error;
      }
    },
  });
}

/** A request body as a JSON object (an empty body is `{}`); `refuse` makes the protocol's SerializationException. */
export function jsonObjectOf(body: Buffer, refuse: (message: string) => Error): Record<string, unknown> {
  let input: unknown;
  try {
    input = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
  } catch {
    throw refuse('The request body is not valid JSON');
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw refuse('The request body must be a JSON object');
  return input as Record<string, unknown>;
}

/** `1 validation error detected: …` as AWS's validation layer words it. */
export function validationMessage(field: string, value: unknown, constraint: string): string {
  return `1 validation error detected: Value ${value === undefined ? 'null' : JSON.stringify(value)} at '${field}' failed to satisfy constraint: ${constraint}`;
}

function validationError(field: string, value: unknown, constraint: string): AwsJsonError {
  return new AwsJsonError('ValidationException', validationMessage(field, value, constraint));
}

/** The length constraint a string breaks, and the value as the message shows it (a long one cut at 40 characters). */
export function lengthViolation(
  value: string,
  min: number,
  max: number,
): readonly [shown: string, constraint: string] | undefined {
  if (value.length < min) return [value, `Member must have length greater than or equal to ${min}`];
  if (value.length > max)
    return [`${value.slice(0, 40)}…`, `Member must have length less than or equal to ${max}`];
  return undefined;
}

/** A string member of 1–max characters, or the service's ValidationException. */
export function requiredString(
  input: Readonly<Record<string, unknown>>,
  member: string,
  field: string,
  max: number,
): string {
  const value = input[member];
  if (value === undefined || value === null)
    throw validationError(field, undefined, 'Member must not be null');
  if (typeof value !== 'string')
    throw new AwsJsonError('SerializationException', `${member} must be a string`);
  const broken = lengthViolation(value, 1, max);
  if (broken !== undefined) throw validationError(field, ...broken);
  return value;
}
