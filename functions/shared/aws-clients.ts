/**
 * The one factory for every AWS SDK client — the Lambda handlers, the local stack, the CLI and
 * the tests all build their clients here, so the configuration that runs in AWS is the one
 * the tests exercise.
 *
 * - Endpoints come from the standard `AWS_ENDPOINT_URL_<SERVICE>` variables (then
 *   `AWS_ENDPOINT_URL`), or an explicit `endpoint` option (the local stack, tests).
 * - Route 53 is a global service: its client always signs for us-east-1. Every request of
 *   every Route 53 client of the process waits for one limiter (5 requests/s, the account's
 *   API rate) as the last step before it is sent, and the SDK's retries are off
 *   (`maxAttempts: 1`): the evaluator's zone gateway is the one retry layer, so each attempt
 *   is one limited, counted request (SDK retries would send requests the gateway's metrics
 *   never see). Route 53 is called only from the evaluator function, whose reserved
 *   concurrency is 1, so this one limiter holds the whole deployment's rate.
 * - EventBridge: SDK retries off too (`maxAttempts: 1`); the event sink retries PutEvents —
 *   whole failures and the entries a partial failure names — with the one retry policy
 *   (`functions/evaluator/event-sinks.ts`), so there is one retry layer.
 * - The other clients keep the SDK's standard retry strategy (4 attempts for DynamoDB and its
 *   streams, 3 for the rest); DynamoDB's and SQS's partial
 *   failures (unprocessed batch items) are retried by `functions/shared/batch-items.ts`.
 * - Every attempt is bounded (`HTTP_TIMEOUTS`): an endpoint that accepts the connection and
 *   never answers (a stopped process, a stuck proxy) fails the attempt with the SDK's
 *   `TimeoutError`, which the retry layers treat as transient, instead of holding a handler or
 *   a `tm` command until the Lambda timeout or forever.
 */
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { Route53Client } from '@aws-sdk/client-route-53';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SSMClient } from '@aws-sdk/client-ssm';
import { STSClient } from '@aws-sdk/client-sts';
import { RateLimiter } from './rate-limiter.js';

type Environment = Readonly<Record<string, string | undefined>>;

export interface AwsClientOptions {
  /** @default - the SDK's (`AWS_REGION`); Route 53 is always us-east-1 */
  readonly region?: string | undefined;
  /** @default - `AWS_ENDPOINT_URL_<SERVICE>`, else `AWS_ENDPOINT_URL`, else the service's AWS endpoint */
  readonly endpoint?: string | undefined;
  /** @default - the SDK's default credential chain */
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string } | undefined;
  /** Where endpoint variables are read. @default process.env */
  readonly env?: Environment;
}

/** Per-service suffix of `AWS_ENDPOINT_URL_<SERVICE>` (the SDK's service ids, upper snake case). */
export const ENDPOINT_VARIABLE = {
  cloudWatch: 'AWS_ENDPOINT_URL_CLOUDWATCH',
  dynamodb: 'AWS_ENDPOINT_URL_DYNAMODB',
  dynamodbStreams: 'AWS_ENDPOINT_URL_DYNAMODB_STREAMS',
  eventBridge: 'AWS_ENDPOINT_URL_EVENTBRIDGE',
  route53: 'AWS_ENDPOINT_URL_ROUTE_53',
  s3: 'AWS_ENDPOINT_URL_S3',
  secretsManager: 'AWS_ENDPOINT_URL_SECRETS_MANAGER',
  sqs: 'AWS_ENDPOINT_URL_SQS',
  ssm: 'AWS_ENDPOINT_URL_SSM',
  sts: 'AWS_ENDPOINT_URL_STS',
} as const;

export type AwsService = keyof typeof ENDPOINT_VARIABLE;

/**
 * Per attempt: 3 s to open the connection (a regional endpoint takes milliseconds; 3 s covers
 * two lost SYNs), 4 s for the request and its whole answer (DynamoDB, SQS, EventBridge and
 * Secrets Manager answer in milliseconds, a Route 53 change in well under a second). The SDK's
 * 4 DynamoDB attempts of 4 s plus its backoff (about 17 s) end before the shortest function
 * timeout (the probe tick's 20 s), so a hung call is reported by the handler, not cut off by
 * Lambda; the evaluator's Route 53 retries stop starting after 30 s, and 30 + 4 s is inside
 * its minute. `throwOnRequestTimeout` makes the request timeout an error (without it the SDK
 * only logs a warning).
 */
