/**
 * Which stack a `tm` command reads or changes: AWS when `--table` (or TM_TABLE_NAME) names
 * a deployment's table — credentials, region and endpoint from the usual AWS SDK
 * configuration (`--region`, AWS_REGION, AWS_ENDPOINT_URL_DYNAMODB …) — else the running
 * local stack (the one on `--dns-port` when given).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { dynamoDbClient, stsClient } from '../../functions/shared/aws-clients.js';
import { GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { userInfo } from 'node:os';
import { selectRunningStack, type LocalStackPointer } from '../local/state-file.js';
import { FAULT, refuseWhileHomeRegionDown } from '../local/faults.js';
import { LOCAL_CREDENTIALS } from '../local/home-table.js';
import { call } from './fault.js';
import type { Io } from './io.js';

export interface StackOptions {
  readonly dnsPort?: number;
  readonly table?: string;
  readonly region?: string;
}

export interface Stack {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  /** `the local stack (DNS port 5353)` or `table NAME in REGION`, for messages. */
  readonly description: string;
  /** The local stack's DNS port (UDP and TCP on 127.0.0.1); absent against AWS. */
  readonly dnsPort?: number;
  /** The local stack's state file (its other endpoints); absent against AWS. */
  readonly pointer?: LocalStackPointer;
  /**
   * Who is calling, to record beside a runtime control: against AWS the principal's ARN
   * (STS GetCallerIdentity), locally — or when AWS gives no answer — the OS user.
   */
  callerIdentity(): Promise<string>;
}

/** The stack `options` name, or undefined once it has said on stderr that there is no stack to reach. */
export function connectOrSay(options: StackOptions, command: string, io: Io): Stack | undefined {
  if (options.table !== undefined) {
    const client = dynamoDbClient({ region: options.region });
    return {
      client,
      tableName: options.table,
      description: `table ${options.table}${options.region === undefined ? '' : ` in ${options.region}`}`,
      callerIdentity: () => awsIdentity(options.region),
    };
  }
  const selected = selectRunningStack(options.dnsPort);
  if ('problem' in selected) {
    io.stderr.write(
      `tm ${command}: ${selected.problem} (start one with \`npm start\` or \`tm local\`);\n` +
        `  for AWS, name the table: tm ${command} --table NAME [--region REGION]  (or set TM_TABLE_NAME)\n`,
    );
    return undefined;
  }
  const pointer = selected.stack;
  const stack = { ...localStack(pointer), pointer };
  // The home-region fault (tm fault): the table refuses this command's calls too, as a dead region would.
  if (pointer.controlEndpoint !== undefined) {
    let down: Promise<boolean> | undefined;
    refuseWhileHomeRegionDown(stack.client, () => (down ??= homeRegionFaulted(pointer)));
  }
  return stack;
}

async function homeRegionFaulted(pointer: LocalStackPointer): Promise<boolean> {
  try {
    const { faults } = await call<{ faults: string[] }>(pointer, 'GET', '/faults');
    return faults.includes(FAULT.homeRegion);
  } catch {
    return false; // no answer about faults: the table call says what it finds
  }
}

/** The local stack at that DynamoDB Local endpoint (from its state file, or `tm local` itself). */
export function localStack(
  local: Pick<LocalStackPointer, 'dnsPort' | 'dynamodbEndpoint' | 'tableName'>,
): Stack {
  return {
    client: dynamoDbClient({
      endpoint: local.dynamodbEndpoint,
      region: 'us-east-1',
      credentials: LOCAL_CREDENTIALS,
    }),
    tableName: local.tableName,
    description: `the local stack (DNS port ${local.dnsPort})`,
    dnsPort: local.dnsPort,
    callerIdentity: async () => osUser(),
  };
}

async function awsIdentity(region: string | undefined): Promise<string> {
  const sts = stsClient({ region });
  try {
    const { Arn } = await sts.send(new GetCallerIdentityCommand({}), {
      abortSignal: AbortSignal.timeout(STS_TIMEOUT_MS),
    });
    return Arn ?? osUser();
  } catch {
    return osUser();
  } finally {
    sts.destroy();
  }
}

/** Long enough for STS on a slow link; short enough not to hold an operator's command up. */
const STS_TIMEOUT_MS = 5_000;

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'unknown user';
  }
}
