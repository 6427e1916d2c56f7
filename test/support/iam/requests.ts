/** A recorded SDK call → the IAM authorization requests AWS makes for it. */
import type { RecordedCall } from './recorder.js';

export interface IamRequest {
  readonly principal: string;
  readonly action: string;
  readonly resource: string;
  readonly context: Readonly<Record<string, string | string[]>>;
  /** What the request was, for failure messages. */
  readonly describe: string;
}

export interface RequestSetting {
  readonly account: string;
  /** The test's table names → the deployment's (the synthesized policies name the deployed table). */
  readonly tableNames: Readonly<Record<string, string>>;
}

type Attr = { S?: string };
type Input = Record<string, unknown>;

function pkOf(item: unknown): string {
  return ((item as Record<string, Attr> | undefined)?.pk?.S ?? '') as string;
}

export function requestsOf(call: RecordedCall, setting: RequestSetting): IamRequest[] {
  const base = (action: string, resource: string, context: Record<string, string | string[]> = {}) => ({
    principal: call.principal,
    action,
    resource,
    context,
    describe: `${call.principal} ${action} ${resource} ${JSON.stringify(context)}`,
  });
  const input = call.input;
  if (call.service === 'dynamodb') {
    const table = (name: string) =>
      `arn:aws:dynamodb:${call.region}:${setting.account}:table/${setting.tableNames[name] ?? name}`;
    const keyed = (action: string, tableName: string, pks: string[]) =>
      base(`dynamodb:${action}`, table(tableName), { 'dynamodb:LeadingKeys': [...new Set(pks)] });
    const name = input.TableName as string;
    switch (call.operation) {
      case 'PutItem':
        return [keyed('PutItem', name, [pkOf(input.Item)])];
      case 'GetItem':
      case 'DeleteItem':
      case 'UpdateItem':
        return [keyed(call.operation, name, [pkOf(input.Key)])];
      case 'Query': {
        const match = /pk\s*=\s*(:\w+)/.exec(String(input.KeyConditionExpression));
        const values = input.ExpressionAttributeValues as Record<string, Attr>;
        return [keyed('Query', name, [values[match?.[1] ?? '']?.S ?? ''])];
      }
      case 'BatchGetItem':
        return Object.entries(input.RequestItems as Record<string, { Keys: unknown[] }>).map(([t, r]) =>
          keyed('BatchGetItem', t, r.Keys.map(pkOf)),
        );
      case 'BatchWriteItem':
        return Object.entries(input.RequestItems as Record<string, Input[]>).map(([t, writes]) =>
          keyed(
            'BatchWriteItem',
            t,
            writes.map((w) =>
              pkOf((w.PutRequest as Input | undefined)?.Item ?? (w.DeleteRequest as Input | undefined)?.Key),
            ),
          ),
        );
      case 'TransactWriteItems':
        return (input.TransactItems as Input[]).map((t) => {
          const [kind, op] = Object.entries(t)[0] as [string, Input];
          const action =
            {
              Put: 'PutItem',
              Update: 'UpdateItem',
              Delete: 'DeleteItem',
              ConditionCheck: 'ConditionCheckItem',
            }[kind] ?? kind;
          return keyed(action, op.TableName as string, [pkOf(op.Item ?? op.Key)]);
        });
      case 'TransactGetItems':
        return (input.TransactItems as { Get: Input }[]).map(({ Get }) =>
          keyed('GetItem', Get.TableName as string, [pkOf(Get.Key)]),
        );
      default:
        return [base(`dynamodb:${call.operation}`, table(name))];
    }
  }
  if (call.service === 'route53') {
    const zone = (id: unknown) =>
      `arn:aws:route53:::hostedzone/${String(id).replace(/^\/?hostedzone\//, '')}`;
    const collection = (id: unknown) => `arn:aws:route53:::cidrcollection/${String(id)}`;
    switch (call.operation) {
      case 'ChangeResourceRecordSets': {
        const changes = (
          input.ChangeBatch as {
            Changes: { Action: string; ResourceRecordSet: { Name: string; Type: string } }[];
          }
        ).Changes;
        return [
          base('route53:ChangeResourceRecordSets', zone(input.HostedZoneId), {
            'route53:ChangeResourceRecordSetsNormalizedRecordNames': [
              ...new Set(changes.map((c) => c.ResourceRecordSet.Name.toLowerCase().replace(/\.$/, ''))),
            ],
            'route53:ChangeResourceRecordSetsRecordTypes': [
              ...new Set(changes.map((c) => c.ResourceRecordSet.Type)),
            ],
            'route53:ChangeResourceRecordSetsActions': [...new Set(changes.map((c) => c.Action))],
          }),
        ];
      }
      case 'ListResourceRecordSets':
      case 'GetHostedZone':
        return [base(`route53:${call.operation}`, zone(input.HostedZoneId ?? input.Id))];
      case 'GetChange':
        return [
          base(
            'route53:GetChange',
            `arn:aws:route53:::change/${String(input.Id).replace(/^\/?change\//, '')}`,
          ),
        ];
      case 'ListCidrCollections':
        return [base('route53:ListCidrCollections', '*')];
      case 'CreateHealthCheck':
      case 'ListHealthChecks':
        return [base(`route53:${call.operation}`, '*')]; // no resource type: IAM sees "*"
      case 'GetHealthCheck':
      case 'UpdateHealthCheck':
      case 'DeleteHealthCheck':
      case 'GetHealthCheckStatus':
        return [
          base(`route53:${call.operation}`, `arn:aws:route53:::healthcheck/${String(input.HealthCheckId)}`),
        ];
      case 'ListTagsForResource':
      case 'ChangeTagsForResource':
        return [
          base(
            `route53:${call.operation}`,
            `arn:aws:route53:::${String(input.ResourceType)}/${String(input.ResourceId)}`,
          ),
        ];
      case 'CreateCidrCollection':
        return [base('route53:CreateCidrCollection', '*')]; // no resource type: IAM sees "*"
      default:
        return [base(`route53:${call.operation}`, collection(input.Id ?? input.CollectionId))];
    }
  }
  if (call.service === 'eventBridge') {
    const buses = new Set(
      ((input.Entries as Input[] | undefined) ?? []).map((e) => String(e.EventBusName ?? 'default')),
    );
    return [...buses].map((bus) =>
      base('events:PutEvents', `arn:aws:events:${call.region}:${setting.account}:event-bus/${bus}`),
    );
  }
  if (call.service === 'sqs') {
    const queue = String(input.QueueUrl).split('/').pop();
    return [base('sqs:SendMessage', `arn:aws:sqs:${call.region}:${setting.account}:${queue}`)];
  }
  if (call.service === 'secretsManager' && call.operation === 'GetSecretValue') {
    // The secret, then the decryption Secrets Manager makes for the caller with its key.
    const arn = String(input.SecretId);
    return [
      base('secretsmanager:GetSecretValue', arn),
      base('kms:Decrypt', kmsKeyArn(call.region, setting.account), {
        'kms:ViaService': `secretsmanager.${call.region}.amazonaws.com`,
      }),
    ];
  }
  if (call.service === 'ssm' && call.operation === 'GetParameter') {
    const name = String(input.Name);
    const arn = name.startsWith('arn:')
      ? name
      : `arn:aws:ssm:${call.region}:${setting.account}:parameter/${name.replace(/^\//, '')}`;
    return [
      base('ssm:GetParameter', arn),
      ...(input.WithDecryption === true
        ? [
            base('kms:Decrypt', kmsKeyArn(call.region, setting.account), {
              'kms:ViaService': `ssm.${call.region}.amazonaws.com`,
            }),
          ]
        : []),
    ];
  }
  if (call.service === 's3' && call.operation === 'GetObject') {
    return [base('s3:GetObject', `arn:aws:s3:::${String(input.Bucket)}/${String(input.Key)}`)];
  }
  if (call.service === 'cloudWatch') return cloudWatchRequests(call, setting, base);
  throw new Error(`no IAM mapping for ${call.service}:${call.operation}`);
}