export const HTTP_TIMEOUTS = {
  connectionTimeout: 3_000,
  requestTimeout: 4_000,
  throwOnRequestTimeout: true,
} as const;

function settings(service: AwsService, options: AwsClientOptions) {
  const env = options.env ?? process.env;
  const endpoint = options.endpoint ?? (env[ENDPOINT_VARIABLE[service]] || env.AWS_ENDPOINT_URL || undefined);
  return {
    ...(options.region ? { region: options.region } : {}),
    ...(endpoint ? { endpoint } : {}),
    ...(options.credentials ? { credentials: { ...options.credentials } } : {}),
    requestHandler: { ...HTTP_TIMEOUTS },
  };
}

/** The builder of `Client` for `service`: the settings above, with `extra` on top. */
function builder<C>(
  Client: new (config: ReturnType<typeof settings> & { maxAttempts?: number }) => C,
  service: AwsService,
  extra: { maxAttempts?: number } = {},
) {
  return (options: AwsClientOptions = {}): C => new Client({ ...settings(service, options), ...extra });
}

/**
 * CloudWatch in one region: each probe region publishes its votes as metrics in its own region,
 * where their alarms live (CloudWatch alarms read only their own region's metrics). The SDK's
 * standard retries; it gzips PutMetricData bodies of 10 KB and more.
 */
export const cloudWatchClient = builder(CloudWatchClient, 'cloudWatch');
export const dynamoDbClient = builder(DynamoDBClient, 'dynamodb');
export const dynamoDbStreamsClient = builder(DynamoDBStreamsClient, 'dynamodbStreams');
export const eventBridgeClient = builder(EventBridgeClient, 'eventBridge', { maxAttempts: 1 });
export const sqsClient = builder(SQSClient, 'sqs');
/** STS (the CLI asks who is calling, to record who set a runtime control). */
export const stsClient = builder(STSClient, 'sts');
/** Secrets Manager: the probe reads header secrets (functions/probe/header-secrets.ts). */
export const secretsManagerClient = builder(SecretsManagerClient, 'secretsManager');
/** SSM Parameter Store: the probe reads header parameters (functions/probe/header-secrets.ts). */
export const ssmClient = builder(SSMClient, 'ssm');

/**
 * S3: the config writer reads the definitions asset (infra/cdk/profile-config.ts). An endpoint
 * override (a stand-in on loopback) is addressed path-style, as no bucket host name resolves there.
 */
export function s3Client(options: AwsClientOptions = {}): S3Client {
  const base = settings('s3', options);
  return new S3Client({ ...base, forcePathStyle: 'endpoint' in base });
}

/** Route 53's API rate per account (requests per second). */
const ROUTE53_REQUESTS_PER_SECOND = 5;

/** The process's one Route 53 limiter, shared by every Route 53 client built here. */
const route53Limiter = new RateLimiter(ROUTE53_REQUESTS_PER_SECOND);

export interface Route53ClientOptions extends AwsClientOptions {
  /** A limiter of its own at this rate instead of the process's shared one. @default - the shared 5/s limiter */
  readonly requestsPerSecond?: number;
}

/** Route 53: us-east-1, every request through the rate limiter, no SDK retries (the zone gateway retries). */
export function route53Client(options: Route53ClientOptions = {}): Route53Client {
  const client = new Route53Client({ ...settings('route53', options), region: 'us-east-1', maxAttempts: 1 });
  const limiter =
    options.requestsPerSecond === undefined ? route53Limiter : new RateLimiter(options.requestsPerSecond);
  client.middlewareStack.add(
    (next) => async (args) => {
      await limiter.take();
      return next(args);
    },
    // The innermost step: after serializing and signing, right before the request is sent.
    { step: 'deserialize', priority: 'low', name: 'route53RateLimit' },
  );
  return client;
}

/**
 * The client factory, one builder per service. Handlers take it as a parameter defaulting to
 * this one, so a test can pass a factory that wraps it and attaches middleware (a recorder,
 * a meter) to the handlers' own production clients.
 */
export const awsClients = {
  cloudWatch: cloudWatchClient,
  dynamodb: dynamoDbClient,
  dynamodbStreams: dynamoDbStreamsClient,
  eventBridge: eventBridgeClient,
  route53: route53Client,
  s3: s3Client,
  secretsManager: secretsManagerClient,
  sqs: sqsClient,
  ssm: ssmClient,
  sts: stsClient,
} satisfies Record<AwsService, (options?: never) => object>;
export type AwsClients = typeof awsClients;
export type AwsClient = ReturnType<AwsClients[AwsService]>;
