/**
 * Least-privilege access for static failover (docs/adr/0011-static-failover.md, docs/deploy.md
 * "Static failover"):
 * - a probe region's role publishes metrics only in the static-failover namespace
 *   (`cloudwatch:namespace`) and only in its own region (`aws:RequestedRegion`; the role belongs
 *   to that region's stack);
 * - the evaluator creates, lists, updates and deletes Route 53 health checks, and nothing else of
 *   them: Update and Delete by health-check ARN; `CreateHealthCheck` and `ListHealthChecks` have
 *   no resource type, so they are granted on `*` — and only the
 *   alarms named by the deployment's prefixes (`<deployment>-vote-t-*`,
 *   `<deployment>-evaluator-publishing`, shared/static-failover/identity.ts) in the probe
 *   regions, and publishes its heartbeat in the namespace into those regions.
 */
import { Aws } from 'aws-cdk-lib';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { guardAlarmNameOf, voteAlarmNameOf } from '../../shared/static-failover/identity.js';
import { STATIC_FAILOVER_NAMESPACE } from '../../shared/static-failover/types.js';

/** PutMetricData in the static-failover namespace, only in `regions`. */
export function staticMetricStatement(regions: readonly string[], sid: string): PolicyStatement {
  return new PolicyStatement({
    sid,
    effect: Effect.ALLOW,
    // PutMetricData names no resource of ours (its only resource type is an OTLP dataset).
    actions: ['cloudwatch:PutMetricData'],
    resources: ['*'],
    conditions: {
      StringEquals: {
        'cloudwatch:namespace': STATIC_FAILOVER_NAMESPACE,
        'aws:RequestedRegion': [...regions],
      },
    },
  });
}

/** The evaluator's grants: health checks, the deployment's alarms in `probeRegions`, its heartbeat. */
export function evaluatorStaticFailoverStatements(
  deploymentName: string,
  probeRegions: readonly string[],
): PolicyStatement[] {
  const alarmArns = probeRegions.flatMap((region) =>
    // Its vote alarms and its guard alarm.
    [voteAlarmNameOf(deploymentName, 't-*'), guardAlarmNameOf(deploymentName)].map(
      (name) => `arn:${Aws.PARTITION}:cloudwatch:${region}:${Aws.ACCOUNT_ID}:alarm:${name}`,
    ),
  );
  return [
    new PolicyStatement({
      sid: 'ManageHealthChecks',
      actions: ['route53:UpdateHealthCheck', 'route53:DeleteHealthCheck'],
      // A health check's id exists only once created, so it cannot be named in advance.
      resources: [`arn:${Aws.PARTITION}:route53:::healthcheck/*`],
    }),
    new PolicyStatement({
      sid: 'CreateAndListHealthChecks',
      // No resource type: IAM authorizes them against "*" only.
      actions: ['route53:CreateHealthCheck', 'route53:ListHealthChecks'],
      resources: ['*'],
    }),
    new PolicyStatement({
      sid: 'ManageStaticFailoverAlarms',
      actions: ['cloudwatch:PutMetricAlarm', 'cloudwatch:DeleteAlarms', 'cloudwatch:DescribeAlarms'],
      resources: alarmArns,
    }),
    staticMetricStatement(probeRegions, 'PublishEvaluatorHeartbeat'),
  ];
}

/**
 * The probe regions static failover uses — the deployment's and those of the profiles with
 * `staticFailover` (where their votes, alarms and the guard live) — or undefined when no
 * profile has it on (nothing is granted, no `STATIC_FAILOVER_DEPLOYMENT` is set).
 */
export function staticFailoverRegions(
  profiles: readonly {
    readonly staticFailover: boolean;
    readonly probeRegions: readonly string[] | undefined;
  }[],
  defaultProbeRegions: readonly string[],
): string[] | undefined {
  const on = profiles.filter((profile) => profile.staticFailover);
  if (on.length === 0) return undefined;
  return [...new Set([...defaultProbeRegions, ...on.flatMap((p) => p.probeRegions ?? [])])].sort();
}