/** A customer-managed key of the account (the caller never names it: the service does). */
function kmsKeyArn(region: string, account: string): string {
  return `arn:aws:kms:${region}:${account}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;
}

/**
 * CloudWatch: PutMetricData names no resource of ours (`*`) and carries `cloudwatch:namespace`;
 * the alarm actions are authorized per alarm ARN (a DescribeAlarms without names: `*`). Every
 * request carries `aws:RequestedRegion`, the region the client signs for.
 */
function cloudWatchRequests(
  call: RecordedCall,
  setting: RequestSetting,
  base: (action: string, resource: string, context?: Record<string, string | string[]>) => IamRequest,
): IamRequest[] {
  const input = call.input;
  const region = { 'aws:RequestedRegion': call.region };
  const alarm = (name: unknown) =>
    `arn:aws:cloudwatch:${call.region}:${setting.account}:alarm:${String(name)}`;
  switch (call.operation) {
    case 'PutMetricData':
      return [
        base('cloudwatch:PutMetricData', '*', { ...region, 'cloudwatch:namespace': String(input.Namespace) }),
      ];
    case 'PutMetricAlarm':
      return [base('cloudwatch:PutMetricAlarm', alarm(input.AlarmName), region)];
    case 'DeleteAlarms':
    case 'DescribeAlarms': {
      const names = (input.AlarmNames as string[] | undefined) ?? [];
      if (names.length === 0) return [base(`cloudwatch:${call.operation}`, '*', region)];
      return names.map((name) => base(`cloudwatch:${call.operation}`, alarm(name), region));
    }
    default:
      throw new Error(`no IAM mapping for cloudWatch:${call.operation}`);
  }
}
